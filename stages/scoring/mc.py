"""``mc`` scorer: multiple choice by letter label (spec 001, "Answer extraction and scorers";
README §Rows: ``choices`` are labelled A, B, C, … in order and ``answer`` is the letter).

Rules, applied to the extracted answer (four extraction steps, so ``Answer: B`` is already
reduced to ``B`` and a trailing ``.`` is gone):
- Markdown emphasis around it is ignored (``**B**``, ``*B*``, ``_B_``).
- A label is an upper-case letter, optionally after ``Option`` / ``Choice`` and optionally in
  ``(B)`` or ``[B]``, that either stands alone or is followed by ``.``, ``)``, ``:`` or ``]``
  and then anything: ``B``, ``(B)``, ``B.``, ``B) Paris``, ``B. Paris``, ``B: Paris``,
  ``Option B``. A lone lower-case letter (``b``, ``(b)``) also counts; a capital letter
  followed by a plain space does not (``A cat`` is prose, not label A).
- Otherwise, the choice text alone counts: if the extraction equals exactly one choice's text
  (normalised as for ``exact``: NFKC, casefold, whitespace collapsed), that choice is the
  answer. When a label is present it wins, even if the text after it names another choice.
- Anything else ("The answer is B", two labels, an unknown label) is wrong.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.scoring.exact import normalize
from stages.scoring.extract import extract_answer
from stages.scoring.verdict import Verdict, binary, clip

NAME = "mc"

_EMPHASIS = "*_ \t"
_LABEL = re.compile(r"\((?P<p>[A-Z])\)|\[(?P<b>[A-Z])\]|(?P<l>[A-Z])(?:[.):\]]|$)", re.A)
_LONE_LOWER = re.compile(r"(?:\((?P<p>[a-z])\)|\[(?P<b>[a-z])\]|(?P<l>[a-z]))", re.A)
_PREFIX = re.compile(r"(?:option|choice)\s+", re.I)


def read_label(text: str, choices: list[str]) -> str | None:
    """The letter label ``text`` designates among ``choices``, or None."""
    text = text.strip(_EMPHASIS)
    stripped = _PREFIX.sub("", text, count=1) if text[:1] in "OoCc" else text
    match = _LABEL.match(stripped) or _LONE_LOWER.fullmatch(stripped)
    if match is not None:
        return (match["p"] or match["b"] or match["l"]).upper()
    wanted = normalize(text)
    hits = [i for i, choice in enumerate(choices) if normalize(choice) == wanted]
    return chr(ord("A") + hits[0]) if len(hits) == 1 else None


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge ``response["output"]`` by the choice label it designates."""
    choices = row.get("choices") or []
    gold = row["answer"]
    if not isinstance(gold, str) or len(gold) != 1 or not "A" <= gold < chr(65 + len(choices)):
        raise AtlasError(f"row {row.get('id')}: answer: {gold!r} is not a label of its choices")
    extracted = extract_answer(response.get("output") or "")
    label = read_label(extracted, choices)
    if label is None:
        return binary(NAME, False, extracted, f"no choice label in {clip(extracted)}")
    if ord(label) - ord("A") >= len(choices):
        return binary(NAME, False, extracted, f"label {label} is not among {len(choices)} choices")
    return binary(NAME, label == gold, extracted, f"chose {label}, gold {gold}")
