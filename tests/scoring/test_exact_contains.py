"""exact and contains scorers: normalisation and word boundaries, hand-checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stages.scoring import contains, exact
from stages.scoring.exact import normalize

HERE = Path(".")


def _resp(output: str) -> dict[str, Any]:
    return {"output": output, "tool_calls": None, "error": None}


def test_normalize() -> None:
    assert normalize("  Straße\t\tNEW   York ") == "strasse new york"
    assert normalize("ＡＢＣ　１２") == "abc 12"  # NFKC: full-width letters, digits, space


@pytest.mark.parametrize(
    ("output", "answer", "correct"),
    [
        ("Answer: paris", "Paris", True),
        ("Answer: Paris.", "Paris", True),
        ("Answer: Paris, France", "Paris", False),
        ("The capital is Paris", "Paris", False),
        ("Answer: STRASSE", "Straße", True),
        ("Answer: 42", 42, True),
        ("Answer: true", True, True),
        ("Answer: Lyon", ["Paris", "Lyon"], True),
        ("", "Paris", False),
        ("<think>long", "Paris", False),
    ],
)
def test_exact(output: str, answer: Any, correct: bool) -> None:
    verdict = exact.score({"answer": answer}, _resp(output), HERE)
    assert (verdict.correct, verdict.score) == (correct, 1.0 if correct else 0.0)


def test_exact_reports_extraction() -> None:
    verdict = exact.score({"answer": "Paris"}, _resp("So...\nAnswer: 'Paris'"), HERE)
    assert verdict.extracted == "Paris"
    assert verdict.scorer == "exact"


@pytest.mark.parametrize(
    ("output", "answer", "correct"),
    [
        ("The answer is a cat.", "cat", True),
        ("concatenate", "cat", False),
        ("cats", "cat", False),
        ("Il s'agit de PARIS", "paris", True),
        ("I like C++17", "C++", True),
        ("version 3.11", "3.1", False),  # the gold ends with a digit: "1" follows
        ("首都是东京。", "东京", True),  # no spaces in Chinese: no boundary needed
        ("Answer: Tokyo", ["Kyoto", "Tokyo"], True),
        ("anything", "", False),
        ("", "cat", False),
    ],
)
def test_contains(output: str, answer: Any, correct: bool) -> None:
    assert contains.score({"answer": answer}, _resp(output), HERE).correct is correct
