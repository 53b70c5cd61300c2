"""numeric scorer: what parses, which number is taken, the tolerance rule."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from stages.errors import AtlasError
from stages.scoring import numeric
from stages.scoring.numbers import parse_number


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("42", Fraction(42)),
        ("-7", Fraction(-7)),
        ("+7", Fraction(7)),
        ("\u22125", Fraction(-5)),  # Unicode minus sign
        ("3.25", Fraction(13, 4)),
        (".5", Fraction(1, 2)),
        ("1,000", Fraction(1000)),
        ("12,345,678.5", Fraction(24691357, 2)),
        ("3/4", Fraction(3, 4)),
        ("-29 / 20", Fraction(-29, 20)),
        ("12%", Fraction(12)),
        ("1e-3", Fraction(1, 1000)),
        ("４２", Fraction(42)),  # full-width digits via NFKC
        ("٤٢", Fraction(42)),  # Arabic-Indic digits
        ("¾", Fraction(3, 4)),  # NFKC gives 3⁄4 with a fraction slash
    ],
)
def test_parse_number(text: str, value: Fraction) -> None:
    parsed = parse_number(text)
    assert parsed == value
    assert isinstance(parsed, int) is (value.denominator == 1 and "." not in text)


@pytest.mark.parametrize("text", ["1,00", "1 000", "3/0", "twelve", "", "1.2.3", "1/2/3"])
def test_not_one_number(text: str) -> None:
    assert parse_number(text) is None


def _score(output: str, answer: Any, **meta: Any) -> bool | None:
    row = {"id": "n-1", "answer": answer, "meta": meta}
    return numeric.score(row, {"output": output, "error": None}, Path(".")).correct


@pytest.mark.parametrize(
    ("output", "answer", "correct"),
    [
        ("Work...\nAnswer: 83", "83", True),
        ("Answer: 83.0", "83", True),
        ("Answer: 1,000", "1000", True),
        ("Answer: 1.45", "29/20", True),
        ("Answer: 29/20", 1.45, True),
        ("Answer: -5", "-5", True),
        ("Answer: 5", "-5", False),
        ("Answer: 12%", "12", True),
        ("Answer: 0.3333333", "1/3", True),  # off by 3.3e-8 < 1e-6
        ("Answer: 0.3333", "1/3", False),  # off by 3.3e-5
        ("Answer: 1000001", "1000000", True),  # relative: 1e-6 * 1e6 = 1
        ("Answer: 1000002", "1000000", False),
        ("", "3", False),
        ("Answer: about seven", "7", False),
    ],
)
def test_numeric_default_tolerance(output: str, answer: Any, correct: bool) -> None:
    assert _score(output, answer) is correct


def test_meta_tolerance_is_absolute() -> None:
    assert _score("Answer: 3.14", "3.14159", tolerance=0.01) is True
    assert _score("Answer: 3.1", "3.14159", tolerance=0.01) is False


def test_unparseable_gold_is_a_dataset_error() -> None:
    with pytest.raises(AtlasError, match="n-1"):
        _score("Answer: 1", "about 3")


@pytest.mark.parametrize(
    ("output", "answer", "correct"),
    [
        # inside an answer line the last number counts, prose around it is fair
        ("Answer: 72 apples", "72", True),
        ("Work: 70 + 2\nAnswer: x = 72", "72", True),
        # no answer line: only a reply that is the number, after the extraction steps
        ("72", "72", True),
        ("  72.  ", "72", True),
        ('"72"', "72", True),
        ("<think>maybe 71</think>72", "72", True),
        ("```\n72\n```", "72", True),
        ("The result is \\boxed{42}.", "42", False),
        ("645 pounds = 102.87 kilograms", "102.87", False),
        ("So she has 72 apples", "72", False),
        ("72 apples", "72", False),
        ("x = 72", "72", False),
    ],
)
def test_strict_reads_a_number_only_in_an_answer_line_or_as_the_whole_reply(
    output: str, answer: str, correct: bool
) -> None:
    assert _score(output, answer) is correct


def test_prose_without_an_answer_line_is_flexible_only() -> None:
    row = {"id": "n-1", "answer": "42", "meta": {}}
    verdict = numeric.score(row, {"output": "The result is \\boxed{42}.", "error": None}, Path("."))
    assert verdict.correct is False
    assert verdict.flexible is not None and verdict.flexible.correct is True
    why = "no answer line and the reply is not one number: 'The result is \\\\boxed{42}'"
    assert verdict.why == why
