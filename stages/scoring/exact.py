"""``exact`` scorer (spec 001, "Answer extraction and scorers"; docs/datasets.md#rows).

Rules:
- The model output goes through the four extraction steps (:mod:`stages.scoring.extract`).
- ``answer`` is a string or a list of accepted strings; a JSON number or boolean in the row is
  compared through its JSON spelling (``42``, ``2.5``, ``true``).
- Both sides are normalised the same way: Unicode NFKC, ``casefold()``, every run of whitespace
  collapsed to one space, surrounding whitespace removed.
- Correct when the normalised extraction equals one normalised accepted answer. Nothing else is
  forgiven: punctuation inside the answer, articles and word order all count. (A hedge such as
  "Paris or Lyon" can never equal one accepted answer, so it is wrong as it is.)

Flexible (issue 12): the flexible candidate (:mod:`stages.scoring.flexible`: markdown emphasis,
``\\boxed{}``, LaTeX removed) compared the same way; and when an accepted answer is an integer
("7651"), a candidate that reads as a whole as the same number under the flexible number grammar
(:mod:`stages.scoring.flexible_numbers`: "7,651", "−205", "537 days", "7651.0") is right too.
Several different boxed answers are wrong.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

from stages.scoring import flexible
from stages.scoring.extract import extract_answer
from stages.scoring.flexible_numbers import read_whole
from stages.scoring.numbers import parse_number
from stages.scoring.verdict import FlexibleVerdict, Verdict, binary, clip

NAME = "exact"


def normalize(text: str) -> str:
    """NFKC, casefold, whitespace collapsed: the comparison form shared by exact and contains."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return " ".join(text.casefold().split())


def gold_strings(answer: Any) -> list[str]:
    """The accepted answers of a row as strings (a single value becomes a one-item list)."""
    values = answer if isinstance(answer, list) else [answer]
    return [v if isinstance(v, str) else json.dumps(v) for v in values]


def flexible_verdict(golds: list[str], output: str) -> FlexibleVerdict:
    """The flexible reading of ``output`` against the accepted answers (module rules)."""
    found = flexible.candidate(output)
    if found.several:
        return FlexibleVerdict(False, found.text)
    got = normalize(found.text)
    if any(got == normalize(gold) for gold in golds):
        return FlexibleVerdict(True, found.text)
    integers = [v for v in (parse_number(g) for g in golds) if isinstance(v, int)]
    value = read_whole(found.text) if integers else None
    return FlexibleVerdict(value is not None and value in integers, found.text)


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge ``response["output"]`` against ``row["answer"]`` by normalised equality."""
    output = response.get("output") or ""
    extracted = extract_answer(output)
    got = normalize(extracted)
    golds = gold_strings(row["answer"])
    loose = flexible_verdict(golds, output)
    for gold in golds:
        if got == normalize(gold):
            return binary(NAME, True, extracted, f"equals accepted answer {clip(gold)}", loose)
    why = f"{clip(extracted)} matches none of {len(golds)} accepted"
    return binary(NAME, False, extracted, why, loose)
