"""The ``exhausted`` row of ``compare_records`` (issue 33): running out while thinking paired
across revisions with the accuracy row's own machinery, a rise read as the loss, no row where
nothing ran out, failed pairs left out, bad flags refused, and the gate's ``no_worse`` on it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from compare_helpers import commit, write_dataset

from stages.cli import main
from stages.compare import compare_records
from stages.compare.row import BETTER, SAME, WORSE, Row
from stages.errors import AtlasError


def records(n: int, ran_out: set[int], failed: set[int] = frozenset()) -> list[dict[str, Any]]:
    """n items of workload w, right unless they ran out (or failed)."""
    return [
        {"workload": "w", "id": f"i{i:02d}", "correct": i not in ran_out | failed,
         "exhausted": i in ran_out, "failed": "timeout" if i in failed else None}
        for i in range(n)
    ]  # fmt: skip


def rows_by_measure(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, Row]:
    return {r.measure: r for r in compare_records(a, b) if r.category is None}


def test_b_running_out_more_often_is_b_worse() -> None:
    rows = rows_by_measure(records(30, set()), records(30, set(range(12))))
    row, accuracy = rows["exhausted"], rows["accuracy"]
    assert (row.n, row.a, row.b, row.delta) == (30, 0.0, 0.4, 0.4)
    assert row.test == "mcnemar-exact" and row.p == pytest.approx(2 * 0.5**12, abs=1e-15)
    assert row.p_adjusted == pytest.approx(4 * 0.5**12, abs=1e-15)  # Holm: 2 rows, equal p
    assert row.wrong_to_right == [f"i{i:02d}" for i in range(12)] and row.right_to_wrong == []
    assert (row.verdict, accuracy.verdict) == (WORSE, WORSE)
    # The same pairs as an accuracy row mirrored: the same test, the interval turned round.
    assert row.ci95 is not None and accuracy.ci95 is not None
    assert row.ci95 == pytest.approx((-accuracy.ci95[1], -accuracy.ci95[0]), abs=1e-12)
    assert row.ci95[0] > 0


def test_b_running_out_less_often_is_b_better() -> None:
    row = rows_by_measure(records(30, set(range(12))), records(30, set()))["exhausted"]
    assert (row.delta, row.verdict) == (-0.4, BETTER)
    assert row.right_to_wrong == [f"i{i:02d}" for i in range(12)]


def test_no_row_where_nothing_ran_out_and_failures_are_left_out() -> None:
    assert "exhausted" not in rows_by_measure(records(12, set()), records(12, set()))
    rows = rows_by_measure(records(12, set(), failed={0, 1}), records(12, {5}, failed={2}))
    row = rows["exhausted"]
    assert (row.n, row.failed_a, row.failed_b, row.b, row.verdict) == (9, 0, 0, 1 / 9, SAME)
    assert (rows["accuracy"].n, rows["accuracy"].failed_a) == (12, 2)
    # Old verdict lines have no field: they read as "did not run out".
    old = [{k: v for k, v in r.items() if k != "exhausted"} for r in records(12, set())]
    assert rows_by_measure(old, records(12, {3}))["exhausted"].b == 1 / 12


def test_a_flag_that_is_not_a_boolean_is_refused() -> None:
    bad = [{**records(1, set())[0], "exhausted": "yes"}]
    with pytest.raises(AtlasError, match=r"b\[0\]: exhausted: expected true, false or null"):
        compare_records(records(1, set()), bad)


def _lines(path: Path, ran_out: set[int]) -> None:
    """The verdict lines ``atlas score`` writes for 30 items, those in ``ran_out`` exhausted."""
    lines = []
    for i in range(30):
        line: dict[str, Any] = {"id": f"i{i:02d}", "repeat": 0, "cluster": f"i{i:02d}",
                                "correct": i not in ran_out, "flexible": None, "failed": None,
                                "extracted": "2"}  # fmt: skip
        if i in ran_out:
            line["exhausted"] = True
        lines.append(json.dumps(line) + "\n")
    path.write_text("".join(lines))


def test_the_gate_fails_a_revision_that_runs_out_more_often(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [{"id": f"i{i:02d}", "prompt": "q", "answer": "2", "scorer": "exact"} for i in range(30)]
    sha = write_dataset(repo, "eval-w-v1", rows)
    signature = json.dumps({"signature": {"dataset": {"id": "eval-w-v1", "sha256": sha}}})
    (repo / "metrics" / "verdicts").mkdir(parents=True)
    (repo / "metrics" / "w.json").write_text(signature)
    _lines(repo / "metrics" / "verdicts" / "w.jsonl", set())
    commit(repo, "A")
    _lines(repo / "metrics" / "verdicts" / "w.jsonl", set(range(12)))
    commit(repo, "B")
    Path("policy.yaml").write_text("rules:\n  - check: no_worse\n    measure: exhausted\n")
    assert main(["gate", "policy.yaml", "HEAD~1", "HEAD"]) == 1
    assert capsys.readouterr().out.splitlines()[0] == (
        "FAIL          all workloads: not worse — w B worse: Δ +40.0 (95% CI +24.1..+57.7), "
        "p adj <.001"
    )
    assert main(["gate", "policy.yaml", "HEAD", "HEAD~1"]) == 0  # B runs out less often
    assert capsys.readouterr().out.startswith("PASS          all workloads: not worse — w not ")
    Path("policy.yaml").write_text(
        "rules:\n  - check: non_inferior\n    measure: exhausted\n    margin: 2\n"
    )
    assert main(["gate", "policy.yaml", "HEAD~1", "HEAD"]) == 2
    assert "measure exhausted (a rise is the loss) is judged by no_worse only" in (
        capsys.readouterr().err
    )
