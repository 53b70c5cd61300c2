"""The rows of eval-instruction-v1 (and -v2): a short text about an everyday object under 1-5
rules of the DSL (spec 001). ``build_row`` first writes a compliant text with the structure the
rules will demand (paragraphs, bullets, lines, JSON keys, case, phrases), derives the numeric
bounds from it and states each rule as an instruction sentence (``say``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from common import lib

from families.instruction import rules

DIFFICULTIES = ("easy", "medium", "hard")
RULE_COUNTS = {"easy": (1, 2), "medium": (3, 3), "hard": (4, 5)}
TOPICS = (
    ("lighthouse", "sea ship lamp"),
    ("windmill", "wind grain sail"),
    ("bridge", "river traffic span"),
    ("library", "book shelf reader"),
    ("bicycle", "wheel pedal chain"),
    ("garden", "soil seed flower"),
    ("clock", "hour minute second"),
    ("kite", "string sky tail"),
    ("market", "stall price vendor"),
    ("telescope", "star lens planet"),
    ("beehive", "bee honey wax"),
    ("canal", "boat lock barge"),
    ("umbrella", "rain handle fabric"),
    ("violin", "string bow music"),
    ("compass", "north needle map"),
    ("lantern", "flame oil glass"),
    ("harbour", "ship dock tide"),
    ("orchard", "apple tree fruit"),
    ("bakery", "bread oven flour"),
    ("museum", "exhibit gallery painting"),
    ("sundial", "shadow sun noon"),
    ("greenhouse", "plant glass heat"),
    ("tram", "track rail passenger"),
    ("aqueduct", "water arch stone"),
    ("observatory", "star dome night"),
)
FILLERS = ("very", "really", "thing", "things", "nice", "basically", "actually", "stuff")
TASKS = (
    "Write a short description of {a}.",
    "Explain to a curious reader what {a} is.",
    "Write a brief note about {a}.",
    "Describe {a} in plain language.",
)
# Comma-free, digit-free sentences; the topical ones name the object once.
TOPICAL = (
    "{The} is something most people recognise at once.",
    "A good way to understand {the} is to look at how it is used.",
    "Each part of {the} has a clear role to play.",
    "A closer look at {the} shows how the parts fit together.",
    "Many visitors stop to study {the} for a while.",
    "The shape of {the} follows from what it is meant to do.",
    "Children often ask how {the} works.",
    "{The} rewards anyone who takes a moment to observe it.",
    "Someone who cares for {the} learns its habits quickly.",
    "People who live near {a} tend to know it well.",
)
GENERIC = (
    "It has a purpose that is easy to explain.",
    "It works best when it is looked after with care.",
    "Some details are easy to miss on a first look.",
    "It can look quite different from one place to the next.",
    "Simple materials are often enough to make it last.",
    "A short explanation usually answers most questions about it.",
    "Anyone can learn the basic ideas in an afternoon.",
    "Small repairs now and then keep it in working shape.",
    "Its design has changed slowly over many generations.",
    "Good design makes it look simpler than it is.",
)
PLACEHOLDERS = (
    "Ask [name] for more details.",
    "Write to [name] at [address] to learn more.",
    "Meet [name] at [place] on [date] to see one.",
)
STARTS = ("Here is a short description:", "In brief:", "Quick overview:", "Short answer:")
ENDS = ("That is all.", "Thank you for reading.", "End of description.", "That covers it.")
JSON_KEYS = ("name", "summary", "purpose", "notes", "history")
OPTIONAL = {
    "prose": "word_count sentence_count contains_keyword forbidden_words case no_commas "
    "starts_with ends_with wrapped_in_quotes title postscript placeholder_count max_chars",
    "bullets": "word_count contains_keyword forbidden_words case no_commas starts_with ends_with "
    "title postscript placeholder_count max_chars",
    "lines": "word_count contains_keyword forbidden_words case no_commas starts_with "
    "placeholder_count max_chars",
    "json": "contains_keyword forbidden_words case max_chars",
}
# One of these is always asked (prose: a random one of the three length rules).
MANDATORY = {
    "prose": "word_count sentence_count paragraph_count",
    "bullets": "bullet_count",
    "lines": "line_count",
    "json": "json_object",
}
LAYOUTS = tuple(OPTIONAL)
CASE_RULES = {"upper": "all_uppercase", "lower": "all_lowercase"}
# Pairs that cannot be asked together without making the count rules ambiguous.
CLASHES = {
    frozenset(p.split())
    for p in (
        "sentence_count ends_with",
        "sentence_count postscript",
        "paragraph_count title",
        "paragraph_count postscript",
        "wrapped_in_quotes starts_with",
        "wrapped_in_quotes ends_with",
        "wrapped_in_quotes title",
        "wrapped_in_quotes postscript",
        "ends_with postscript",
        "starts_with title",
    )
}


def _pick_kinds(rng: random.Random, layout: str, difficulty: str) -> list[str]:
    low, high = RULE_COUNTS[difficulty]
    want = rng.randint(low, high)
    kinds = [rng.choice(MANDATORY[layout].split())]
    pool = [kind for kind in OPTIONAL[layout].split() if kind not in kinds]
    rng.shuffle(pool)
    for kind in pool:
        if len(kinds) >= want:
            break
        if all(frozenset((kind, other)) not in CLASHES for other in kinds):
            kinds.append(kind)
    return kinds


def _sentences(rng: random.Random, noun: str, count: int, placeholder: bool) -> list[str]:
    """``count`` sentences: two topical ones first, then a shuffled mix."""
    a = f"an {noun}" if noun[0] in "aeiou" else f"a {noun}"
    topical = [t.format(The=f"The {noun}", the=f"the {noun}", a=a) for t in TOPICAL]
    rng.shuffle(topical)
    rest = topical[2:] + list(GENERIC)
    rng.shuffle(rest)
    chosen = (topical[:2] + rest)[:count]
    if placeholder:
        chosen[-1] = rng.choice(PLACEHOLDERS)
    return chosen


def _build(rng: random.Random, layout: str, kinds: list[str], noun: str) -> tuple[str, dict]:
    """The compliant text and the structural facts the rules will state."""
    facts: dict[str, Any] = {"case": None}
    if "case" in kinds:
        # P.S. stays upper case and JSON keys stay lower case, so those force the choice.
        upper = "postscript" in kinds or (layout != "json" and rng.random() < 0.5)
        facts["case"] = "upper" if upper else "lower"
    has_ph = "placeholder_count" in kinds
    if layout == "prose":
        n_par = rng.randint(2, 4) if "paragraph_count" in kinds else 1
        per = [rng.randint(2, 3) if n_par > 1 else rng.randint(3, 5) for _ in range(n_par)]
        sents = _sentences(rng, noun, sum(per), has_ph)
        pars, start = [], 0
        for n in per:
            pars.append(" ".join(sents[start : start + n]))
            start += n
        for kind, value in (("paragraph_count", n_par), ("sentence_count", sum(per))):
            if kind in kinds:
                facts[kind] = value
        body = "\n\n".join(pars)
    elif layout in ("bullets", "lines"):
        n = rng.randint(3, 6)
        items = _sentences(rng, noun, n, has_ph)
        body = "\n".join(("- " if layout == "bullets" else "") + s for s in items)
        facts[f"{layout[:-1]}_count"] = n
    else:
        keys = [JSON_KEYS[0], *rng.sample(JSON_KEYS[1:], rng.randint(1, 3))]
        values = [noun, *_sentences(rng, noun, len(keys) - 1, False)]
        body = json.dumps(dict(zip(keys, values, strict=True)), indent=2, ensure_ascii=False)
        facts["required_keys"] = keys
    if "starts_with" in kinds:
        facts["start"] = rng.choice(STARTS)
        body = facts["start"] + ("\n" if layout == "bullets" else " ") + body
    if "title" in kinds:
        body = f"<<About the {noun}>>\n{body}"
    if "ends_with" in kinds:
        facts["end"] = rng.choice(ENDS)
        body = f"{body} {facts['end']}"
    if "postscript" in kinds:
        body += "\n\nP.S. Take a look at one the next time you pass by."
    case = {"upper": str.upper, "lower": str.lower, None: str}[facts["case"]]
    body = case(body)
    for key in ("start", "end"):
        if key in facts:
            facts[key] = case(facts[key])
    if "wrapped_in_quotes" in kinds:
        body = f'"{body}"'
    return body, facts


def _rule_for(kind: str, rng: random.Random, text: str, facts: dict, topic: tuple) -> dict:
    """The rule object of ``kind``; numeric bounds come from the compliant text."""
    if kind == "word_count":
        n = len(rules.words(text))
        low, high = max(5, n * 6 // 50 * 5), (n * 14 // 10 // 5 + 1) * 5
        return rng.choice(({"min": low, "max": high}, {"min": low}, {"max": high}))
    if kind in ("sentence_count", "paragraph_count", "bullet_count", "line_count"):
        return {"min": facts[kind], "max": facts[kind]}
    if kind == "max_chars":
        return {"max": (len(text.strip()) * 13 // 10 // 50 + 1) * 50}
    if kind == "contains_keyword":
        found = sum(1 for w in rules.words(text) if w.casefold() == topic[0])
        return {"keyword": topic[0], "min": min(found, rng.choice((2, 3)))}
    if kind == "forbidden_words":
        present = {w.casefold() for w in rules.words(text)}
        pool = [w for w in topic[1].split() + list(FILLERS) if w not in present]
        return {"words": sorted(rng.sample(pool, rng.randint(2, 3)))}
    if kind in ("starts_with", "ends_with"):
        return {"text": facts["start" if kind == "starts_with" else "end"]}
    if kind == "json_object":
        return {"required_keys": facts["required_keys"]}
    if kind == "postscript":
        return {"marker": "P.S."}
    if kind == "placeholder_count":
        return {"min": len(rules.PLACEHOLDER_RE.findall(text))}
    return {}


def say(rule: dict[str, Any]) -> str:
    """The instruction sentence the model reads for one rule."""
    kind = rule["type"]
    if kind == "word_count":
        if "min" in rule and "max" in rule:
            return f"Your response must be between {rule['min']} and {rule['max']} words long."
        return (
            f"Your response must be at {'least' if 'min' in rule else 'most'} "
            f"{rule.get('min', rule.get('max'))} words long."
        )
    quoted = ", ".join(f'"{w}"' for w in rule.get("words", rule.get("required_keys", [])))
    return {
        "sentence_count": "Write exactly {min} sentences.",
        "paragraph_count": "Write exactly {min} paragraphs, separated by a blank line.",
        "line_count": "Write exactly {min} lines of text, with no blank lines.",
        "bullet_count": 'Use exactly {min} bullet points, each on its own line starting with "- ".',
        "max_chars": "Your whole response must be at most {max} characters long.",
        "contains_keyword": 'Use the word "{keyword}" at least {min} times.',
        "forbidden_words": "Do not use any of these words: " + quoted + ".",
        "starts_with": 'Begin your response with the exact text "{text}".',
        "ends_with": 'End your response with the exact text "{text}", with nothing after it.',
        "all_lowercase": "Write your entire response in lowercase letters, with no capitals.",
        "all_uppercase": "Write your entire response in capital letters.",
        "no_commas": "Do not use any commas in your response.",
        "json_object": "Reply with only a JSON object with the keys "
        + quoted
        + ", each holding a string, and no text outside the JSON.",
        "wrapped_in_quotes": "Wrap your entire response in double quotation marks.",
        "title": "Give your response a title wrapped in double angular brackets, like <<title>>.",
        "postscript": 'At the end, add a postscript on its own line starting with "P.S.".',
        "placeholder_count": "Include at least {min} placeholder"
        + ("s" if rule.get("min", 1) > 1 else "")
        + " in square brackets, like [name].",
    }[kind].format(**rule)


def build_row(rng: random.Random, idx: int, row_id: str, scorer: str) -> dict[str, Any]:
    """Row ``idx`` of the v1 layout (difficulty cycles fastest, then the layout): a task, its
    rules and the compliant text they were derived from (``meta.example_pass``)."""
    difficulty = DIFFICULTIES[idx % len(DIFFICULTIES)]
    layout = LAYOUTS[(idx // len(DIFFICULTIES)) % len(LAYOUTS)]
    topic = rng.choice(TOPICS)
    kinds = _pick_kinds(rng, layout, difficulty)
    text, facts = _build(rng, layout, kinds, topic[0])
    answer_rules = []
    for kind in kinds:
        name = CASE_RULES[facts["case"]] if kind == "case" else kind
        answer_rules.append({"type": name, **_rule_for(kind, rng, text, facts, topic)})
    noun = topic[0]
    task = rng.choice(TASKS).format(a=f"an {noun}" if noun[0] in "aeiou" else f"a {noun}")
    lines = "\n".join(f"- {say(rule)}" for rule in answer_rules)
    return {
        "id": row_id,
        "category": layout,
        "difficulty": difficulty,
        "prompt": f"{task}\n\nFollow every one of these instructions:\n{lines}",
        "answer": {"all": answer_rules},
        "scorer": scorer,
        "meta": {"example_pass": text, "topic": noun, "facts": facts},
    }


def check_example(row: dict[str, Any]) -> None:
    """A row's proof: the example passes every rule; its structure is what the builder intended."""
    text, facts = row["meta"]["example_pass"], row["meta"]["facts"]
    ok, failed = rules.evaluate(row["answer"], text)
    assert ok, (row["id"], failed)
    for rule in row["answer"]["all"]:
        assert rule["type"] != "contains_keyword" or rule["min"] >= 2, row["id"]
    units = {
        "paragraph_count": rules.paragraphs,
        "bullet_count": rules.bullets,
        "line_count": rules.lines,
        "sentence_count": rules.sentences,
    }
    for kind, unit in units.items():
        if kind in facts:
            assert len(unit(text)) == facts[kind], (row["id"], kind)


def check_suite(rows: list[dict[str, Any]]) -> None:
    """Unique prompts, every layout at every difficulty, every rule asked somewhere."""
    lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    assert {(r["category"], r["difficulty"]) for r in rows} == {
        (layout, d) for layout in LAYOUTS for d in DIFFICULTIES
    }
    assert {rule["type"] for r in rows for rule in r["answer"]["all"]} == set(rules.RULES)


def shipped_checker(rows: list[dict[str, Any]]) -> dict[str, bytes]:
    """The dataset's extra file: the normative checker, copied byte for byte as ``rules.py``."""
    return {"rules.py": Path(rules.__file__).read_bytes()}
