"""The literal-only hidden tests of eval-code-v2 and -v3 (spec 001: ``code_exec`` rows): one
``assert <entry>(<literal args>) == <literal>`` per line, every expected value plain JSON; how a
row splits its cases into the prompt's worked example and the hidden tests; and an isolated
interpreter that runs solutions on those calls.

``run`` executes several solutions in one fresh ``python -I -S`` (our own reference and mutant
sources, never a model's): per solution, per call, the JSON of the value (or the exception's
name) and whether it ``==`` the expected literal. ``passes`` and ``killed`` read that outcome
the way a harness comparing with ``==`` and one comparing JSON would both read it.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections import Counter
from typing import Any

from common import lib

from families.code.base import Task

TIMEOUT_S = 20
#: Runs every solution on every call; a solution that does not even compile gets None.
DRIVER = """
import json, sys
payload = json.loads(sys.stdin.read())
runs = []
for solution in payload["solutions"]:
    namespace = {"__name__": "solution"}
    try:
        exec(solution, namespace)
    except Exception:
        runs.append(None)
        continue
    out = []
    for call, expected in payload["cases"]:
        try:
            value = eval(call, namespace)
            out.append([json.dumps(value, sort_keys=True), value == eval(expected, {})])
        except Exception as exc:
            out.append([type(exc).__name__, False])
    runs.append(out)
print(json.dumps(runs))
"""

Case = tuple[str, str, Any]  # call source, expected source, expected value
Outcome = list[tuple[str, bool]] | None


def call_text(entry: str, args: tuple[Any, ...]) -> str:
    return f"{entry}({', '.join(repr(a) for a in args)})"


def canonical(value: Any) -> Any:
    """``value`` with every dict rebuilt in sorted key order: an oracle may build a dict from a
    set, whose order follows string hashing, and the repr must not."""
    if isinstance(value, dict):
        return {k: canonical(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def split_cases(task: Task, example: int) -> tuple[str, Any, dict[str, Any]]:
    """The example call, its value, and the hidden tests (call -> expected) without it."""
    args, expected = task.cases[example]
    call = call_text(task.entry, canonical(args))
    hidden: dict[str, Any] = {}  # a seeded input may repeat another one: keep it once
    for case_args, case_expected in task.cases:
        hidden.setdefault(call_text(task.entry, canonical(case_args)), canonical(case_expected))
    del hidden[call]
    return call, canonical(expected), hidden


def json_plain(value: Any) -> bool:
    """Whether ``value`` survives a JSON round trip unchanged (no tuple, set or int key)."""
    if value is None or isinstance(value, bool | int | str):
        return True
    if isinstance(value, float):
        return value == value and abs(value) != float("inf")
    if isinstance(value, list):
        return all(json_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and json_plain(v) for k, v in value.items())
    return False


def parse_tests(entry: str, tests: str) -> list[Case]:
    """(call source, expected source, expected value) per line; each line must be exactly
    ``assert entry(<literals>) == <literal>``."""
    cases = []
    for line in tests.split("\n"):
        node = ast.parse(line).body
        assert len(node) == 1 and isinstance(node[0], ast.Assert), line
        test = node[0].test
        assert isinstance(test, ast.Compare) and len(test.ops) == 1, line
        assert isinstance(test.ops[0], ast.Eq), line
        call, right = test.left, test.comparators[0]
        assert isinstance(call, ast.Call) and not call.keywords, line
        assert isinstance(call.func, ast.Name) and call.func.id == entry, line
        for arg in call.args:
            ast.literal_eval(arg)  # literals only
        expected = ast.literal_eval(right)
        assert json_plain(expected), f"not plain JSON: {line}"
        cases.append((ast.unparse(call), ast.unparse(right), expected))
    return cases


def checked_cases(row: dict[str, Any]) -> tuple[list[Case], Case]:
    """A row's hidden tests, checked as both suites require, and its example as a case: at
    least three tests, not all of one value (a constant function would pass), no call twice,
    the example shown in the prompt and never a test."""
    rid, example = row["id"], row["meta"]["example"]
    cases = parse_tests(row["answer"], row["tests"])
    assert len(cases) >= 3, rid
    outputs = {json.dumps(expected, sort_keys=True) for _, _, expected in cases}
    assert len(outputs) >= 2, f"{rid}: a function returning a constant passes"
    assert len({c for c, _, _ in cases}) == len(cases), f"{rid}: repeated test call"
    assert example["call"] not in {c for c, _, _ in cases}, f"{rid}: example is a test"
    assert f"For example, {example['call']} returns {example['expected']!r}." in row["prompt"]
    return cases, (example["call"], repr(example["expected"]), example["expected"])


def check_layout(rows: list[dict[str, Any]], categories: int) -> None:
    """One family and entry point per row, three rows per category and difficulty, and row i
    of difficulty ``(i // categories) % 3`` (easy, medium, hard) as the suites lay them out."""
    lib.assert_unique(rows, lambda r: r["answer"], "entry point")
    lib.assert_unique(rows, lambda r: r["meta"]["family"], "family")
    cells = Counter((row["category"], row["difficulty"]) for row in rows)
    assert set(cells.values()) == {3} and len(cells) == categories * 3, cells
    for i, row in enumerate(rows):
        assert row["difficulty"] == ("easy", "medium", "hard")[i // categories % 3], row["id"]


def run(solutions: list[str], cases: list[Case]) -> list[Outcome]:
    """Per solution, per case (value as JSON, == expected); all None if the interpreter died
    or ran out of time."""
    payload = {"solutions": solutions, "cases": [(c, e) for c, e, _ in cases]}
    try:
        proc = subprocess.run(
            [sys.executable, "-I", "-S", "-c", DRIVER],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return [None] * len(solutions)
    if proc.returncode != 0:
        return [None] * len(solutions)
    return [
        None if out is None else [(value, equal) for value, equal in out]
        for out in json.loads(proc.stdout)
    ]


def passes(outcome: Outcome, cases: list[Case]) -> bool:
    """Every value ``==`` its expected literal and has the same JSON."""
    return outcome is not None and all(
        equal and value == json.dumps(expected, sort_keys=True)
        for (value, equal), (_, _, expected) in zip(outcome, cases, strict=True)
    )


def killed(outcome: Outcome, cases: list[Case]) -> bool:
    """Some call raised, or returned a value that is neither ``==`` the expected literal nor
    the same as JSON: a harness of either kind rejects the solution."""
    return outcome is None or any(
        not equal and value != json.dumps(expected, sort_keys=True)
        for (value, equal), (_, _, expected) in zip(outcome, cases, strict=True)
    )
