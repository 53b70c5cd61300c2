"""``contains`` scorer (spec 001, "Answer extraction and scorers"; docs/datasets.md#rows).

Rules:
- The model output goes through the four extraction steps, then both the extraction and each
  accepted answer are normalised as for ``exact`` (NFKC, casefold, whitespace collapsed).
- Correct when some normalised accepted answer occurs inside the normalised extraction *as whole
  words*: the character before the match and the one after it must not be word characters
  (``\\w``, Unicode-aware), and a hyphen or apostrophe followed (or preceded) by a letter joins
  words — so gold ``cat`` is found in ``a cat.`` but not in ``concatenate``, and gold ``dix`` is
  not found in ``dix-sept`` or gold ``sept`` in ``dix-sept``. Likewise a ``.`` or ``,`` between
  digits joins a number: gold ``58821`` is not found in ``58821.5`` or ``1,58821``. A boundary
  is only required on a side where the gold starts/ends with a letter, digit or underscore:
  gold ``C++`` is found in ``C++17`` (its ``+`` edge needs none).
- Scripts written without spaces between words (Han, Hiragana, Katakana, Thai) have no word
  boundaries to find, so no boundary is required next to such a character.
- Hedges are wrong (:mod:`stages.scoring.hedge`): an occurrence joined by a disjunction or a list
  separator to another candidate that is not itself accepted ("lundi ou dix", "dix, onze")
  does not count, and several different ``\\boxed{}`` answers are wrong.
- An accepted answer that normalises to the empty string never matches.
- Accents: strict keeps them. "sabado" is not "sábado": in the suites' languages an accent can
  be the whole difference between two words (fr ``ou``/``où``, es ``si``/``sí``, pt ``e``/``é``),
  so strict asks for the spelling the question's language uses.

Flexible (issue 12): the flexible candidate (:mod:`stages.scoring.flexible`) with accents folded
on both sides (NFD, combining marks dropped): "sabado" counts for "sábado", a missing accent
being a keyboard or ASCII-output habit rather than a different answer. Boundaries and hedges as
above; several different boxed answers are wrong.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from stages.scoring import flexible
from stages.scoring.exact import gold_strings, normalize
from stages.scoring.extract import extract_answer
from stages.scoring.hedge import offers_another, several_boxes
from stages.scoring.verdict import FlexibleVerdict, Verdict, binary, clip

NAME = "contains"

_NO_SPACE_SCRIPTS = re.compile(
    r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
)


def _needs_boundary(char: str) -> bool:
    return (char.isalnum() or char == "_") and not _NO_SPACE_SCRIPTS.match(char)


@lru_cache(maxsize=8192)
def _gold_pattern(gold: str) -> re.Pattern[str]:
    left = r"(?<!\w)(?<!\w[-'’])" if _needs_boundary(gold[0]) else ""
    right = r"(?!\w)(?![-'’]\w)" if _needs_boundary(gold[-1]) else ""
    left += r"(?<!\d[.,])" if gold[0].isdigit() else ""  # 58821 is not in 1,58821
    right += r"(?![.,]\d)" if gold[-1].isdigit() else ""  # nor in 58821.5
    return re.compile(left + re.escape(gold) + right)


def fold_accents(text: str) -> str:
    """``text`` without combining marks (NFD, marks dropped, then NFC)."""
    if text.isascii():
        return text
    stripped = "".join(
        c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)
    )
    return unicodedata.normalize("NFC", stripped)


def find(gold: str, text: str, accepted: list[str]) -> bool:
    """True when ``gold`` occurs in ``text`` as whole words and is not hedged (all normalised)."""
    if not gold or gold not in text:
        return False
    return any(
        not offers_another(text, m.start(), m.end(), accepted)
        for m in _gold_pattern(gold).finditer(text)
    )


def found(gold: str, text: str) -> bool:
    """True when normalised ``gold`` occurs in normalised ``text`` at word boundaries."""
    return find(gold, text, [gold])


def _judge(text: str, golds: list[str]) -> int | None:
    """Index of the first accepted answer found unhedged in ``text`` (both normalised)."""
    return next((i for i, gold in enumerate(golds) if find(gold, text, golds)), None)


def flexible_verdict(golds: list[str], output: str) -> FlexibleVerdict:
    """The flexible reading: flexible candidate, accents folded (module rules)."""
    candidate = flexible.candidate(output)
    if candidate.several:
        return FlexibleVerdict(False, candidate.text)
    folded = [fold_accents(normalize(gold)) for gold in golds]
    hit = _judge(fold_accents(normalize(candidate.text)), folded)
    return FlexibleVerdict(hit is not None, candidate.text)


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge ``response["output"]`` by whether it contains an accepted answer as whole words."""
    output = response.get("output") or ""
    extracted = extract_answer(output)
    golds = gold_strings(row["answer"])
    loose = flexible_verdict(golds, output)
    hit = (
        None
        if several_boxes(extracted)
        else _judge(normalize(extracted), [normalize(g) for g in golds])
    )
    if hit is not None:
        return binary(NAME, True, extracted, f"contains accepted answer {clip(golds[hit])}", loose)
    why = f"none of {len(golds)} accepted answers occurs in it unhedged"
    return binary(NAME, False, extracted, why, loose)
