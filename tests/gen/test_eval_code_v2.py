"""eval-code-v2: the shortcuts of eval-code-v1 are gone (issue 13) and every answer is executed.

v1 repeated 24 tasks five times and showed one hidden test as each prompt's example. Here every
row is its own task family, the example is never a hidden test, the tests are literal-only
assertions whose expected values are plain JSON, and, re-run here in one isolated interpreter,
every reference passes while every plausible wrong solution fails.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from tests.gen._checks import code_cases

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "datasets" / "eval-code-v2"
ROWS = [json.loads(line) for line in (DATA / "rows.jsonl").read_text("utf-8").splitlines()]
BY_FAMILY = {r["meta"]["family"]: r for r in ROWS}
#: Runs every row's reference and wrong solution on its test calls and on its example call.
DRIVER = """
import json, sys
out = {}
for row in json.load(sys.stdin):
    result = {}
    for key in ("reference_solution", "wrong_solution"):
        namespace = {"__name__": "solution"}
        exec(row["meta"][key], namespace)
        values = []
        for call in row["calls"]:
            try:
                values.append(json.dumps(eval(call, namespace), sort_keys=True))
            except Exception as exc:
                values.append("raised " + type(exc).__name__)
        result[key] = values
    out[row["id"]] = result
print(json.dumps(out))
"""


def plain_json(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain_json(v) for v in value)
    return value is None or isinstance(value, bool | int | float | str)


def test_sixty_plus_distinct_families_in_a_balanced_mix() -> None:
    assert len(ROWS) == len(BY_FAMILY) == len({r["answer"] for r in ROWS}) == 72
    categories = Counter(r["category"] for r in ROWS)
    assert categories == {
        c: 9
        for c in (
            "strings",
            "lists",
            "number_theory",
            "parsing",
            "grids",
            "graphs",
            "records",
            "formats",
        )
    }
    assert Counter(r["difficulty"] for r in ROWS) == {"easy": 24, "medium": 24, "hard": 24}
    assert set(Counter((r["category"], r["difficulty"]) for r in ROWS).values()) == {3}
    # any quick-run prefix mixes categories: the first eight rows are one per category
    assert len({r["category"] for r in ROWS[:8]}) == 8
    normalised = {" ".join(re.findall(r"\w+", r["prompt"].casefold())) for r in ROWS}
    assert len(normalised) == 72


def test_tests_are_literal_assertions_with_plain_json_values() -> None:
    for row in ROWS:
        assert row["scorer"] == "code_exec"
        found = code_cases(row)
        assert len(found) >= 3, row["id"]
        for call, expected in found:
            node = ast.parse(call, mode="eval").body
            assert isinstance(node, ast.Call) and not node.keywords
            for arg in node.args:
                ast.literal_eval(arg)
            assert plain_json(expected), (row["id"], call)
            assert json.loads(json.dumps(expected)) == expected


def test_the_example_is_shown_but_never_tested_and_no_test_is_shown() -> None:
    for row in ROWS:
        example = row["meta"]["example"]
        assert f"For example, {example['call']} returns {example['expected']!r}." in row["prompt"]
        calls = [call for call, _ in code_cases(row)]
        assert example["call"] not in calls, row["id"]
        assert not any(call in row["prompt"] for call in calls), row["id"]
        assert f"    {row['meta']['signature']}\n" in row["prompt"]


def test_no_constant_function_passes() -> None:
    for row in ROWS:
        outputs = {json.dumps(expected, sort_keys=True) for _, expected in code_cases(row)}
        assert len(outputs) >= 2, row["id"]


def test_references_pass_wrong_solutions_fail_and_examples_hold() -> None:
    payload = [
        {**row, "calls": [call for call, _ in code_cases(row)] + [row["meta"]["example"]["call"]]}
        for row in ROWS
    ]
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", DRIVER],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    results = json.loads(proc.stdout)
    assert len(results) == 72
    for row in ROWS:
        want = [expected for _, expected in code_cases(row)] + [row["meta"]["example"]["expected"]]
        want_json = [json.dumps(value, sort_keys=True) for value in want]
        got = results[row["id"]]
        assert got["reference_solution"] == want_json, row["id"]
        hidden = len(want) - 1
        assert got["wrong_solution"][:hidden] != want_json[:hidden], row["id"]


def test_hand_checked_expectations() -> None:
    # 12[ab]c decodes to "ab" twelve times then "c" (multi-digit counts).
    row = BY_FAMILY["decode_nested"]
    brackets = re.search(r"decode_nested\('12(.)ab(.)c'\) == '(\w+)'", row["tests"])
    assert brackets is not None and brackets[1] + brackets[2] in ("[]", "()", "{}")
    assert brackets[3] == "abababababababababababab" + "c"
    # ISBN-10 0-306-40615-2, weights 10..1: check symbol '2'; ISBN-13 978-3-16-148410-0.
    row = BY_FAMILY["isbn_check"]
    assert (
        "assert isbn10_check('030640615') == '2'" in row["tests"]
        or "assert isbn13_check('978316148410') == '0'" in row["tests"]
    )
    # Luhn: 79927398713 is the textbook valid number; changing its last digit breaks it.
    row = BY_FAMILY["luhn"]
    if row["answer"] == "luhn_valid":
        assert "assert luhn_valid('79927398713') == True" in row["tests"]
        assert "assert luhn_valid('79927398710') == False" in row["tests"]
    # 1900 was not a leap year: 1 March 1900 is day 60 (and 305 days of 1900 follow it).
    row = BY_FAMILY["day_count"]
    assert (
        "assert day_of_year('1900-03-01') == 60" in row["tests"]
        or "assert days_left('1900-03-01') == 305" in row["tests"]
    )
    # ana sends her whole 5 to ben; ben cannot send 7; cai, created at 0, cannot send 1.
    row = BY_FAMILY["transfers"]
    fixed = "{'ana': 5, 'ben': 0}, [['ana', 'ben', 5], ['ben', 'cai', 7], ['cai', 'ana', 1]]"
    skip = "{'ana': 0, 'ben': 5, 'cai': 0}"
    part = "{'ana': 1, 'ben': 0, 'cai': 4}"  # ben sends his 5, cai sends 1 of them back
    partial = "only what the sender has is moved" in row["prompt"]
    assert f"assert transfers({fixed}) == {part if partial else skip}" in row["tests"]
