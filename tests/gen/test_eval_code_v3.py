"""eval-code-v3: every row proves its hidden tests strong enough (issue 19).

In eval-code-v2 a plausible wrong solution passed every hidden test of five rows. Each defect is
replayed here with a wrong solution written in this file (not taken from the generator): it
passes the -v2 row and fails the -v3 row of the same family. And every -v3 row ships a reference
and at least three mutants: re-run here in one isolated interpreter, each reference passes and
each mutant fails at least one hidden test (mutation score 100 %), the example is never a test.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from stages.datasets.rows import EvalRow
from tests.gen._checks import (
    assert_regenerates_in_process,
    code_cases,
    committed_rows,
    load_generator,
)

ROWS = committed_rows("eval-code-v3")
V2 = {r["meta"]["family"]: r for r in committed_rows("eval-code-v2")}
BY_FAMILY = {r["meta"]["family"]: r for r in ROWS}
#: Runs each job's solutions on its calls; per solution the JSON of each value, or the error.
DRIVER = """
import json, sys
out = []
for job in json.load(sys.stdin):
    runs = []
    for solution in job["solutions"]:
        namespace = {"__name__": "solution"}
        exec(solution, namespace)
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
    """(solutions, calls) per job -> per solution, per call, the value as JSON (or the error)."""
    payload = [{"solutions": solutions, "calls": calls} for solutions, calls in jobs]
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", DRIVER],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return json.loads(proc.stdout)


def wanted(row: dict[str, Any]) -> list[str]:
    return [json.dumps(expected, sort_keys=True) for _, expected in code_cases(row)]


def test_same_families_and_balance_as_v2() -> None:
    assert len(ROWS) == len(BY_FAMILY) == len({r["answer"] for r in ROWS}) == 72
    assert set(BY_FAMILY) == set(V2)
    assert Counter(r["category"] for r in ROWS) == Counter(r["category"] for r in V2.values())
    assert Counter(r["difficulty"] for r in ROWS) == {"easy": 24, "medium": 24, "hard": 24}
    assert set(Counter((r["category"], r["difficulty"]) for r in ROWS).values()) == {3}
    assert [r["meta"]["family"] for r in ROWS] == [r["meta"]["family"] for r in V2.values()]
    assert len({r["category"] for r in ROWS[:8]}) == 8  # a quick-run prefix mixes them all


def test_rows_validate_with_their_probes() -> None:
    for row in ROWS:
        parsed = EvalRow.model_validate(row)
        assert parsed.probes is not None and parsed.probes.reference is not None, row["id"]
        names = [m.name for m in parsed.probes.mutants]
        assert len(names) >= 3 and len(set(names)) == len(names), row["id"]
        sources = [parsed.probes.reference, *(m.code for m in parsed.probes.mutants)]
        assert len(set(sources)) == len(sources), row["id"]
        assert all(f"def {row['answer']}(" in code for code in sources), row["id"]
        assert "reference_solution" not in row["meta"] and "wrong_solution" not in row["meta"]


def test_tests_are_literal_assertions_with_plain_json_values() -> None:
    for row in ROWS:
        assert row["scorer"] == "code_exec"
        found = code_cases(row)
        assert len(found) >= 4, row["id"]
        assert len({json.dumps(e, sort_keys=True) for _, e in found}) >= 2, row["id"]
        for call, expected in found:
            node = ast.parse(call, mode="eval").body
            assert isinstance(node, ast.Call) and not node.keywords
            for arg in node.args:
                ast.literal_eval(arg)
            assert json.loads(json.dumps(expected)) == expected, (row["id"], call)


def test_the_example_is_shown_but_never_tested_and_no_test_is_shown() -> None:
    for row in ROWS:
        example = row["meta"]["example"]
        assert f"For example, {example['call']} returns {example['expected']!r}." in row["prompt"]
        calls = [call for call, _ in code_cases(row)]
        assert example["call"] not in calls, row["id"]
        assert not any(call in row["prompt"] for call in calls), row["id"]


def test_references_pass_and_every_mutant_fails_a_hidden_test() -> None:
    jobs = []
    for row in ROWS:
        calls = [call for call, _ in code_cases(row)] + [row["meta"]["example"]["call"]]
        jobs.append(
            ([row["probes"]["reference"], *(m["code"] for m in row["probes"]["mutants"])], calls)
        )
    results = run(jobs)
    killed = total = 0
    for row, (reference, *mutants) in zip(ROWS, results, strict=True):
        want = wanted(row)
        assert reference == [*want, json.dumps(row["meta"]["example"]["expected"], sort_keys=True)]
        for mutant in mutants:
            total += 1
            killed += mutant[: len(want)] != want
    assert (killed, total) == (total, sum(len(r["probes"]["mutants"]) for r in ROWS))
    assert total >= 3 * len(ROWS)


