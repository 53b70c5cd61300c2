"""Test plans of ``code_exec`` rows: which part of an assert the sandboxed child computes and which
part only the parent holds (issue 12: "a verdict the candidate cannot write").

A row's ``tests`` is Python source, parsed here with :mod:`ast` (never executed by the parent).
Supported forms, one top-level statement at a time:

- ``assert CHECK`` or ``assert CHECK, message`` (the message is ignored). CHECK is
  * a comparison chain ``A op B [op C …]`` with op among ``== != < <= > >= in not in is is not``
    (``is``/``is not`` only against the literals None, True, False);
  * ``not CHECK``, ``CHECK and CHECK``, ``CHECK or CHECK`` (Python's short-circuit order);
  * any other expression, judged by its truth value (``assert is_prime(7)``).
- Each operand of a comparison that is a Python literal (``ast.literal_eval``: numbers, strings,
  bytes, None/True/False, and tuples, lists, dicts and sets of them, negatives included) stays in
  the parent. Every other operand, and every bare expression, is a *probe*: its source is sent to
  the child, which returns the value as plain data (exact built-in types; a subclass or an object
  with its own ``__eq__`` comes back "not plain data" and fails its check).
- Any other top-level statement (``import``, an assignment, a helper ``def``) is *setup*: the child
  runs it before the probes that follow it. It may not contain an ``assert``: only top-level
  asserts are judged by the parent, so a nested one is a dataset error, as is a syntax error.

So for ``assert f(1) == 2`` the child is asked for ``f(1)`` and never learns the 2, the ``==``, or a
``not`` around a check. Operators and literals are applied in the parent to the decoded values,
with Python's own semantics for built-in types (``1 == 1.0``, ``(1, 2) != [1, 2]``).

A verdict's ``why`` is written from parent-side facts only: the test's own source, the name of a
*built-in* exception, the type of a returned plain value. Nothing the program prints or returns as
text reaches it, so a host file the program managed to read cannot be smuggled into a verdict.
"""

from __future__ import annotations

import ast
import builtins
import json
import operator
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from stages.errors import AtlasError
from stages.scoring.sandbox import REPORT_LIMIT, Limits, RunResult
from stages.scoring.verdict import clip

BUILTIN_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)
_OPERATORS: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}  # fmt: skip
_SINGLETONS = (None, True, False)
Node = tuple[Any, ...]  # ("lit", value) | ("probe", index) | ("cmp", ops, operands) | ...


@dataclass(frozen=True)
class Check:
    """One top-level assert: its line, its source and its evaluation tree."""

    line: int
    source: str
    tree: Node


@dataclass(frozen=True)
class TestPlan:
    """What the child runs (``steps``) and what the parent judges (``checks``)."""

    steps: list[dict[str, str]]
    """``{"setup": source}`` or ``{"probe": expression}``, in order; no expected values."""
    checks: list[Check]
    probes: list[str]
    """Probe sources by index (the position among the ``probe`` steps)."""


class _Failed(Exception):
    """A check failed for the reason given."""


def parse_tests(tests: str) -> TestPlan:
    """Split ``tests`` into child steps and parent checks; AtlasError on an unsupported form."""
    try:
        module = ast.parse(tests)
    except SyntaxError as exc:
        raise AtlasError(f"tests: line {exc.lineno}: not valid Python ({exc.msg})") from exc
    steps: list[dict[str, str]] = []
    checks: list[Check] = []
    probes: list[str] = []

    def probe(node: ast.expr) -> Node:
        source = ast.unparse(node)
        steps.append({"probe": source})
        probes.append(source)
        return ("probe", len(probes) - 1)

    def operand(node: ast.expr) -> Node:
        try:
            return ("lit", ast.literal_eval(node))
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return probe(node)

    def tree(node: ast.expr) -> Node:
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return ("not", tree(node.operand))
        if isinstance(node, ast.BoolOp):
            return ("and" if isinstance(node.op, ast.And) else "or", [tree(v) for v in node.values])
        if isinstance(node, ast.Compare):
            parts = [operand(node.left), *(operand(c) for c in node.comparators)]
            pairs = zip(parts, parts[1:], strict=False)
            for op, (left, right) in zip(node.ops, pairs, strict=True):
                if isinstance(op, ast.Is | ast.IsNot) and not any(
                    p[0] == "lit" and any(p[1] is s for s in _SINGLETONS) for p in (left, right)
                ):
                    where = f"tests: line {node.lineno}"
                    raise AtlasError(f"{where}: 'is' only against None, True or False")
            return ("cmp", [type(op) for op in node.ops], parts)
        return probe(node)

    for statement in module.body:
        if isinstance(statement, ast.Assert):
            root = tree(statement.test)
            checks.append(Check(statement.lineno, ast.unparse(statement.test), root))
        elif any(isinstance(inner, ast.Assert) for inner in ast.walk(statement)):
            raise AtlasError(f"tests: line {statement.lineno}: an assert inside a statement")
        else:
            steps.append({"setup": ast.unparse(statement)})
    return TestPlan(steps, checks, probes)


