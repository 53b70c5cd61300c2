"""eval-code-v4: hidden tests from a seeded input generator per task, and generic mutants of every
reference killed by them (issue 30).

In eval-code-v3 three wrong programs a reader wrote passed every hidden test: a varint decoder
that keeps only the first two 7-bit groups (code3-0072), a Roman numeral reader without the
"cd" pair (code3-0052) and a duration parser that reads the first part of each unit only
(code3-0028). Each is written here as a real program and scored by the row's own scorer (the
sandbox): it passes the -v3 row and fails the -v4 row of the same task. The answers are checked
a third way (an encoder, a numeral table and a parser written here), every reference passes and
every mutant in ``probes`` fails a test when re-run here apart from the generator.
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

import pytest

from stages.datasets.rows import EvalRow
from stages.scoring.code_exec import score
from tests.gen._checks import code_cases, committed_rows

ROWS = committed_rows("eval-code-v4")
V3 = committed_rows("eval-code-v3")
BY_ID = {r["id"]: r for r in ROWS + V3}
#: Runs each job's programs on its calls; per program the JSON of each value, or the error. The
#: sandbox's memory limit holds here too: a mutant that grows a list without end must raise.
DRIVER = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (512 * 1024 * 1024, 512 * 1024 * 1024))
out = []
for job in json.load(sys.stdin):
    runs = []
    for program in job["programs"]:
        namespace = {"__name__": "solution"}
        exec(program, namespace)
        values = []
        for call in job["calls"]:
            try:
                values.append(json.dumps(eval(call, namespace), sort_keys=True))
            except Exception as exc:
                values.append("raised " + type(exc).__name__)
        runs.append(values)
    out.append(runs)
print(json.dumps(out))
"""


def run(jobs: list[tuple[list[str], list[str]]]) -> list[list[list[str]]]:
    """(programs, calls) per job -> per program, per call, the value as JSON (or the error)."""
    payload = [{"programs": programs, "calls": calls} for programs, calls in jobs]
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", DRIVER],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    return list(json.loads(proc.stdout))


def wanted(row: dict[str, Any]) -> list[str]:
    return [json.dumps(expected, sort_keys=True) for _, expected in code_cases(row)]


def passes(row: dict[str, Any], program: str) -> bool:
    """The row's own scorer (the sandbox) on ``program`` sent as a reply."""
    reply = {"output": f"```python\n{program}\n```", "error": None}
    return bool(score(row, reply, Path(".")).correct)


VARINTS_TWO_GROUPS = """
def decode_varints(data):
    out, value, shift = [], 0, 0
    for byte in data:
        if shift < 14:  # keeps the first two 7-bit groups of a number only
            value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            out.append((value >> 1) ^ -(value & 1))
            value, shift = 0, 0
    return out
"""
ROMAN_WITHOUT_CD = """
def roman_to_int(s):
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
    pairs = {"iv": 4, "ix": 9, "xl": 40, "xc": 90, "cm": 900}  # no "cd"
    total, i = 0, 0
    while i < len(s):
        if s[i : i + 2] in pairs:
            total, i = total + pairs[s[i : i + 2]], i + 2
        else:
            total, i = total + values[s[i]], i + 1
    return total
"""
DURATION_FIRST_PARTS = """
import re

def parse_duration(s):
    total = 0
    for unit, minutes in (("h", 60), ("m", 1)):
        found = re.search(r"(\\d+)" + unit, s)  # the first part of each unit only
        if found:
            total += int(found[1]) * minutes
    return total
"""


def _three_groups(call: str) -> bool:
    """A varint of three or more bytes: two bytes with the top bit set in a row."""
    data = ast.literal_eval(call[len("decode_varints(") : -1])
    return any(a >= 0x80 and b >= 0x80 for a, b in zip(data, data[1:], strict=False))


#: The three wrong programs of issue 30: (-v3 row, -v4 row, program, what each failing -v4 test
#: has that no -v3 test had).
DEFECTS = [
    ("code3-0072", "code4-0072", VARINTS_TWO_GROUPS, _three_groups),
    ("code3-0052", "code4-0052", ROMAN_WITHOUT_CD, lambda call: "cd" in call),
    (
        "code3-0028",
        "code4-0028",
        DURATION_FIRST_PARTS,
        lambda call: any(n > 1 for n in Counter(re.findall(r"[hm]", call)).values()),
    ),
]


@pytest.mark.parametrize(("v3_id", "v4_id", "program", "feature"), DEFECTS)
def test_wrong_program_passes_v3_and_fails_v4(
    v3_id: str, v4_id: str, program: str, feature: Any
) -> None:
    old, new = BY_ID[v3_id], BY_ID[v4_id]
    assert old["meta"]["family"] == new["meta"]["family"]
    assert passes(old, program)  # the defect: every -v3 hidden test holds
    assert not passes(new, program)  # -v4: a hidden test fails
    assert passes(new, new["probes"]["reference"])
    (on_new,) = run([([program], [c for c, _ in code_cases(new)])])[0]
    failing = [c for (c, _), got, want in zip(code_cases(new), on_new, wanted(new), strict=True)
               if got != want]  # fmt: skip
    assert failing and all(feature(call) for call in failing)
    assert not any(feature(call) for call, _ in code_cases(old))


