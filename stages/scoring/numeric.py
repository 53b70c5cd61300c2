"""``numeric`` scorer (spec 001, "Answer extraction and scorers"; README §Rows answer shapes).

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

Which number: the extracted answer (four extraction steps) must parse as one number as a
whole; if it does not ("x = 42", "$1,000", "72 apples"), the *last* number found inside it is
used, a ``-`` counting as a sign only when it does not follow a letter, digit or dot
("3-5" holds 3 and 5). No number at all is wrong.

Tolerance: ``meta.tolerance`` is an absolute tolerance, ``|got - gold| <= tolerance``. Without
it, ``|got - gold| <= 1e-6 * max(1, |gold|)`` (absolute near zero, relative for large values).
Values are compared as exact fractions, so 29/20 equals 1.45 exactly.
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from stages.errors import AtlasError
from stages.scoring.extract import extract_answer
from stages.scoring.verdict import Verdict, binary, clip

NAME = "numeric"

_INT = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)"
_NUMBER = (
    r"(?P<sign>[+-])?(?:(?P<num>\d+)[^\S\n]*/[^\S\n]*(?P<den>\d+)"
    rf"|(?P<dec>(?:{_INT}(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d{{1,4}}(?!\d))?))(?:[^\S\n]*%)?"
)
_WHOLE = re.compile(rf"\s*{_NUMBER}\s*", re.A)
_ANYWHERE = re.compile(rf"(?<![\w.]){_NUMBER}", re.A)
_TRANSLATE = str.maketrans({"\u2212": "-", "\u2044": "/"})


Number = int | Fraction  # exact values; plain integers stay ints (Fraction is slow)


def _value(match: re.Match[str]) -> Number | None:
    try:  # int() refuses > 4300 digits (CPython's limit): such a "number" does not parse
        value: Number
        if match["den"] is not None:
            if int(match["den"]) == 0:
                return None
            value = Fraction(int(match["num"]), int(match["den"]))
        else:
            digits = match["dec"].replace(",", "")
            value = int(digits) if digits.isdigit() else Fraction(digits)
    except ValueError:
        return None
    return -value if match["sign"] == "-" else value


def _prepare(text: str) -> str:
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
    match = _WHOLE.fullmatch(_prepare(text))
    return None if match is None else _value(match)


def last_number(text: str) -> Number | None:
    """The whole-text number if there is one, else the last number inside ``text``."""
    text = _prepare(text)
    match = _WHOLE.fullmatch(text)
    if match is None:
        for found in _ANYWHERE.finditer(text):
            match = found  # keep the last one
    return None if match is None else _value(match)


def within_tolerance(got: Number, gold: Number, tolerance: Any = None) -> bool:
    """``|got - gold| <= tolerance`` (absolute), or the default relative-or-absolute rule."""
    difference = cast(Number, abs(got - gold))
    if tolerance is None:  # |d| <= 1e-6 * max(1, |gold|), kept in exact arithmetic
        scale = cast(Number, abs(gold))
        return difference * 1_000_000 <= (scale if scale > 1 else 1)
    return difference <= Fraction(str(tolerance))


@lru_cache(maxsize=65536)
def _gold(answer: str) -> Number | None:
    return parse_number(answer)


def gold_value(row: dict[str, Any]) -> Number:
    """The row's answer as a number; a row whose answer does not parse is a dataset error."""
    answer = row["answer"]
    gold = None if isinstance(answer, bool) else _gold(str(answer))
    if gold is None:
        raise AtlasError(f"row {row.get('id')}: answer: {answer!r} is not a number")
    return gold


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge ``response["output"]`` by numeric closeness to ``row["answer"]``."""
    gold = gold_value(row)
    extracted = extract_answer(response.get("output") or "")
    got = last_number(extracted)
    if got is None:
        return binary(NAME, False, extracted, f"no number in {clip(extracted)}")
    given = (row.get("meta") or {}).get("tolerance")
    ok = within_tolerance(got, gold, given)
    rule = "the default 1e-6 relative tolerance" if given is None else f"tolerance {given}"
    return binary(
        NAME, ok, extracted, f"{got} vs gold {gold}: {'within' if ok else 'outside'} {rule}"
    )