def decode(node: Any, depth: int = 0) -> Any:
    """A value encoded by the child (``sandbox_boot.plain``) as built-in Python data."""
    if depth > 200:
        raise ValueError("nested too deeply")
    if node is None or type(node) in (bool, int, float, str):
        return node
    if type(node) is list:
        return [decode(item, depth + 1) for item in node]
    if type(node) is dict and len(node) == 1:
        ((tag, body),) = node.items()
        if tag == "bytes" and type(body) is str:
            return bytes.fromhex(body)
        if type(body) is not list:
            raise ValueError("bad encoding")
        items = [decode(item, depth + 1) for item in body]
        if tag == "tuple":
            return tuple(items)
        if tag in ("set", "frozenset"):
            return set(items) if tag == "set" else frozenset(items)
        if tag == "dict" and all(type(i) is list and len(i) == 2 for i in items):
            return {key: value for key, value in items}
        if tag == "complex" and len(items) == 2 and all(type(i) is float for i in items):
            return complex(items[0], items[1])
    raise ValueError("bad encoding")


def exception_name(name: Any) -> str:
    """A built-in exception's name, else a fixed phrase: the program chooses its class names."""
    if isinstance(name, str) and name in BUILTIN_EXCEPTIONS:
        return name
    return "an exception of a class it defined"


def _value(outcome: Any, source: str) -> Any:
    if not isinstance(outcome, dict):
        raise ValueError("bad outcome")
    if "value" in outcome:
        return decode(outcome["value"])
    if "raised" in outcome:
        raise _Failed(f"{clip(source, 60)} raised {exception_name(outcome['raised'])}")
    raise _Failed(f"{clip(source, 60)} returned a value that is not plain built-in data")


def _evaluate(node: Node, plan: TestPlan, outcomes: list[Any]) -> Any:
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "probe":
        return _value(outcomes[node[1]], plan.probes[node[1]])
    if kind == "not":
        return not bool(_evaluate(node[1], plan, outcomes))
    if kind in ("and", "or"):
        value: Any = None
        for part in node[1]:
            value = _evaluate(part, plan, outcomes)
            if bool(value) is (kind == "or"):
                return value
        return value
    ops, parts = node[1], node[2]
    left = _evaluate(parts[0], plan, outcomes)
    for op, part in zip(ops, parts[1:], strict=True):
        right = _evaluate(part, plan, outcomes)
        try:
            holds = bool(_OPERATORS[op](left, right))
        except (TypeError, ValueError, RecursionError) as exc:
            raise _Failed(f"the comparison raised {type(exc).__name__}") from exc
        if not holds:
            return False
        left = right
    return True


def _died(run: RunResult, limits: Limits) -> str:
    if run.timed_out:
        return f"killed after the {limits.wall_s:g} s wall-clock limit"
    code = run.exit_code
    number = -code if code is not None and code < 0 else (code or 0) - 128
    if code is not None and number > 0:  # -n, or 128+n from the PID 1 or supervisor above it
        with_name = signal.Signals(number).name if number in signal.valid_signals() else number
        return f"killed by signal {with_name} before reporting"
    return f"ended with exit status {code} before reporting"


def judge(plan: TestPlan, run: RunResult, limits: Limits) -> tuple[bool, str]:
    """``(passed, why)`` of a run, decided from the parent's own expected values."""
    if run.timed_out or run.exit_code != 0:
        return False, _died(run, limits)
    if run.report is None:
        return False, f"its result report exceeded {REPORT_LIMIT // (1024 * 1024)} MB"
    try:
        report = json.loads(run.report)
        outcomes, code_error = report["results"], report["code_error"]
        setup_error = None if report["setup_error"] is None else report["setup_error"]["raised"]
        if not isinstance(outcomes, list):
            raise TypeError("results")
    except (ValueError, TypeError, KeyError, RecursionError):
        return False, "its result report is malformed"
    if code_error is not None:
        if code_error == "SystemExit":
            return False, "exited before the tests completed"
        return False, f"the code raised {exception_name(code_error)} before the tests"
    if setup_error is not None:
        return False, f"a test setup statement raised {exception_name(setup_error)}"
    if len(outcomes) != len(plan.probes):
        return False, "its result report is malformed"
    for number, check in enumerate(plan.checks, start=1):
        try:
            if not bool(_evaluate(check.tree, plan, outcomes)):
                return False, f"test {number} of {len(plan.checks)} failed: {clip(check.source)}"
        except _Failed as failed:
            return False, f"test {number} of {len(plan.checks)} failed: {failed}"
        except (ValueError, TypeError, KeyError, RecursionError, OverflowError):
            return False, "its result report is malformed"
    return True, f"{len(plan.checks)} tests passed"
