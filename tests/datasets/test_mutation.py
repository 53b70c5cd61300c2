"""Test strength for code (issue 19): the reference passes, every mutant fails a hidden test, and
no hidden test is the prompt's example — run in the real sandbox; and the kill rate per task
(issue 30), computed exactly on a small fixture."""

from __future__ import annotations

from typing import Any

from stages.datasets.kill_rates import summary, task_lines
from stages.datasets.mutation import example_is_tested, mutation
from tests.datasets import planted


def test_a_mutant_that_survives_weak_tests_is_named() -> None:
    # No hidden matrix has an interior, so summing the whole matrix passes (code2-0053).
    found = mutation([planted.code_row("code-1", planted.WEAK)])
    assert (found.rows, found.source, found.mutants, found.killed) == (1, "probes", 3, 2)
    assert found.survivors == ["code-1 mutant 'sums the whole matrix'"]
    assert found.problems() == [
        "code-1 mutant 'sums the whole matrix': survives every hidden test",
        "code-1: kill rate 2/3 (66.7 %); every task needs 100 %",
    ]


def test_strong_tests_kill_every_mutant_and_pass_the_reference() -> None:
    found = mutation([planted.code_row("code-1", planted.STRONG)])
    assert (found.mutants, found.killed, found.score) == (3, 3, 1.0)
    assert found.problems() == []


def test_a_failing_reference_and_the_example_as_a_hidden_test_are_named() -> None:
    wrong = planted.code_row("code-1", ["assert border_sum([[1, 2], [3, 4]]) == 11"])
    assert example_is_tested(wrong) is False
    shown = planted.code_row("code-2", ["assert border_sum( [[1, 2], [3, 4]] ) == 10"])
    assert example_is_tested(shown) is True
    found = mutation([wrong, shown])
    assert found.references_failing == ["code-1"]
    assert found.example_tests == ["code-2"]


def test_older_rows_use_their_reference_and_wrong_solution() -> None:
    row = planted.code_row("code-1", planted.STRONG)
    del row["probes"]
    row["meta"].update(reference_solution=planted.REFERENCE,
                       wrong_solution=planted.MUTANTS[1]["code"])  # fmt: skip
    found = mutation([row])
    assert (found.source, found.mutants, found.killed) == ("meta", 1, 1)
    assert found.tasks == {} and "tasks" not in found.metrics()  # no per-task rate before -v3


def _declared(row: dict[str, Any], hand: int, generic: int) -> dict[str, Any]:
    """``row`` with an eval-code-v4 ``meta.mutation`` block: one equivalent mutant and two that
    time out listed apart, 2 + 1 hidden tests."""
    row["meta"]["mutation"] = {
        "tests": {"v3": 2, "seeded": 1, "added": 0}, "pool": 1000,
        "hand_written": hand, "generic": generic,
        "equivalent": [{"name": "generic 4, line 2: 1 for 0", "code": planted.REFERENCE}],
        "timeouts": ["generic 5", "generic 6"], "unstable": [],
    }  # fmt: skip
    return row


def test_kill_rate_per_task_is_exact_on_a_small_fixture() -> None:
    rows = [
        planted.code_row("code-1", planted.WEAK),
        planted.code_row("code-2", planted.STRONG),
        _declared(planted.code_row("code-3", planted.STRONG), hand=2, generic=1),
    ]
    found = mutation(rows)
    block = found.metrics()
    assert block["tasks"] == {
        "code-1": {"mutants": 3, "killed": 2, "kill_rate": 0.6667},
        "code-2": {"mutants": 3, "killed": 3, "kill_rate": 1.0},
        "code-3": {"mutants": 3, "killed": 3, "kill_rate": 1.0, "hand_written": 2, "generic": 1,
                   "equivalent": 1, "timeouts": 2, "tests": 3},
    }  # fmt: skip
    assert (block["min_kill_rate"], block["tasks_below_100"]) == (0.6667, ["code-1"])
    assert block["totals"] == {"hand_written": 2, "generic": 1, "equivalent": 1, "timeouts": 2,
                               "tests": 3}  # fmt: skip
    assert (found.mutants, found.killed) == (9, 8)
    assert "code-1: kill rate 2/3 (66.7 %); every task needs 100 %" in found.problems()
    assert summary("eval-x-v1", block) == (
        "eval-x-v1: kill rate 100 % in 2 of 3 tasks (lowest 66.7 %), 8/9 mutants killed "
        "(2 hand-written, 1 generic); 1 equivalent and 2 time-outs listed apart; 3-3 hidden "
        "tests a task; under 100 %: code-1"
    )
    assert task_lines(block)[2] == (
        "  code-3: 3/3 killed, 100.0 % (2 hand-written, 1 generic; 1 equivalent, 2 time-outs; "
        "3 hidden tests)"
    )


def test_declared_counts_must_match_the_mutants_in_probes() -> None:
    row = _declared(planted.code_row("code-1", planted.STRONG), hand=1, generic=1)
    assert mutation([row]).problems() == ["code-1: meta.mutation counts 2 mutants, probes hold 3"]
