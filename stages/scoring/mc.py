"""``mc`` scorer: multiple choice by letter label (spec 001, "Answer extraction and scorers";
docs/datasets.md#rows: ``choices`` are labelled A, B, C, … in order and ``answer`` is the letter).

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
  answer. The choice text is tidied as the extraction was (extraction step 4: surrounding
  quotes, one trailing ``.`` or ``!``), so a choice that is a sentence ("All wugs are feps.")
  is matched by its own text (issue 19; before mc-3 such a choice could never be). When a
  label is present it wins, even if the text after it names another choice.
- Anything else ("The answer is B", an unknown label) is wrong, and so is an answer that offers
  several labels: besides the one read, another label of a choice written as ``(C)``, ``[C]``,
  ``C)`` / ``C.`` / ``C:`` before a space or the end, ``Option C``, or a lone letter joined to
  another by ``or``/``/``/``,`` and the other disjunctions of :mod:`stages.scoring.hedge`
  ("A or B", "B) Lyon, C) Marseille", "A/B").

Flexible (issue 12): the same rules on the flexible candidate (:mod:`stages.scoring.flexible`),
so ``**Answer: C**``, ``Answer: **C**``, ``\boxed{C}`` and ``\text{(C)}`` read as C; several
different boxed answers are wrong.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.scoring import flexible
from stages.scoring.exact import normalize
from stages.scoring.extract import extract_answer, tidy
from stages.scoring.hedge import DISJUNCTION_WORDS
from stages.scoring.verdict import FlexibleVerdict, Verdict, binary, clip

NAME = "mc"

_EMPHASIS = "*_ \t"
_LABEL = re.compile(r"\((?P<p>[A-Z])\)|\[(?P<b>[A-Z])\]|(?P<l>[A-Z])(?:[.):\]]|$)", re.A)
_LONE_LOWER = re.compile(r"(?:\((?P<p>[a-z])\)|\[(?P<b>[a-z])\]|(?P<l>[a-z]))", re.A)
_PREFIX = re.compile(r"(?:option|choice)\s+", re.I)
_JOIN = rf"\s*(?:,|/|\||\b(?:{'|'.join(DISJUNCTION_WORDS)})\b)\s*"
_OFFERED = re.compile(
    r"\((?P<p>[A-Z])\)|\[(?P<b>[A-Z])\]"
    r"|(?<![\w'’])(?P<l>[A-Z])(?=[.):\]](?:\s|$))"
    r"|(?i:\b(?:option|choice)\s+)(?P<o>[A-Z])\b"
    rf"|(?<![\w'’])(?P<j1>[A-Z])(?={_JOIN}\(?[A-Z](?![\w'’]))"
    rf"|(?<=[A-Z]){_JOIN}\(?(?P<j2>[A-Z])(?![\w'’])",
)


def read_label(text: str, choices: list[str]) -> str | None:
    """The letter label ``text`` designates among ``choices``, or None."""
    text = text.strip(_EMPHASIS)
    stripped = _PREFIX.sub("", text, count=1) if text[:1] in "OoCc" else text
    match = _LABEL.match(stripped) or _LONE_LOWER.fullmatch(stripped)
    if match is not None:
        return (match["p"] or match["b"] or match["l"]).upper()
    wanted = normalize(text)
    hits = [i for i, choice in enumerate(choices) if normalize(tidy(choice)) == wanted]
    return chr(ord("A") + hits[0]) if len(hits) == 1 else None


def offered_labels(text: str, choices: list[str]) -> set[str]:
    """Every label of a choice that ``text`` writes in label form (see the module rules)."""
    found = {next(g for g in m.groups() if g) for m in _OFFERED.finditer(text)}
    return {label for label in found if ord(label) - ord("A") < len(choices)}


def judge(text: str, choices: list[str], gold: str) -> tuple[bool, str]:
    """``(correct, why)`` of one extracted answer."""
    label = read_label(text, choices)
    if label is None:
        return False, f"no choice label in {clip(text)}"
    if ord(label) - ord("A") >= len(choices):
        return False, f"label {label} is not among {len(choices)} choices"
    others = offered_labels(text, choices) - {label}
    if others:
        return False, f"offers several labels: {', '.join(sorted({label, *others}))}"
    return label == gold, f"chose {label}, gold {gold}"


def flexible_verdict(choices: list[str], gold: str, output: str) -> FlexibleVerdict:
    """The flexible reading of ``output`` (module rules)."""
    found = flexible.candidate(output)
    correct = not found.several and judge(found.text, choices, gold)[0]
    return FlexibleVerdict(correct, found.text)


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge ``response["output"]`` by the choice label it designates."""
    choices = row.get("choices") or []
    gold = row["answer"]
    if not isinstance(gold, str) or len(gold) != 1 or not "A" <= gold < chr(65 + len(choices)):
        raise AtlasError(f"row {row.get('id')}: answer: {gold!r} is not a label of its choices")
    output = response.get("output") or ""
    extracted = extract_answer(output)
    correct, why = judge(extracted, choices, gold)
    return binary(NAME, correct, extracted, why, flexible_verdict(choices, gold, output))
