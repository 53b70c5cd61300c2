"""Broken twins of an eval-instruction-v3 row for its rules on words and characters (issue
30): one word too many or too few, too long, an extra sentence (ending in "…", in '."' or
plainly), the exact start or end text altered or followed by more, a word in the wrong case, a
comma, the keyword once too few, a forbidden word as itself, a possessive, a plural or part of
a hyphenated word. Each builder returns candidates per kind (``edit_v3.Offers``).
"""

from __future__ import annotations

import random
import re

from families.instruction import edit_v3, rules_v3

Row = edit_v3.Row
Offers = edit_v3.Offers


def word_count(row: Row, rule: dict, rng: random.Random) -> Offers:
    text, offers = row["meta"]["example_pass"], []
    n = len(rules_v3.words(text))
    if "max" in rule:  # one-letter words: the characters stay within any max_chars bound
        offers.append(("too long", [edit_v3.insert(row, text, " a" * (rule["max"] - n + 1))]))
    if "min" in rule:
        offers.append(("too short", [_drop_words(row, text, n - rule["min"] + 1)]))
    return offers


def _drop_words(row: Row, text: str, count: int) -> str:
    """``text`` without ``count`` words from the middle of its sentences: never a line's first
    word, a sentence's last, a bracketed, quoted or titled word, a keyword, or the start or
    end text the row asks for."""
    keep = [(0, 0)]
    for rule in row["answer"]["all"]:
        if rule["type"] == "starts_with":
            keep.append((0, text.index(rule["text"]) + len(rule["text"])))
        if rule["type"] == "ends_with":
            keep.append((text.rindex(rule["text"]), len(text)))
    keyword = row["meta"]["topic"]
    spans = []
    for match in re.finditer(r"\S+", text):
        token, start = match.group(), match.start()
        line_start = start == 0 or text[start - 1] == "\n"
        marked = re.search(r"[.!?…:\"”<>\[\]]", token) or not rules_v3.ALNUM.search(token)
        kept = any(a <= start < b for a, b in keep) or rules_v3.form_count(token, keyword)
        if not (line_start or marked or kept):
            spans.append((start - 1, match.end()))
    assert len(spans) >= count, row["id"]
    for start, end in sorted(spans)[-count:][::-1]:
        text = text[:start] + text[end:]
    return text


def max_chars(row: Row, rule: dict, rng: random.Random) -> Offers:
    text = row["meta"]["example_pass"]
    over = rule["max"] - len(text.strip()) + 1  # long words: few words per character
    return [("too long", [edit_v3.insert(row, text, " and extraordinarily" * -(-over // 20))])]


def sentence_count(row: Row, rule: dict, rng: random.Random) -> Offers:
    text = row["meta"]["example_pass"]
    at = edit_v3.first_end(text) + 1
    added = {
        "ellipsis": " It waits…",
        "closing quote": ' People call it "a quiet helper."',
        "extra sentence": " It is old.",
    }
    return [(kind, [text[:at] + edit_v3.case_of(row)(s) + text[at:]]) for kind, s in added.items()]


def exact_text(row: Row, rule: dict, rng: random.Random) -> Offers:
    text, exact, case = row["meta"]["example_pass"], rule["text"], edit_v3.case_of(row)
    if rule["type"] == "starts_with":
        altered = text.replace(exact, exact.rstrip(":"), 1)
        return [("altered", [altered]), ("preamble", [case("Okay ") + text])]
    return [("altered", [text[:-1]]), ("trailing", [text + case("\n\nHope this helps")])]


def characters(row: Row, rule: dict, rng: random.Random) -> Offers:
    text = row["meta"]["example_pass"]
    at = edit_v3.first_end(text)
    word = text.rfind(" ", 0, at) + 1
    if rule["type"] == "no_commas":
        return [("comma", [text[: word - 1] + "," + text[word - 1 :]])]
    flip = str.capitalize if rule["type"] == "all_lowercase" else str.lower
    return [("one word", [text[:word] + flip(text[word:at]) + text[at:]])]


def contains_keyword(row: Row, rule: dict, rng: random.Random) -> Offers:
    text = row["meta"]["example_pass"]
    spans = [m.span() for m in rules_v3.TOKEN_RE.finditer(text)
             if rules_v3.is_form(m.group(), rule["keyword"])]  # fmt: skip
    for start, end in spans[rule["min"] - 1 :][::-1]:
        text = text[:start] + edit_v3.case_of(row)("object") + text[end:]
    return [("too few", [text])]


def forbidden_words(row: Row, rule: dict, rng: random.Random) -> Offers:
    text = row["meta"]["example_pass"]
    forms = {
        "plain": lambda w: w,
        "possessive": lambda w: w + rng.choice(("'s", "’s")),
        "plural": rules_v3.plural,
        "hyphenated": lambda w: f"{w}-{rng.choice(('like', 'shaped', 'side'))}",
    }
    return [(k, [edit_v3.insert(row, text, f" near the {f(rng.choice(rule['words']))}")])
            for k, f in forms.items()]  # fmt: skip
