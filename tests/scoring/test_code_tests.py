"""The code_exec test-plan protocol: which forms are supported, what the child is told, and how
the parent judges plain values with Python's own semantics."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from stages.errors import AtlasError
from stages.scoring.code_exec import run_tests
from stages.scoring.code_tests import decode, parse_tests
from stages.scoring.sandbox import Limits

REPO = Path(__file__).resolve().parents[2]
FAST = Limits(cpu_s=2, wall_s=15.0)  # generous: the machine may be shared and loaded


def test_child_gets_probes_only() -> None:
    plan = parse_tests("import math\nassert f(1) == 2\nassert not g('x'), 'msg'\nassert 3 in h()")
    assert plan.steps == [
        {"setup": "import math"},
        {"probe": "f(1)"},
        {"probe": "g('x')"},
        {"probe": "h()"},
    ]
    assert [c.source for c in plan.checks] == ["f(1) == 2", "not g('x')", "3 in h()"]


def test_every_eval_code_v1_test_is_call_equals_literal() -> None:
    rows = [json.loads(x) for x in (REPO / "datasets/eval-code-v1/rows.jsonl").open()]
    forms = set()
    for row in rows:
        plan = parse_tests(row["tests"])
        assert len(plan.checks) == len(row["tests"].splitlines())
        for check in plan.checks:
            kind, ops, (left, right) = check.tree
            forms.add((kind, tuple(op.__name__ for op in ops), left[0], right[0]))
        assert all("probe" in step for step in plan.steps)  # no setup, no expected value
        calls = [ast.parse(s["probe"], mode="eval").body for s in plan.steps]
        assert all(isinstance(c, ast.Call) and c.func.id == row["answer"] for c in calls)  # type: ignore[attr-defined]
    assert forms == {("cmp", ("Eq",), "probe", "lit")}


@pytest.mark.parametrize(
    "tests",
    [
        "for x in range(3):\n    assert f(x) == x",
        "def t():\n    assert f(1) == 1",
        "assert f(1) is 5",
        "assert f(1 ==",
    ],
)
def test_unsupported_forms_are_dataset_errors(tests: str) -> None:
    with pytest.raises(AtlasError, match="tests: line"):
        parse_tests(tests)


SOLUTION = """
def f(x):
    return {
        "int": 2, "float": 2.0, "bool": True, "tuple": (1, 2), "list": [1, 2],
        "set": {1, 2}, "dict": {1: "a", (2, 3): [None]}, "bytes": b"\\x00a",
        "none": None, "nan": float("nan"), "str": "caf\\u00e9", "complex": 1 + 2j,
    }[x]
"""


@pytest.mark.parametrize(
    ("tests", "passed"),
    [
        ("assert f('int') == 2.0", True),  # 2 == 2.0, as in Python
        ("assert f('bool') == 1", True),  # True == 1
        ("assert f('tuple') == (1, 2)", True),
        ("assert f('tuple') == [1, 2]", False),  # a tuple is not a list
        ("assert f('list') == [1, 2]", True),
        ("assert f('set') == {2, 1}", True),
        ("assert f('dict') == {1: 'a', (2, 3): [None]}", True),
        ("assert f('bytes') == b'\\x00a'", True),
        ("assert f('none') is None", True),
        ("assert f('nan') != f('nan')", True),  # NaN, as in Python
        ("assert f('str') == 'café'", True),
        ("assert f('complex') == 1 + 2j", True),
        ("assert 2 == f('int')", True),  # the literal may come first
        ("assert 1 < f('int') <= 2", True),  # chains
        ("assert 1 < f('int') < 2", False),
        ("assert 2 in f('tuple') and 'a' in list(f('dict').values())", True),
        ("assert 'a' in f('dict').values()", False),  # a view is not plain data
        ("assert not f('none')", True),
        ("assert f('int') != 2", False),
        ("assert f('str') < 3", False),  # TypeError in the comparison: failed, not an error
        ("assert f('missing') == 1", False),  # KeyError in the child
    ],
)
def test_values_are_judged_with_python_semantics(tests: str, passed: bool) -> None:
    result = run_tests(SOLUTION, tests, FAST)
    assert result.passed is passed, result.why


def test_why_names_the_failing_test_and_builtin_exception() -> None:
    result = run_tests(SOLUTION, "assert f('int') == 2\nassert f('missing') == 1", FAST)
    assert result.why == "test 2 of 2 failed: \"f('missing')\" raised KeyError"
    result = run_tests(SOLUTION, "assert f('str') < 3", FAST)
    assert result.why == "test 1 of 1 failed: the comparison raised TypeError"


def test_setup_statements_run_in_order_before_later_probes() -> None:
    tests = "import math\nassert f('int') == 2\nx = f('int') * 3\nassert math.sqrt(x + 3) == 3.0"
    assert run_tests(SOLUTION, tests, FAST).passed is True
    result = run_tests(SOLUTION, "y = 1 / 0\nassert f('int') == 2", FAST)
    assert (result.passed, result.why) == (
        False, "a test setup statement raised ZeroDivisionError",
    )  # fmt: skip


@pytest.mark.parametrize(
    "encoded",
    [{"dict": [[1]]}, {"set": [[1]]}, {"tuple": 1}, {"a": 1, "b": 2}, {"complex": [1, 2]}],
)
def test_malformed_encodings_are_rejected(encoded: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        decode(encoded)
