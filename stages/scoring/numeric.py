"""``numeric`` scorer (spec 001, "Answer extraction and scorers"; docs/datasets.md#rows).

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
("3-5" holds 3 and 5). No number at all is wrong. A hedge is wrong: two numbers of different
value joined by a disjunction or a list separator ("42 or 43", "42, 43", "quarante ou 41";
:mod:`stages.scoring.hedge`) wherever the extraction holds them.

Flexible (issue 12): the flexible candidate (:mod:`stages.scoring.flexible`) read with the
flexible number grammar (:mod:`stages.scoring.flexible_numbers`: mixed numbers, vulgar
fractions, ``2.64 × 10^3``, unit words…) as a whole, else its last number; the same hedge rule
and tolerance; several different boxed answers are wrong.

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
from stages.scoring import flexible
from stages.scoring.extract import extract_answer
from stages.scoring.hedge import joins_values, several_boxes
from stages.scoring.verdict import FlexibleVerdict, Verdict, binary, clip

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


def last_number(text: str) -> Number | None:
    """The whole-text number if there is one, else the last number inside ``text``."""
    text = ascii_digits(text)
    match = _WHOLE.fullmatch(text)
    if match is None:
        for found in _ANYWHERE.finditer(text):
            match = found  # keep the last one
    return None if match is None else _value(match)


def hedged(text: str, spans: list[tuple[Number, int, int]]) -> bool:
    """True when two neighbouring numbers of different value are offered as alternatives."""
    return any(
        a[0] != b[0] and joins_values(text[a[2] : b[1]])
        for a, b in zip(spans, spans[1:], strict=False)
    )


def strict_hedged(text: str) -> bool:
    """The hedge rule on the strict extraction (a whole-text number is never a hedge)."""
    text = ascii_digits(text)
    if _WHOLE.fullmatch(text):
        return False
    if several_boxes(text):
        return True
    spans = [
        (v, m.start(), m.end()) for m in _ANYWHERE.finditer(text) if (v := _value(m)) is not None
    ]
    return hedged(text, spans)


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


def flexible_verdict(gold: Number, tolerance: Any, output: str) -> FlexibleVerdict:
    """The flexible reading of ``output`` (module rules)."""
    from stages.scoring import flexible_numbers  # built on this module's grammar

    found = flexible.candidate(output)
    value = flexible_numbers.read_whole(found.text)
    if value is None and not found.several:
        spans = flexible_numbers.numbers(found.text)
        if spans and not hedged(flexible_numbers.prepare(found.text), spans):
            value = spans[-1][0]
    ok = value is not None and not found.several and within_tolerance(value, gold, tolerance)
    return FlexibleVerdict(ok, found.text)


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge ``response["output"]`` by numeric closeness to ``row["answer"]``."""
    gold = gold_value(row)
    output = response.get("output") or ""
    extracted = extract_answer(output)
    given = (row.get("meta") or {}).get("tolerance")
    loose = flexible_verdict(gold, given, output)
    got = last_number(extracted)
    if got is None:
        return binary(NAME, False, extracted, f"no number in {clip(extracted)}", loose)
    if strict_hedged(extracted):
        return binary(NAME, False, extracted, f"offers several numbers: {clip(extracted)}", loose)
    ok = within_tolerance(got, gold, given)
    rule = "the default 1e-6 relative tolerance" if given is None else f"tolerance {given}"
    why = f"{got} vs gold {gold}: {'within' if ok else 'outside'} {rule}"
    return binary(NAME, ok, extracted, why, loose)
