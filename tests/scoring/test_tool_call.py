"""tool_call scorer: name, argument parsing, subset/exact matching, the null case."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stages.scoring import tool_call
from stages.scoring.tool_call import values_match

GOLD = {"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}


def _call(name: str, arguments: Any) -> dict[str, Any]:
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": "c1", "type": "function", "function": {"name": name, "arguments": raw}}


def _score(calls: list[dict[str, Any]] | None, gold: Any = GOLD, match: str = "subset") -> Any:
    row = {"answer": {"tool_call": gold}, "meta": {"arguments_match": match, "tools": []}}
    response = {"output": "", "tool_calls": calls, "error": None}
    return tool_call.score(row, response, Path("."))


def test_exact_call_is_correct() -> None:
    verdict = _score([_call("get_weather", {"city": "Paris", "days": 3})])
    assert (verdict.correct, verdict.why) == (True, "get_weather: arguments match (subset)")


def test_strings_case_insensitive_after_strip_numbers_numeric() -> None:
    assert _score([_call("get_weather", {"city": "  paris ", "days": 3.0})]).correct is True


def test_subset_tolerates_extra_arguments_exact_does_not() -> None:
    calls = [_call("get_weather", {"city": "Paris", "days": 3, "units": "metric"})]
    assert _score(calls).correct is True
    assert _score(calls, match="exact").correct is False


def test_missing_or_different_argument_is_wrong() -> None:
    assert _score([_call("get_weather", {"city": "Paris"})]).correct is False
    assert _score([_call("get_weather", {"city": "Lyon", "days": 3})]).correct is False


def test_numeric_string_is_not_a_number() -> None:
    assert _score([_call("get_weather", {"city": "Paris", "days": "3"})]).correct is False


def test_name_must_match_exactly() -> None:
    verdict = _score([_call("Get_Weather", {"city": "Paris", "days": 3})])
    assert (verdict.correct, verdict.extracted) == (False, "Get_Weather")


def test_only_first_call_is_scored() -> None:
    good, bad = _call("get_weather", GOLD["arguments"]), _call("search", {})
    assert _score([good, bad]).correct is True
    assert _score([bad, good]).correct is False


@pytest.mark.parametrize("raw", ['{"city": "Paris", "days": 3', "[1, 2]", "null", "Paris"])
def test_invalid_or_non_object_arguments_are_wrong(raw: str) -> None:
    verdict = _score([_call("get_weather", raw)])
    assert verdict.correct is False
    assert verdict.why.startswith("arguments are not a JSON object")


def test_empty_arguments_string_is_an_empty_object() -> None:
    assert _score([_call("list_all", "")], gold={"name": "list_all", "arguments": {}}).correct


def test_no_call_when_one_was_expected() -> None:
    assert _score(None).correct is False
    assert _score([]).correct is False


def test_null_gold_correct_only_without_any_call() -> None:
    assert _score(None, gold=None).correct is True
    assert _score([], gold=None).correct is True
    assert _score([_call("get_weather", {})], gold=None).correct is False


@pytest.mark.parametrize(
    ("gold", "got", "exact", "ok"),
    [
        ({"a": {"b": "X", "c": 1}}, {"a": {"b": "x", "c": 1, "d": 2}}, False, True),
        ({"a": {"b": "X", "c": 1}}, {"a": {"b": "x", "c": 1, "d": 2}}, True, False),
        ({"tags": ["A", "b"]}, {"tags": ["a", "B"]}, False, True),
        ({"tags": ["a", "b"]}, {"tags": ["b", "a"]}, False, False),  # lists keep order
        ({"tags": ["a"]}, {"tags": ["a", "b"]}, False, False),  # and length
        ({"flag": True}, {"flag": 1}, False, False),  # a boolean is not a number
        ({"n": 1}, {"n": True}, False, False),
        ({"x": None}, {"x": None}, True, True),
        ({"x": 2.50}, {"x": 2.5}, True, True),
    ],
)
def test_values_match(gold: Any, got: Any, exact: bool, ok: bool) -> None:
    assert values_match(gold, got, exact) is ok