BORDER_WHOLE = """
def border_sum(m):
    return sum(sum(row) for row in m)
"""
PRIMES_ODD_ONLY = """
def primes_mod(lo, hi):
    def is_prime(p):
        return p > 1 and all(p % d for d in range(2, int(p ** 0.5) + 1))
    return sum(1 for p in range(max(lo, 3) | 1, hi + 1, 2) if p % @M == @R and is_prime(p))
"""
NO_CYCLE_COLOURABLE = """
def two_colorable(n, edges):
    root = list(range(n))
    def find(x):
        while root[x] != x:
            x = root[x]
        return x
    for a, b in sorted({tuple(sorted(edge)) for edge in edges}):  # a repeat is one edge
        if find(a) == find(b):
            return False
        root[find(a)] = find(b)
    return True
"""
JULIAN_BEFORE_REFORM = """
import datetime
def weekday(date):
    day = datetime.date.fromisoformat(date)
    if date < "1582-10-15":  # the Julian date: its calendar runs behind by the skipped leap days
        day += datetime.timedelta(days=day.year // 100 - day.year // 400 - 2)
    name = day.strftime("%A")
    return @FORM
"""
ISALPHA_VIGENERE = """
def vigenere(s):
    key, out, i = "@KEY", [], 0
    for ch in s:
        if ch.isalpha():
            base = ord("a") if ch.islower() else ord("A")
            out.append(chr((ord(ch) - base + ord(key[i % len(key)]) - ord("a")) % 26 + base))
            i += 1
        else:
            out.append(ch)
    return "".join(out)
"""


def _border(row: dict[str, Any]) -> str:
    return BORDER_WHOLE


def _primes(row: dict[str, Any]) -> str:
    found = re.search(r"remainder (\d+) when divided by (\d+)", row["prompt"])
    assert found is not None
    return PRIMES_ODD_ONLY.replace("@R", found[1]).replace("@M", found[2])


def _colours(row: dict[str, Any]) -> str:
    return NO_CYCLE_COLOURABLE


def _weekday(row: dict[str, Any]) -> str:
    short = "abbreviation" in row["prompt"]
    return JULIAN_BEFORE_REFORM.replace("@FORM", "name[:3]" if short else "name")


def _vigenere(row: dict[str, Any]) -> str:
    found = re.search(r"the key '(\w+)'", row["prompt"])
    assert found is not None
    return ISALPHA_VIGENERE.replace("@KEY", found[1])


#: The five -v2 defects: (family, the -v2 row, the wrong solution for a row, its mutant's name
#: in the -v3 probes).
DEFECTS = [
    ("border_sum", "code2-0053", _border, "sums the whole matrix, not its border"),
    ("primes_mod", "code2-0019", _primes, "tries odd numbers only (skips the even prime 2)"),
    ("two_colorable", "code2-0062", _colours, "True exactly when there is no cycle"),
    ("weekday", "code2-0016", _weekday, "Julian calendar before the 1582 reform"),
    ("vigenere", "code2-0041", _vigenere, "shifts non-ASCII letters too (str.isalpha alone)"),
]


@pytest.mark.parametrize(("family", "v2_id", "wrong", "mutant"), DEFECTS)
def test_v2_defect_passes_v2_and_is_killed_in_v3(
    family: str, v2_id: str, wrong: Any, mutant: str
) -> None:
    old, new = V2[family], BY_FAMILY[family]
    assert old["id"] == v2_id and new["id"] == v2_id.replace("code2", "code3")
    (on_old,), (on_new,) = run([([wrong(r)], [c for c, _ in code_cases(r)]) for r in (old, new)])
    assert on_old == wanted(old)  # the defect: every -v2 hidden test passes
    assert on_new != wanted(new)  # -v3: a hidden test fails
    assert mutant in [m["name"] for m in new["probes"]["mutants"]]


def test_hand_checked_expectations() -> None:
    tests = {family: BY_FAMILY[family]["tests"].splitlines() for family in BY_FAMILY}
    # the border of 1..9 with 100 in the middle: 45 - 5 (the usual centre) = 40
    assert "assert border_sum([[1, 2, 3], [4, 100, 6], [7, 8, 9]]) == 40" in tests["border_sum"]
    # primes p <= 60 with p % 5 == 2: 2, 7, 17, 37, 47
    assert "assert primes_mod(2, 60) == 5" in tests["primes_mod"]
    # an even cycle can be coloured, a five-cycle cannot; a repeated edge changes nothing
    assert (
        "assert two_colorable(4, [[0, 1], [1, 2], [2, 3], [3, 0]]) == True"
        in tests["two_colorable"]
    )
    assert (
        "assert two_colorable(5, [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0]]) == False"
        in tests["two_colorable"]
    )
    assert "assert two_colorable(2, [[0, 1], [1, 0]]) == True" in tests["two_colorable"]
    # Columbus landed on Friday 12 October 1492 (Julian); Gregorian 12 October 1492 is nine
    # days before that date, a Wednesday
    assert "assert weekday('1492-10-12') == 'Wednesday'" in tests["weekday"]
    # key 'lemon': C+l=N, a+e=e, f+m=r, é kept and no key letter used, N+o=B, o+n=b, l+l=w
    assert "assert vigenere('Café Noël, señor!') == 'Neré Bbëw, wqñce!'" in tests["vigenere"]
    # lo above hi counts nothing (eval-code-v2's reference returned -4 here)
    assert "assert count_multiples(10, 2) == 0" in tests["count_multiples"]


def test_regenerates_byte_identically_in_process() -> None:
    assert_regenerates_in_process(load_generator("eval-code-v3"), "eval-code-v3")
