"""The normal forms the word scorers compare in (exact, contains, mc) and the analysis text the
committed-answer grammar reads (:mod:`stages.scoring.commitment`).

- :func:`normalize` — Unicode NFKC, the minus sign U+2212 and the other dashes used as a minus
  before a digit as ``-``, typographic apostrophes as ``'``, ``casefold()``, every run of
  whitespace as one space, surrounding whitespace removed.
- :func:`fold_accents` — combining marks dropped (NFD, marks removed, NFC): the flexible
  reading's ``sabado`` for ``sábado``.
- :func:`analysis_text` — the same as :func:`normalize` but keeping case (option labels are
  capitals) and, for the flexible reading, accents folded and markdown emphasis (``**``, ``__``)
  dropped.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

_MINUS = re.compile(r"[\u2212\u2012\u2013\u2014\ufe63\uff0d](?=\d)")
_APOSTROPHES = str.maketrans({"’": "'", "ʼ": "'", "‘": "'"})
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")


def _plain(text: str) -> str:
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
        text = _MINUS.sub("-", text).translate(_APOSTROPHES)
    return " ".join(text.split())


def normalize(text: str) -> str:
    """NFKC, minus and apostrophes plain, casefold, whitespace collapsed."""
    return _plain(text).casefold()


def fold_accents(text: str) -> str:
    """``text`` without combining marks (NFD, marks dropped, then NFC)."""
    if text.isascii():
        return text
    stripped = "".join(
        c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)
    )
    return unicodedata.normalize("NFC", stripped)


def analysis_text(text: str, flexible: bool) -> str:
    """The text the grammar reads: plain as :func:`normalize` but with its case; flexible:
    accents folded and emphasis markers dropped."""
    text = _plain(text)
    if flexible:
        text = " ".join(_EMPHASIS.sub("", fold_accents(text)).split())
    return text


def gold_strings(answer: Any) -> list[str]:
    """The accepted answers of a row as strings (a single value becomes a one-item list)."""
    values = answer if isinstance(answer, list) else [answer]
    return [v if isinstance(v, str) else json.dumps(v) for v in values]
