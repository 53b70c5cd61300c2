"""``numeric`` scorer (spec 001, "Answer extraction and scorers"; docs/datasets.md#rows).

Which number (issue 30): an answer line is read by the committed-answer grammar
(:mod:`stages.scoring.commitment`) with numbers as candidates
(:mod:`stages.scoring.number_reading`): the value of its main clause, an equation's last side;
units, currency, a leading ``x =`` and working after the value (``38 km (17 + 21)``, ``11
(counting day 0)``) are decoration; a second value — a range, a conjunction or disjunction, a
list, a negated or restated value (``36 and 38``, ``3-4``, ``36 (or 38)``, ``it is not 38``) —
commits to none, and the reply is wrong. The strict reading wants the committed value written in
digits; number words are candidates (``33 (trente-quatre)`` offers two answers) but not values.

Without an answer line the strict reply must *be* the number (the strict grammar of
:mod:`stages.scoring.numbers`, after think blocks, fences, quotes and one trailing period are
gone): "The result is \\boxed{42}." or a model repeating the prompt is wrong — spec 001 counts a
preamble where one value was asked for as a wrong answer.

Flexible (issue 12): the flexible candidate (:mod:`stages.scoring.flexible`: markdown, boxes,
LaTeX) read by the same grammar, number words as values; a reply with neither answer line nor
box is judged on its last sentence that holds a number, unless another of its sentences is a
bare different number (:func:`stages.scoring.commitment.last_sentence`). Several different
boxed answers are wrong.

Tolerance: a prompt that asks for N significant figures or N decimal places accepts exactly the
values that round to the gold there (:mod:`stages.scoring.precision`). Otherwise
``meta.tolerance`` is an absolute tolerance, ``|got - gold| <= tolerance``, and without it
``|got - gold| <= 1e-6 * max(1, |gold|)``. Values are compared as exact fractions.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from stages.errors import AtlasError
from stages.scoring import flexible, precision
from stages.scoring.extract import extract_with_line
from stages.scoring.lexicon import row_language
from stages.scoring.number_reading import reading
from stages.scoring.numbers import Number, parse_number
from stages.scoring.verdict import FlexibleVerdict, Verdict, binary, clip

NAME = "numeric"


def within_tolerance(got: Number, gold: Number, tolerance: Any = None) -> bool:
    """``|got - gold| <= tolerance`` (absolute), or the default relative-or-absolute rule."""
    difference = cast(Number, abs(got - gold))
    if tolerance is None:  # |d| <= 1e-6 * max(1, |gold|), kept in exact arithmetic
        scale = cast(Number, abs(gold))
        return difference * 1_000_000 <= (scale if scale > 1 else 1)
    return difference <= Fraction(str(tolerance))


def accepts(row: dict[str, Any], got: Number, gold: Number) -> tuple[bool, str]:
    """``(right, rule)``: the prompt's stated rounding, else the row's tolerance."""
    stated = precision.stated(row)
    if stated is not None:
        return precision.agrees(Fraction(got), Fraction(gold), stated), str(stated)
    given = (row.get("meta") or {}).get("tolerance")
    rule = "the default 1e-6 relative tolerance" if given is None else f"tolerance {given}"
    return within_tolerance(got, gold, given), rule


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


def flexible_verdict(row: dict[str, Any], output: str) -> FlexibleVerdict:
    """The flexible reading of ``output`` (module rules)."""
    found = flexible.candidate(output)
    if found.several:
        return FlexibleVerdict(False, found.text)
    read = reading(found.text, row_language(row), whole=found.source == "whole text")
    if read.value is None:
        return FlexibleVerdict(False, found.text)
    return FlexibleVerdict(accepts(row, read.value, gold_value(row))[0], found.text)


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge ``response["output"]`` by the number it commits to (module rules)."""
    gold = gold_value(row)
    output = response.get("output") or ""
    extracted, in_line = extract_with_line(output)
    loose = flexible_verdict(row, output)
    if not in_line:
        got = parse_number(extracted)
        if got is None:
            why = f"no answer line and the reply is not one number: {clip(extracted)}"
            return binary(NAME, False, extracted, why, loose)
    else:
        if flexible.several_boxes(extracted):
            return binary(NAME, False, extracted, "offers several boxed answers", loose)
        read = reading(extracted, row_language(row))
        if read.value is None:
            return binary(NAME, False, extracted, f"{clip(extracted)} {read.why}", loose)
        if not read.in_digits:
            why = f"{clip(extracted)} writes its value in words, not digits"
            return binary(NAME, False, extracted, why, loose)
        got = read.value
    ok, rule = accepts(row, got, gold)
    why = f"{got} vs gold {gold}: {'within' if ok else 'outside'} {rule}"
    return binary(NAME, ok, extracted, why, loose)
