"""Strict and flexible extraction side by side (issue 12), hand-checked for every listed form:
markdown emphasis, \\boxed{}, LaTeX fractions, mixed numbers, vulgar fractions, Unicode minus,
thousands separators, unit words, scientific notation — and hedges, wrong under both."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from stages.scoring.flexible import candidate, clean
from stages.scoring.flexible_numbers import read_whole
from stages.scoring.registry import score_row

PLANETS = ["Mercury", "Venus", "Uranus", "Mars"]


def _verdict(scorer: str, gold: Any, output: str) -> Any:
    row = {"id": "r", "scorer": scorer, "answer": gold, "choices": PLANETS, "meta": {}}
    return score_row(row, {"output": output, "error": None}, Path("."))


@pytest.mark.parametrize(
    ("scorer", "gold", "output", "strict", "flexible", "extracted"),
    [
        # markdown emphasis around the answer line or the value
        ("mc", "C", "**Answer: C**", True, True, "C"),  # the one label in the text (issue 30)
        ("mc", "C", "Answer: **C**", True, True, "C"),
        ("mc", "C", "### Answer: C", True, True, "C"),
        ("mc", "C", "- **Answer:** (C) Uranus", True, True, "(C) Uranus"),
        ("exact", "C", "**Answer: C**", False, True, "C"),
        ("exact", "Uranus", "Answer: **Uranus**", False, True, "Uranus"),
        ("exact", "Uranus", "Answer: `Uranus`.", False, True, "Uranus"),
        ("drop", [["43"]], "**Answer: 43**", False, True, "43"),
        # \boxed{} and LaTeX
        ("mc", "C", "So the planet is $\\boxed{C}$.", True, True, "C"),
        ("numeric", "42", "Thus \\boxed{42}", False, True, "42"),  # no answer line: strict wrong
        ("numeric", "10/3", "Answer: $\\frac{10}{3}$", False, True, "10/3"),
        ("numeric", "10/3", "Answer: \\dfrac{10}{3}", False, True, "10/3"),
        ("numeric", "10/3", "Answer: 3\\frac{1}{3}", False, True, "3 1/3"),
        ("exact", "Uranus", "Answer: $\\text{Uranus}$", False, True, "Uranus"),
        # mixed numbers and vulgar fractions
        ("numeric", "10/3", "Answer: 3 1/3", True, True, "3 1/3"),  # one grammar (issue 30)
        ("numeric", "10/3", "Answer: 3⅓", True, True, "3⅓"),
        ("numeric", "-7/2", "Answer: -3 1/2", True, True, "-3 1/2"),
        ("numeric", "10/3", "Answer: 3 1/4", False, False, "3 1/4"),
        # Unicode minus, thousands separators, unit words on integer rows scored exact
        ("exact", "7651", "Answer: 7,651", False, True, "7,651"),
        ("exact", "-205", "Answer: −205", True, True, "−205"),  # a minus sign is "-"
        ("exact", "537", "Answer: 537 days", False, True, "537 days"),
        ("exact", "537", "Answer: 538 days", False, False, "538 days"),
        ("exact", "537", "Answer: 537 days and 2 hours", False, False, "537 days and 2 hours"),
        ("numeric", "7651", "Answer: 7\u202f651", True, True, "7\u202f651"),
        ("numeric", "-205", "Answer: −205 m", True, True, "−205 m"),
        # scientific notation
        ("numeric", "2640", "Answer: 2.64 × 10^3", True, True, "2.64 × 10^3"),
        ("numeric", "2640", "Answer: 2.64 x 10^3 m", True, True, "2.64 x 10^3 m"),
        ("numeric", "2640", "Answer: 2.64×10³", True, True, "2.64×10³"),
        ("numeric", "2640", "Answer: $2.64 \\times 10^{3}$", False, True, "2.64 × 10^3"),
        ("numeric", "2640", "Answer: 2.64e3", True, True, "2.64e3"),
        ("numeric", "0.00264", "Answer: 2.64 · 10^-3", True, True, "2.64 · 10^-3"),
        # a wrong answer stays wrong, however it is formatted
        ("mc", "C", "**Answer: D**", False, False, "D"),
        ("exact", "Uranus", "Answer: **Neptune**", False, False, "Neptune"),
        ("numeric", "2640", "Answer: 2.65 × 10^3", False, False, "2.65 × 10^3"),
        # hedges: wrong under both readings
        ("mc", "C", "Answer: C or D", False, False, "C or D"),
        ("mc", "C", "**Answer: C/D**", False, False, "C/D"),
        ("mc", "C", "Answer: C) Uranus, D) Mars", False, False, "C) Uranus, D) Mars"),
        ("mc", "C", "Answer: (C) or (B)", False, False, "(C) or (B)"),
        ("exact", "Uranus", "Answer: **Uranus or Neptune**", False, False, "Uranus or Neptune"),
        ("exact", "537", "Answer: 537 or 538 days", False, False, "537 or 538 days"),
        ("numeric", "42", "Answer: 42 or 43", False, False, "42 or 43"),
        ("numeric", "42", "Answer: 41, 42", False, False, "41, 42"),
        ("numeric", "42", "Answer: 42 ou 41", False, False, "42 ou 41"),
        ("numeric", "42", "\\boxed{41} or maybe \\boxed{42}", False, False, "42"),
        ("contains", "dix", "Answer: lundi or dix", False, False, "lundi or dix"),
        ("contains", "mardi", "Answer: mardi, jeudi", False, False, "mardi, jeudi"),
        ("contains", "58821", "Answer: 58821 / 12345", False, False, "58821 / 12345"),
        # contains: whole words, hyphen joins, accents
        ("contains", "dix", "Answer: dix-sept", False, False, "dix-sept"),
        ("contains", "sept", "Answer: dix-sept", False, False, "dix-sept"),
        ("contains", "dix", "Answer: **dix**", True, True, "dix"),
        ("contains", "58821", "Answer: 58821.5", False, False, "58821.5"),
        ("contains", "58821", "The code is 58821.", True, True, "The code is 58821"),
        ("contains", "dix", "Answer: dix, c'est la réponse", True, True, "dix, c'est la réponse"),
        ("contains", "sábado", "Answer: sabado", False, True, "sabado"),
        ("contains", "sabado", "Answer: sábado", False, True, "sábado"),
        ("contains", ["Nb", "Niobium"], "Answer: Nb or niobium", True, True, "Nb or niobium"),
        (
            "contains", ["63884, 75053, 60376", "63884,75053,60376"],
            "Answer: 63884, 75053, 60376", True, True, "63884, 75053, 60376",
        ),
    ],
)  # fmt: skip
def test_strict_and_flexible(
    scorer: str, gold: Any, output: str, strict: bool, flexible: bool, extracted: str
) -> None:
    verdict = _verdict(scorer, gold, output)
    assert verdict.flexible is not None
    assert (verdict.correct, verdict.flexible.correct, verdict.flexible.extracted) == (
        strict, flexible, extracted,
    )  # fmt: skip


def test_answer_line_beats_boxes_as_in_strict() -> None:
    found = candidate("\\boxed{41}\nAnswer: 42")
    assert (found.text, found.source, found.several) == ("42", "answer line", False)
    found = candidate("<think>**Answer: 1**</think>```\n**Final answer: 2**\n```")
    assert (found.text, found.source) == ("2", "answer line")
    assert candidate("Just 7.").text == "Just 7"  # no answer line: the whole text, tidied


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3 1/3", Fraction(10, 3)),
        ("-3 1/3", Fraction(-10, 3)),
        ("½", Fraction(1, 2)),
        ("2.64e3", 2640),
        ("2.64 × 10^-3", Fraction(264, 100000)),
        ("x = 42", 42),
        ("$1,000", 1000),
        ("12.5 m/s^2", Fraction(25, 2)),
        ("25 °C", 25),
        ("3 apples", 3),
        ("3 or 4", None),
        ("3 4", None),
        ("2 10/3", None),  # not a proper mixed number
        ("7 651", None),  # a plain space is not a thousands separator
        ("four", None),
    ],
)
def test_flexible_numbers(text: str, value: Fraction | int | None) -> None:
    assert read_whole(text) == value


def test_clean_latex_and_markdown() -> None:
    assert clean("$$\\boxed{\\frac{1}{2}}$$") == "1/2"
    assert clean("**7{,}651**") == "7,651"
    assert clean("\\text{(C)}.") == "(C)"
