"""Test strength for code (issue 19): the reference passes, every mutant fails a hidden test, and
no hidden test is the prompt's example — run in the real sandbox."""

from __future__ import annotations

from stages.datasets.mutation import example_is_tested, mutation
from tests.datasets import planted


def test_a_mutant_that_survives_weak_tests_is_named() -> None:
    # No hidden matrix has an interior, so summing the whole matrix passes (code2-0053).
    found = mutation([planted.code_row("code-1", planted.WEAK)])
    assert (found.rows, found.source, found.mutants, found.killed) == (1, "probes", 3, 2)
    assert found.survivors == ["code-1 mutant 'sums the whole matrix'"]
    assert found.problems() == ["code-1 mutant 'sums the whole matrix': survives every hidden test"]


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
