"""Which rows a limited run sends: the first N, or N spread evenly for serving workloads."""

from __future__ import annotations

from pathlib import Path

import pytest
from infer_helpers import eval_row, write_dataset, write_params
from pydantic import ValidationError

from stages.inference.plan import plan_workload, select_rows
from stages.params import WorkloadParams

ROWS = [{"id": f"r{i}"} for i in range(10)]


def _ids(rows: list[dict[str, str]]) -> list[str]:
    return [row["id"] for row in rows]


def test_eval_workloads_send_the_first_rows() -> None:
    assert _ids(select_rows(ROWS, 3, spread=False)) == ["r0", "r1", "r2"]


def test_perf_workloads_spread_the_limit_over_the_dataset() -> None:
    assert _ids(select_rows(ROWS, 3, spread=True)) == ["r0", "r3", "r6"]
    assert _ids(select_rows(ROWS, 4, spread=True)) == ["r0", "r2", "r5", "r7"]


def test_no_limit_or_a_large_one_sends_everything() -> None:
    assert select_rows(ROWS, None, spread=True) == ROWS
    assert select_rows(ROWS, 10, spread=False) == ROWS
    assert select_rows(ROWS, 50, spread=True) == ROWS


def test_workload_overrides_are_validated() -> None:
    spec = WorkloadParams(dataset="eval-math-v1", concurrency=1, timeout_s=900)
    assert (spec.concurrency, spec.timeout_s) == (1, 900)
    with pytest.raises(ValidationError, match="concurrency"):
        WorkloadParams(dataset="eval-math-v1", concurrency=0)


def _planned(project: Path, **workload: object) -> list[str]:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(10)])
    workloads = {"w": {"dataset": "eval-t-v1", **workload}}
    write_params(project, "http://127.0.0.1:9/v1", workloads=workloads)
    return [item.row_id for item in plan_workload("w").items]


def test_select_first_keeps_a_serving_workloads_consecutive_rows(project: Path) -> None:
    """A prompt-cache workload: consecutive rows share a prefix, so it sends the first ones."""
    assert _planned(project, limit=3, perf=True) == ["q-0000", "q-0003", "q-0006"]
    assert _planned(project, limit=3, perf=True, select="first") == ["q-0000", "q-0001", "q-0002"]


def test_select_spread_spaces_an_eval_workloads_rows(project: Path) -> None:
    assert _planned(project, limit=3) == ["q-0000", "q-0001", "q-0002"]
    assert _planned(project, limit=3, select="spread") == ["q-0000", "q-0003", "q-0006"]


def test_select_names_its_choices() -> None:
    with pytest.raises(ValidationError, match=r"select\n  Input should be 'first' or 'spread'"):
        WorkloadParams(dataset="eval-math-v1", select="last")
