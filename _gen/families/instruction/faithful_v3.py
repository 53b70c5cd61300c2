"""Faithful variants of an eval-instruction-v3 row's example (issue 30): replies a careful
reader passes that -v2's rules failed or that differ from the example in ways a model writes
them. A sentence of the body closed by '."' or by "…", abbreviations inside a sentence (e.g.,
i.e., etc., St., Dr., Mr.), the keyword as a possessive or a plural, a multi-word placeholder,
a trailing newline after the postscript, and the JSON object fenced or on one line.

Each variant keeps every rule of the row; ``variants`` keeps only those ``rules_v3`` passes
and ``REQUIRED`` names the ones a row asking a rule must have.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from families.instruction import edit_v3, rules_v3

Row = dict[str, Any]
LATIN = (" (e.g. at dawn)", " (i.e. by hand)", " with tools etc. nearby")
TITLES = (" as Dr. Reed says", " near St. Anne's Gate", " as Mr. Hale says")
REQUIRED = {
    "sentence_count": ("closing quote", "ellipsis", "abbreviations"),
    "contains_keyword": ("possessive keyword",),
}


def _closing_quote(text: str) -> str:
    """The last two words of the first sentence and its period inside double quotes."""
    at = edit_v3.first_end(text)
    opening = text.rfind(" ", 0, text.rfind(" ", 0, at)) + 1
    return f'{text[:opening]}"{text[opening : at + 1]}"{text[at + 1 :]}'


def _keyword(text: str, noun: str, plural: bool) -> str:
    """One "the/a <noun>" made "the/a <noun>'s design", or one "a/an <noun>" its plural."""
    if plural:
        pattern, new = rf"\b(?:an?) ({noun})\b", rules_v3.plural(noun)
    else:
        pattern, new = rf"\b(the|an?) ({noun})\b", r"\1 \2's design"
    match = re.search(pattern, text, re.IGNORECASE)
    if match is None:
        return text
    new = match.expand(new)
    new = new.upper() if match.group(1 if plural else 2).isupper() else new
    return text[: match.start()] + new + text[match.end() :]


def _json(text: str) -> list[tuple[str, str]]:
    obj = json.loads(text)
    return [("fenced", f"```json\n{text}\n```"),
            ("one line", json.dumps(obj, ensure_ascii=False))]  # fmt: skip


def variants(row: Row, rng: random.Random) -> list[tuple[str, str]]:
    """(kind, text) of the faithful variants that keep every rule, the example first."""
    text, case = row["meta"]["example_pass"], edit_v3.case_of(row)
    out = [("example", text)]
    if row["category"] == "json":
        out += _json(text)
    else:
        latin = [p for p in LATIN if "etc" not in p or row["meta"]["facts"]["case"] != "upper"]
        abbreviations = rng.choice(latin) + rng.choice(TITLES)
        at = edit_v3.first_end(text)
        out += [
            ("closing quote", _closing_quote(text)),
            ("ellipsis", text[:at] + "…" + text[at + 1 :]),
            ("abbreviations", edit_v3.insert(row, text, abbreviations)),
        ]
    noun = row["meta"]["topic"]
    out += [("possessive keyword", _keyword(text, noun, False))]
    out += [("plural keyword", _keyword(text, noun, True))]
    found = rules_v3.PLACEHOLDER_RE.search(text)
    if found:
        bigger = case("[your " + found.group()[1:])
        out.append(("long placeholder", text[: found.start()] + bigger + text[found.end() :]))
    if any(rule["type"] == "postscript" for rule in row["answer"]["all"]):
        out.append(("trailing newline", text + "\n"))
    seen, kept = set(), []
    for kind, variant in out:
        if variant not in seen and rules_v3.evaluate(row["answer"], variant)[0]:
            kept.append((kind, variant))
            seen.add(variant)
    return kept


def missing(row: Row, kept: list[tuple[str, str]]) -> list[str]:
    """Variant kinds a row's rules call for (``REQUIRED``) that were not kept."""
    kinds = {kind for kind, _ in kept}
    types = {rule["type"] for rule in row["answer"]["all"]}
    return [k for t in sorted(types) for k in REQUIRED.get(t, ()) if k not in kinds]
