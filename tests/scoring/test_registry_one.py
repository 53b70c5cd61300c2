"""Dispatch on the row's own scorer, failed requests, and ``atlas score-one``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stages.errors import AtlasError
from stages.scoring.one import score_one_command
from stages.scoring.registry import SCORER_VERSIONS, SCORERS, score_row

ALL_SCORERS = {
    "exact", "contains", "numeric", "mc", "instruction", "tool_call", "code_exec", "splice",
    "drop", "chrf", "review",
}  # fmt: skip


def test_every_contract_scorer_is_registered_with_a_version() -> None:
    assert set(SCORERS) == ALL_SCORERS
    assert set(SCORER_VERSIONS) == ALL_SCORERS


def test_dispatch_uses_the_rows_own_scorer() -> None:
    response = {"output": "Answer: 12", "tool_calls": None, "error": None}
    numeric_row = {"id": "r1", "scorer": "numeric", "answer": "12.0", "meta": {}}
    exact_row = {"id": "r2", "scorer": "exact", "answer": "12.0", "meta": {}}
    assert score_row(numeric_row, response, Path(".")).correct is True
    assert score_row(exact_row, response, Path(".")).correct is False


def test_failed_request_is_incorrect_for_any_scorer() -> None:
    response = {"output": "", "error": {"kind": "timeout", "message": "read timed out"}}
    for scorer in ("exact", "drop", "chrf", "tool_call"):
        verdict = score_row({"id": "r", "scorer": scorer, "answer": "x"}, response, Path("."))
        assert (verdict.correct, verdict.score, verdict.why) == (
            False, 0.0, "request failed: timeout",
        )  # fmt: skip


def test_unknown_scorer_is_a_user_error() -> None:
    with pytest.raises(AtlasError, match="unknown scorer 'fuzzy'"):
        score_row({"id": "r", "scorer": "fuzzy", "answer": "x"}, {"output": ""}, Path("."))


def test_review_rows_are_not_binary() -> None:
    verdict = score_row({"id": "r", "scorer": "review", "answer": {}}, {"output": "x"}, Path("."))
    assert verdict.correct is None


def test_score_one_with_inline_json() -> None:
    row = {"id": "d1", "scorer": "drop", "answer": [["43 yards"]], "meta": {}}
    shown = json.loads(score_one_command(json.dumps(row), "Answer: 43"))
    assert shown == {
        "scorer": "drop",
        "extracted": "43",
        "correct": False,
        "flexible": {"correct": False, "extracted": "43"},
        "score": 0.0,
        "why": "EM 0, F1 0.67 for '43'",
        "em": 0.0,
        "f1": 0.67,
    }


def test_score_one_prints_strict_and_flexible() -> None:
    row = {"id": "m1", "scorer": "mc", "answer": "C", "choices": ["a", "b", "c", "d"]}
    reply = "I weighed A and B.\n**Answer: C**"
    shown = json.loads(score_one_command(json.dumps(row), reply))
    assert (shown["correct"], shown["flexible"]) == (False, {"correct": True, "extracted": "C"})
    tool = {"id": "t", "scorer": "tool_call", "answer": {"tool_call": None}, "meta": {}}
    shown = json.loads(score_one_command(json.dumps(tool), "no call"))
    assert (shown["correct"], shown["flexible"]) == (True, {"correct": True, "extracted": None})


def test_score_one_with_a_row_file(tmp_path: Path) -> None:
    path = tmp_path / "row.json"
    path.write_text(json.dumps({"id": "t1", "scorer": "chrf", "answer": "Il pleut.", "meta": {}}))
    shown = json.loads(score_one_command(str(path), "Il pleut."))
    assert (shown["correct"], shown["score"], shown["chrf"]) == (None, 100.0, 100.0)


def test_score_one_tool_call_from_json_output() -> None:
    gold = {"name": "add", "arguments": {"a": 1}}
    row = {"id": "t", "scorer": "tool_call", "answer": {"tool_call": gold}, "meta": {}}
    assert json.loads(score_one_command(json.dumps(row), json.dumps(gold)))["correct"] is True
    assert json.loads(score_one_command(json.dumps(row), "I would call add"))["correct"] is False


def test_score_one_bad_row_json() -> None:
    with pytest.raises(AtlasError, match="--row: invalid JSON"):
        score_one_command("{not json", "x")


def test_score_one_missing_row_file(tmp_path: Path) -> None:
    with pytest.raises(AtlasError, match="file not found"):
        score_one_command(str(tmp_path / "none.json"), "x")
