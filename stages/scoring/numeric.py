"""``numeric`` scorer (spec 001, "Answer extraction and scorers"; docs/datasets.md#rows).

What parses as a number is the strict grammar of :mod:`stages.scoring.numbers`.

Which number (issue 19): the extracted answer (four extraction steps) is read as one number as
a whole. Only when it comes from an answer line (step 3) and is not one number as a whole
("Answer: x = 42", "Answer: $1,000", "Answer: 72 apples") is the *last* number inside it used, a
``-`` counting as a sign only when it does not follow a letter, digit or dot ("3-5" holds 3 and
5). Without an answer line the reply must *be* the number (after think blocks, fences, quotes
and one trailing period are gone): "The result is \\boxed{42}.", "645 pounds = 102.87
kilograms" or a model repeating the prompt are wrong — spec 001 counts a preamble where one value
was asked for as a wrong answer; reading the last number of prose is the flexible figure's job.
No number at all is wrong. A hedge is wrong: two numbers of different value joined by a
disjunction or a list separator ("42 or 43", "42, 43", "quarante ou 41";
:mod:`stages.scoring.hedge`) wherever the answer line holds them.

Flexible (issue 12): the flexible candidate (:mod:`stages.scoring.flexible`) read with the
flexible number grammar (:mod:`stages.scoring.flexible_numbers`: mixed numbers, vulgar
fractions, ``2.64 × 10^3``, unit words…) as a whole, else its last number; the same hedge rule
and tolerance; several different boxed answers are wrong.

Tolerance: ``meta.tolerance`` is an absolute tolerance, ``|got - gold| <= tolerance``. Without
it, ``|got - gold| <= 1e-6 * max(1, |gold|)`` (absolute near zero, relative for large values).
Values are compared as exact fractions, so 29/20 equals 1.45 exactly.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from stages.errors import AtlasError
from stages.scoring import flexible, flexible_numbers
from stages.scoring.extract import extract_with_line
from stages.scoring.numbers import Number, hedged, last_number, parse_number, strict_hedged
from stages.scoring.verdict import FlexibleVerdict, Verdict, binary, clip

NAME = "numeric"


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
    extracted, in_line = extract_with_line(output)
    given = (row.get("meta") or {}).get("tolerance")
    loose = flexible_verdict(gold, given, output)
    got = last_number(extracted) if in_line else parse_number(extracted)
    if got is None and not in_line:
        why = f"no answer line and the reply is not one number: {clip(extracted)}"
        return binary(NAME, False, extracted, why, loose)
    if got is None:
        return binary(NAME, False, extracted, f"no number in {clip(extracted)}", loose)
    if strict_hedged(extracted):
        return binary(NAME, False, extracted, f"offers several numbers: {clip(extracted)}", loose)
    ok = within_tolerance(got, gold, given)
    rule = "the default 1e-6 relative tolerance" if given is None else f"tolerance {given}"
    why = f"{got} vs gold {gold}: {'within' if ok else 'outside'} {rule}"
    return binary(NAME, ok, extracted, why, loose)
