"""drop scorer: cases worked by hand from the official drop_eval.py logic."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stages.scoring import drop
from stages.scoring.drop import get_metrics, normalize_answer


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("The Broncos", "broncos"),
        ("an apple a day", "apple day"),
        ("theater", "theater"),  # articles only as whole words
        ("Broncos'", "broncos"),
        ("19", "19.0"),
        ("19.0", "19.0"),
        ("1,000", "1000.0"),  # punctuation removed first, then the number is formatted
        ("$3", "3.0"),
        ("field-goal", "field goal"),  # hyphens split tokens
        ("June 5, 1944", "june 5.0 1944.0"),
        ("-5", "5.0"),  # the leading hyphen is a token separator, not a sign
        ("the", ""),
    ],
)
def test_normalize_answer(text: str, normalized: str) -> None:
    assert normalize_answer(text) == normalized


@pytest.mark.parametrize(
    ("predicted", "gold", "em", "f1"),
    [
        (["19"], ["19"], 1.0, 1.0),
        (["19.0"], ["19"], 1.0, 1.0),
        (["the Broncos"], ["Broncos"], 1.0, 1.0),
        (["1000"], ["1,000"], 1.0, 1.0),
        # number rule: the gold number 43 is missing, so F1 is 0 instead of 0.5
        (["24 yards"], ["43 yards"], 0.0, 0.0),
        # no gold number: plain bag F1, P = 1/3, R = 1/2 -> 0.4
        (["Broncos field goal"], ["Broncos yards"], 0.0, 0.4),
        # gold number present: P = 1, R = 1/2 -> 2/3 -> 0.67
        (["43"], ["43 yards"], 0.0, 0.67),
        # dates: same bag, different order -> EM 0, F1 1
        (["June 5, 1944"], ["5 June 1944"], 0.0, 1.0),
        # multi-span, order-free
        (["Chargers", "Broncos"], ["Broncos", "Chargers"], 1.0, 1.0),
        # one of two gold spans: [1, 0] -> 0.5
        (["Broncos"], ["Broncos", "Chargers"], 0.0, 0.5),
        # an extra predicted span is an empty slot: [1, 1, 0] -> 0.67
        (["Broncos", "Chargers", "Raiders"], ["Broncos", "Chargers"], 0.0, 0.67),
        # rounding is numpy's half-to-even: 2*1/16 = 0.125 -> 0.12, 2*3/16 = 0.375 -> 0.38
        (["x " + " ".join(f"w{i}" for i in range(14))], ["x"], 0.0, 0.12),
        (["x y z " + " ".join(f"w{i}" for i in range(10))], ["x y z"], 0.0, 0.38),
    ],
)
def test_get_metrics(predicted: list[str], gold: list[str], em: float, f1: float) -> None:
    assert get_metrics(predicted, gold) == (em, f1)


def _score(output: str, answer: Any) -> drop.Verdict:
    return drop.score({"answer": answer}, {"output": output, "error": None}, Path("."))


def test_best_over_accepted_answers() -> None:
    verdict = _score("Answer: 20", ["twenty", "20"])
    assert (verdict.correct, verdict.score, verdict.extras) == (True, 1.0, {"em": 1.0, "f1": 1.0})
    assert _score("Answer: Broncos", [["Broncos", "Chargers"], "Broncos"]).correct is True


def test_em_and_f1_maxima_are_independent() -> None:
    # accepted 1 gives F1 0.67 (EM 0), accepted 2 gives F1 0 -> max EM 0, max F1 0.67
    verdict = _score("Answer: 43", ["43 yards", "12"])
    assert verdict.extras == {"em": 0.0, "f1": 0.67}
    assert (verdict.correct, verdict.score) == (False, 0.0)


def test_prediction_split_on_pipes() -> None:
    verdict = _score("Answer: Chargers | Broncos |", [["Broncos", "Chargers"]])
    assert verdict.extras == {"em": 1.0, "f1": 1.0}


def test_blank_accepted_answer_is_skipped() -> None:
    # without the skip, "" vs "" would be an exact match
    assert _score("", ["", "x"]).extras == {"em": 0.0, "f1": 0.0}


def test_worked_example_from_spec_003() -> None:
    output = "Longest 43, shortest 24: 43 - 24 = 19.\nAnswer: 19"
    verdict = _score(output, [["19"]])
    assert (verdict.extracted, verdict.extras) == ("19", {"em": 1.0, "f1": 1.0})
