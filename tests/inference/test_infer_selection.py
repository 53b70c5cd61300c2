"""Which rows a limited run sends: the first N, or N spread evenly for serving workloads."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from stages.inference.plan import select_rows
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
