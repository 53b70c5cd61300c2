"""``contains`` scorer (spec 001, "Answer extraction and scorers"; README §Rows answer shapes).

Rules:
- The model output goes through the four extraction steps, then both the extraction and each
  accepted answer are normalised as for ``exact`` (NFKC, casefold, whitespace collapsed).
- Correct when some normalised accepted answer occurs inside the normalised extraction *at word
  boundaries*: the character before the match and the character after it must not be word
  characters (``\\w``, Unicode-aware) — so gold ``cat`` is found in ``a cat.`` but not in
  ``concatenate``. A boundary is only required on a side where the gold starts/ends with a
  letter, digit or underscore: gold ``C++`` is found in ``C++17`` (its ``+`` edge needs none).
- Scripts written without spaces between words (Han, Hiragana, Katakana, Thai) have no word
  boundaries to find, so no boundary is required next to such a character.
- An accepted answer that normalises to the empty string never matches.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from stages.scoring.exact import gold_strings, normalize
from stages.scoring.extract import extract_answer
from stages.scoring.verdict import Verdict, binary, clip

NAME = "contains"

_NO_SPACE_SCRIPTS = re.compile(
    r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
)


def _needs_boundary(char: str) -> bool:
    return (char.isalnum() or char == "_") and not _NO_SPACE_SCRIPTS.match(char)


@lru_cache(maxsize=8192)
def _gold_pattern(gold: str) -> re.Pattern[str]:
    left = r"(?<!\w)" if _needs_boundary(gold[0]) else ""
    right = r"(?!\w)" if _needs_boundary(gold[-1]) else ""
    return re.compile(left + re.escape(gold) + right)


def found(gold: str, text: str) -> bool:
    """True when normalised ``gold`` occurs in normalised ``text`` at word boundaries."""
    return bool(gold) and gold in text and _gold_pattern(gold).search(text) is not None


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge ``response["output"]`` by whether it contains an accepted answer as whole words."""
    extracted = extract_answer(response.get("output") or "")
    text = normalize(extracted)
    golds = gold_strings(row["answer"])
    for gold in golds:
        if found(normalize(gold), text):
            return binary(NAME, True, extracted, f"contains accepted answer {clip(gold)}")
    return binary(NAME, False, extracted, f"none of {len(golds)} accepted answers occurs in it")
