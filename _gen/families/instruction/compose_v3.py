"""The rows of eval-instruction-v3 (issue 30): eval-instruction-v1's texts, layouts and rule
families (``compose``), with each rule's bounds measured and checked by ``rules_v3`` and two
instruction sentences made exact about what ``rules_v3`` checks: the title is the first line,
and the JSON object holds exactly the listed keys. Forbidden words are drawn among words in
their base form only ("thing", never "things"), since the rule also forbids their plurals.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from common import lib

from families.instruction import compose, rules_v3

FILLERS = tuple(w for w in compose.FILLERS if w != "things")
#: Sentences v3 words more exactly than v1 (the others are v1's, ``compose.say``).
SAY = {
    "title": "Start your response with a title on its own first line, wrapped in double "
    "angular brackets, like <<title>>.",
    "json_object": "Reply with only a JSON object with exactly the keys {keys}, each holding a "
    "string, and no text outside the JSON.",
}
CASES = {"upper": str.upper, "lower": str.lower, None: str}


def say(rule: dict[str, Any]) -> str:
    """The instruction sentence the model reads for one rule."""
    if rule["type"] == "title":
        return SAY["title"]
    if rule["type"] == "json_object":
        keys = ", ".join(f'"{key}"' for key in rule["required_keys"])
        return SAY["json_object"].format(keys=keys)
    return compose.say(rule)


def _rule_for(kind: str, rng: random.Random, text: str, facts: dict, topic: tuple) -> dict:
    """The rule object of ``kind``; bounds measured on the compliant text by ``rules_v3``."""
    if kind == "word_count":
        n = len(rules_v3.words(text))
        low, high = max(5, n * 6 // 50 * 5), (n * 14 // 10 // 5 + 1) * 5
        return rng.choice(({"min": low, "max": high}, {"min": low}, {"max": high}))
    if kind == "contains_keyword":
        found = rules_v3.form_count(text, topic[0])
        return {"keyword": topic[0], "min": min(found, rng.choice((2, 3)))}
    if kind == "forbidden_words":
        pool = [w for w in topic[1].split() + list(FILLERS) if not rules_v3.form_count(text, w)]
        return {"words": sorted(rng.sample(pool, rng.randint(2, 3)))}
    if kind == "placeholder_count":
        return {"min": len(rules_v3.PLACEHOLDER_RE.findall(text))}
    return compose._rule_for(kind, rng, text, facts, topic)


def build_row(rng: random.Random, idx: int, row_id: str, scorer: str) -> dict[str, Any]:
    """Row ``idx`` in v1's layout (difficulty cycles fastest, then the layout): a task, its
    rules and the compliant text they were measured on (``meta.example_pass``)."""
    difficulty = compose.DIFFICULTIES[idx % len(compose.DIFFICULTIES)]
    layout = compose.LAYOUTS[(idx // len(compose.DIFFICULTIES)) % len(compose.LAYOUTS)]
    topic = rng.choice(compose.TOPICS)
    kinds = compose._pick_kinds(rng, layout, difficulty)
    text, facts = compose._build(rng, layout, kinds, topic[0])
    answer_rules = []
    for kind in kinds:
        name = compose.CASE_RULES[facts["case"]] if kind == "case" else kind
        answer_rules.append({"type": name, **_rule_for(kind, rng, text, facts, topic)})
    noun = topic[0]
    task = rng.choice(compose.TASKS).format(a=f"an {noun}" if noun[0] in "aeiou" else f"a {noun}")
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
    """The example passes every rule, and its units are the counts the builder laid out."""
    text, facts = row["meta"]["example_pass"], row["meta"]["facts"]
    ok, failed = rules_v3.evaluate(row["answer"], text)
    assert ok, (row["id"], failed)
    for rule in row["answer"]["all"]:
        assert rule["type"] != "contains_keyword" or rule["min"] >= 2, row["id"]
    units = {
        "paragraph_count": rules_v3.paragraphs,
        "bullet_count": rules_v3.list_lines,
        "line_count": rules_v3.lines,
        "sentence_count": rules_v3.sentences,
    }
    for kind, unit in units.items():
        if kind in facts:
            assert len(unit(text)) == facts[kind], (row["id"], kind)


def check_suite(rows: list[dict[str, Any]]) -> None:
    """Unique prompts, every layout at every difficulty, every rule asked somewhere."""
    lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    assert {(r["category"], r["difficulty"]) for r in rows} == {
        (layout, d) for layout in compose.LAYOUTS for d in compose.DIFFICULTIES
    }
    assert {rule["type"] for r in rows for rule in r["answer"]["all"]} == set(rules_v3.RULES)


def shipped_checker(rows: list[dict[str, Any]]) -> dict[str, bytes]:
    """The dataset's extra file: the v3 checker, copied byte for byte as ``rules.py``."""
    return {"rules.py": Path(rules_v3.__file__).read_bytes()}
