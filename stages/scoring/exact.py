"""``exact`` scorer (spec 001, "Answer extraction and scorers"; README §Rows answer shapes).

Rules:
- The model output goes through the four extraction steps (:mod:`stages.scoring.extract`).
- ``answer`` is a string or a list of accepted strings; a JSON number or boolean in the row is
  compared through its JSON spelling (``42``, ``2.5``, ``true``).
- Both sides are normalised the same way: Unicode NFKC, ``casefold()``, every run of whitespace
  collapsed to one space, surrounding whitespace removed.
- Correct when the normalised extraction equals one normalised accepted answer. Nothing else is
  forgiven: punctuation inside the answer, articles and word order all count.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

from stages.scoring.extract import extract_answer
from stages.scoring.verdict import Verdict, binary, clip

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


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge ``response["output"]`` against ``row["answer"]`` by normalised equality."""
    extracted = extract_answer(response.get("output") or "")
    got = normalize(extracted)
    for gold in gold_strings(row["answer"]):
        if got == normalize(gold):
            return binary(NAME, True, extracted, f"equals accepted answer {clip(gold)}")
    golds = gold_strings(row["answer"])
    return binary(
        NAME, False, extracted, f"{clip(extracted)} matches none of {len(golds)} accepted"
    )
