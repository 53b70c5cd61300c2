"""Broken twins of an eval-instruction-v3 row (issue 30): for each rule, its compliant example
with exactly that one instruction broken, in the ways the issue saw credited on -v2 (a bullet
marker other than "- ", the postscript before the end, a blank line, a JSON list or null, a
forbidden word as a possessive, plural or hyphenated word, an extra sentence ending in "…" or
in '."', "[ ]" for a placeholder, the title below the first line) and the plain ways (one unit
too many or too few, the exact text altered, one word in the wrong case, a comma).

The builders (``twins_text_v3``, ``twins_layout_v3``) offer candidates per kind; ``twins``
keeps, per kind, the first candidate that fails its rule under ``rules_v3`` while every other
rule of the row passes.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from families.instruction import edit_v3, rules_v3, twins_layout_v3, twins_text_v3

Row = edit_v3.Row
text, layout = twins_text_v3, twins_layout_v3
BUILDERS: dict[str, Callable[[Row, dict, random.Random], edit_v3.Offers]] = {
    "word_count": text.word_count,
    "max_chars": text.max_chars,
    "sentence_count": text.sentence_count,
    "starts_with": text.exact_text,
    "ends_with": text.exact_text,
    "all_lowercase": text.characters,
    "all_uppercase": text.characters,
    "no_commas": text.characters,
    "contains_keyword": text.contains_keyword,
    "forbidden_words": text.forbidden_words,
    "paragraph_count": layout.paragraph_count,
    "line_count": layout.line_count,
    "bullet_count": layout.bullet_count,
    "postscript": layout.postscript,
    "title": layout.title,
    "json_object": layout.json_object,
    "wrapped_in_quotes": layout.wrapped_in_quotes,
    "placeholder_count": layout.placeholder_count,
}
#: Kinds each rule type must be broken in, when the row asks it (the issue's findings).
REQUIRED = {
    "bullet_count": ("marker",),
    "line_count": ("blank line",),
    "postscript": ("at the top", "not last"),
    "title": ("not first",),
    "json_object": ("list value", "null value"),
    "forbidden_words": ("possessive", "plural", "hyphenated"),
    "sentence_count": ("ellipsis", "closing quote"),
    "placeholder_count": ("empty brackets",),
}


def twins(row: Row, rng: random.Random) -> list[tuple[int, str, str]]:
    """(rule index, kind, text) per rule and kind: the first candidate that fails that rule and
    no other; texts repeated across kinds are kept once."""
    out, seen = [], {row["meta"]["example_pass"]}
    for index, rule in enumerate(row["answer"]["all"]):
        for kind, candidates in BUILDERS[rule["type"]](row, rule, rng):
            for text in candidates:
                if text not in seen and rules_v3.evaluate(row["answer"], text) == (False, [rule]):
                    out.append((index, kind, text))
                    seen.add(text)
                    break
    return out


def missing(row: Row, found: list[tuple[int, str, str]]) -> list[str]:
    """Rules with no twin, or without one of the kinds ``REQUIRED`` names, as "type: kind"."""
    out = []
    for index, rule in enumerate(row["answer"]["all"]):
        kinds = {kind for i, kind, _ in found if i == index}
        out += [f"{rule['type']}: {k}" for k in REQUIRED.get(rule["type"], ()) if k not in kinds]
        out += [f"{rule['type']}: no twin"] if not kinds else []
    return out
