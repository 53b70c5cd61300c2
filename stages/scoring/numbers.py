"""The strict number grammar (spec 001, "Answer extraction and scorers"; docs/datasets.md#rows):
used by the ``numeric`` scorer (:mod:`stages.scoring.numeric`), by ``exact`` for its
number-aware comparison, and as the base of the flexible grammar
(:mod:`stages.scoring.flexible_numbers`).

What parses as a number (after Unicode NFKC, which turns full-width digits into ASCII, and after
mapping U+2212 MINUS SIGN to ``-`` and U+2044 FRACTION SLASH to ``/``):
- an optional sign ``+`` / ``-``;
- an integer, either plain digits (``1000``) or with comma thousands separators in groups of
  exactly three (``1,000`` and ``12,345,678``; ``1,00`` is not one number);
- any other Unicode decimal digit (Arabic-Indic ``٤٢``, Devanagari ``४२``) as its ASCII digit;
- an optional decimal part (``3.25``, ``.5``) and exponent of at most four digits (``1e-3``);
- or a fraction of two plain integers, ``3/4`` or ``-29/20`` (no mixed numbers such as
  ``1 1/2``, no zero denominator);
- an optional trailing ``%`` that is a unit mark, not a scale: ``12%`` reads as 12, so a
  question answered "12" and a reply "12%" agree (and a gold written "12%" means 12).
Not supported: spaces or dots as thousands separators, decimal commas, words ("twelve").

:func:`parse_number` reads a text that is one number as a whole (the strict numeric reply without
an answer line, and every row's gold); :func:`number_spans` finds the numbers inside a text. Which
number an answer line commits to is :mod:`stages.scoring.commitment`'s rule (issue 30).
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

_INT = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)"
_NUMBER = (
    r"(?P<sign>[+-])?(?:(?P<num>\d+)[^\S\n]*/[^\S\n]*(?P<den>\d+)"
    rf"|(?P<dec>(?:{_INT}(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d{{1,4}}(?!\d))?))(?:[^\S\n]*%)?"
)
_WHOLE = re.compile(rf"\s*{_NUMBER}\s*", re.A)
_ANYWHERE = re.compile(rf"(?<![\w.]){_NUMBER}", re.A)
_TRANSLATE = str.maketrans({"\u2212": "-", "\u2044": "/"})


Number = int | Fraction  # exact values; plain integers stay ints (Fraction is slow)


def unsigned_value(match: re.Match[str]) -> Number | None:
    """The value of a match's fraction (groups ``num``, ``den``) or decimal (``dec``, comma
    groups) without its sign; None for a zero denominator. Raises ``ValueError`` beyond
    CPython's int() digit limit (> 4300 digits). The flexible grammar names its groups alike."""
    if match["den"] is not None:
        if int(match["den"]) == 0:
            return None
        return Fraction(int(match["num"]), int(match["den"]))
    digits = match["dec"].replace(",", "")
    return int(digits) if digits.isdigit() else Fraction(digits)


def _value(match: re.Match[str]) -> Number | None:
    try:  # such a long "number" does not parse
        value = unsigned_value(match)
    except ValueError:
        return None
    if value is None:
        return None
    return -value if match["sign"] == "-" else value


def ascii_digits(text: str) -> str:
    """NFKC, U+2212 as ``-``, U+2044 as ``/`` and every Unicode decimal digit as ASCII."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text).translate(_TRANSLATE)
    if text.isascii():
        return text
    return "".join(
        str(unicodedata.decimal(c)) if not c.isascii() and c.isdecimal() else c for c in text
    )


def parse_number(text: str) -> Number | None:
    """The value of ``text`` when the whole of it is one number as documented above."""
    match = _WHOLE.fullmatch(ascii_digits(text))
    return None if match is None else _value(match)


def number_spans(text: str) -> list[tuple[Number, int, int]]:
    """Every number inside ``text`` (after :func:`ascii_digits`) with its start and end there."""
    text = ascii_digits(text)
    return [
        (v, m.start(), m.end()) for m in _ANYWHERE.finditer(text) if (v := _value(m)) is not None
    ]