def test_same_tasks_and_prompts_as_v3() -> None:
    assert len(ROWS) == 72 and [r["meta"]["family"] for r in ROWS] == [
        r["meta"]["family"] for r in V3
    ]
    for new, old in zip(ROWS, V3, strict=True):
        assert (new["category"], new["difficulty"], new["answer"]) == (
            old["category"], old["difficulty"], old["answer"]
        )  # fmt: skip
        assert new["meta"]["example"] == old["meta"]["example"]
        assert new["probes"]["reference"] == old["probes"]["reference"]
        if new["meta"]["family"] != "parse_duration":
            assert new["prompt"] == old["prompt"], new["id"]
    # the only new sentence: a unit may repeat, as the new tests make it
    duration = BY_ID["code4-0028"]["prompt"]
    assert "a unit letter may occur in several parts, and every part counts" in duration


def test_rows_validate_and_keep_v3s_mutants_and_tests() -> None:
    for new, old in zip(ROWS, V3, strict=True):
        parsed = EvalRow.model_validate(new)
        assert parsed.probes is not None
        counts = new["meta"]["mutation"]
        hand = [m["name"] for m in old["probes"]["mutants"]]
        names = [m.name for m in parsed.probes.mutants]
        assert names[: len(hand)] == hand and counts["hand_written"] == len(hand)
        assert all(n.startswith("generic ") for n in names[len(hand) :]), new["id"]
        assert len(names) == len(set(names)) == counts["hand_written"] + counts["generic"]
        tests = dict(code_cases(new))
        assert all(tests.get(call) == value for call, value in code_cases(old)), new["id"]
        assert counts["tests"]["seeded"] >= 50 and counts["pool"] >= 1000, new["id"]
        assert len(tests) == len(code_cases(new)) == sum(counts["tests"].values())


def test_tests_are_literal_and_never_the_example() -> None:
    for row in ROWS:
        example = row["meta"]["example"]
        calls = [call for call, _ in code_cases(row)]
        assert example["call"] not in calls and not any(c in row["prompt"] for c in calls)
        for call, expected in code_cases(row):
            node = ast.parse(call, mode="eval").body
            assert isinstance(node, ast.Call) and not node.keywords
            for arg in node.args:
                ast.literal_eval(arg)
            assert json.loads(json.dumps(expected)) == expected, (row["id"], call)


def _zigzag_bytes(n: int) -> list[int]:
    """The test's own encoder: zigzag code, then 7 bits a byte, low group first."""
    code = n * 2 if n >= 0 else -n * 2 - 1
    out = []
    while code >= 0x80:
        out.append(code % 128 + 128)
        code //= 128
    return [*out, code]


def _roman_table() -> dict[str, int]:
    """Every numeral 1..3999 by greedy subtraction of the 13 symbols."""
    values = (1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1)
    names = ("m", "cm", "d", "cd", "c", "xc", "l", "xl", "x", "ix", "v", "iv", "i")
    symbols = list(zip(values, names, strict=True))
    table = {}
    for n in range(1, 4000):
        left, text = n, ""
        for value, symbol in symbols:
            while left >= value:
                left, text = left - value, text + symbol
        table[text] = n
    return table


def test_answers_a_third_way() -> None:
    varints = BY_ID["code4-0072"]
    for call, expected in code_cases(varints):
        data = ast.literal_eval(call[len("decode_varints(") : -1])
        assert [b for n in expected for b in _zigzag_bytes(n)] == data, call
    table = _roman_table()
    for call, expected in code_cases(BY_ID["code4-0052"]):
        assert table[ast.literal_eval(call[len("roman_to_int(") : -1])] == expected, call
    for call, expected in code_cases(BY_ID["code4-0028"]):
        parts = re.findall(r"(\d+)([hm])", ast.literal_eval(call[len("parse_duration(") : -1]))
        assert sum(int(n) * (60 if u == "h" else 1) for n, u in parts) == expected, call
    tests = {r["meta"]["family"]: r["tests"].splitlines() for r in ROWS}
    # 16384 = 2 * 8192 takes three groups: 0 and 0 with the top bit set, then 1
    assert "assert decode_varints([128, 128, 1]) == [8192]" in tests["varints"]
    assert "assert roman_to_int('mcdxliv') == 1444" in tests["roman_to_int"]  # M CD XL IV
    assert "assert parse_duration('1h2h') == 180" in tests["parse_duration"]  # 3 hours


def test_references_pass_and_every_mutant_fails_a_test() -> None:
    jobs = []
    for row in ROWS:
        equivalent = [m["code"] for m in row["meta"]["mutation"]["equivalent"]]
        programs = [row["probes"]["reference"], *(m["code"] for m in row["probes"]["mutants"])]
        jobs.append(([*programs, *equivalent], [c for c, _ in code_cases(row)]))
    killed = total = 0
    for row, (reference, *others) in zip(ROWS, run(jobs), strict=True):
        want = wanted(row)
        assert reference == want, row["id"]
        mutants = len(row["probes"]["mutants"])
        assert all(values != want for values in others[:mutants]), row["id"]
        assert all(values == want for values in others[mutants:]), row["id"]  # equivalent
        killed += sum(values != want for values in others[:mutants])
        total += mutants
    assert (killed, total) == (1858, 1858)


def test_figures() -> None:
    counts = [r["meta"]["mutation"] for r in ROWS]
    assert sum(c["hand_written"] for c in counts) == 310
    assert sum(c["generic"] for c in counts) == 1548
    assert sum(len(c["equivalent"]) for c in counts) == 66
    assert sum(len(c["timeouts"]) for c in counts) == 59
    assert sum(len(c["unstable"]) for c in counts) == 0
    assert sum(c["tests"]["added"] for c in counts) == 2
    assert min(sum(c["tests"].values()) for c in counts) == 54
