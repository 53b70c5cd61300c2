"""Issue 34: the promises of ``atlas compare`` on designs the issue-18 simulation did not use,
proved by a fixed-seed Monte Carlo simulation (``unequal.py``, ``unequal_stats.py``) in two
model families (copy and latent-normal):

* heavy-tailed cluster sizes (drawn from {1, 2, 3, 5, 8, 20, 40}) at 20 and 60 clusters,
  accuracy 0.1, 0.5 and 0.9, true differences 0, 5 and 10 points: the paired interval covers in
  >= 93.5 % of tables, a row calls a difference that is not there in <= 5 %, A's headline
  interval covers in >= 93 %; 20 such clusters (about 8 effective) get no test at all;
* graded scores, mostly 0 or 1 (F1-like), sparse on 12 and 30 independent items (B changes
  15 % of them), and in clusters (4 a cluster, or heavy-tailed; B changes 30 % of them, or 15 %
  at 60 and 100 heavy-tailed clusters, where a few large clusters carry the whole difference:
  91.3 % coverage before the exchangeable floor), with and without a 5-point effect: coverage
  >= 93.5 %, type-I error <= 5 %;
* null tables of 10 workloads in heavy-tailed clusters (binary with 3 categories each, or
  graded): some row calls a difference in <= 5 % of them.

2,000 tables a cell (1,000 for the tables of workloads); each figure may miss its bound by two
Monte Carlo standard errors (at 95 %: 0.5 points, so coverage >= 92.5 % and type-I error <=
6.0 % pass; the measured figures are in docs/comparing.md). ``make bench`` runs a larger grid
(``tests/bench/bench_unequal_clusters.py``). Runtime: 20-80 s on two shared cores.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import unequal as u
import unequal_stats as us

from stages.compare import compare_records
from stages.scoring import accuracy_estimate

REPLICATES = 2000
TABLES = 1000
FAMILIES = ("copy", "latent")


def _mc(share: float, replicates: int) -> float:
    return 2 * math.sqrt(share * (1 - share) / replicates)


def _check(figures: dict[object, float], low: float, high: float, replicates: int) -> None:
    bad = {}
    for key, value in figures.items():
        allowance = _mc(min(max(value, low), high), replicates)
        if math.isnan(value) or not low - allowance <= value <= high + allowance:
            bad[key] = value
    assert not bad, f"outside [{low}, {high}] by more than 2 Monte Carlo errors: {bad}"


def _effects(p: float) -> tuple[float, ...]:
    sign = 1.0 if p <= 0.5 else -1.0
    return (0.0, 0.05 * sign, 0.1 * sign)


def test_heavy_tailed_clusters_keep_coverage_error_and_the_headline() -> None:
    cover, error, head = {}, {}, {}
    for family in FAMILIES:
        for p in (0.1, 0.5, 0.9):
            for delta in _effects(p):
                few = us.figures(u.Cell(family, "heavy", 20, p), delta, REPLICATES)
                # about 8 effective clusters: no test, no interval, never a verdict
                assert math.isnan(few["coverage"]) and few["called"] == 0.0
                head[(family, 20, p, delta)] = few["headline"]
                cell = u.Cell(family, "heavy", 60, p)
                measured = us.figures(cell, delta, REPLICATES)
                cover[(family, 60, p, delta)] = measured["coverage"]
                head[(family, 60, p, delta)] = measured["headline"]
                if delta == 0:
                    error[(family, 60, p)] = measured["called"]
    _check(cover, 0.935, 1.0, REPLICATES)
    _check(error, 0.0, 0.05, REPLICATES)
    _check(head, 0.93, 1.0, REPLICATES)


#: (sizes, clusters, share of items B changes). In the sparse heavy-tailed cells a few large
#: clusters carry all of the difference (issue 34's remaining limit, closed by the exchangeable
#: floor of :mod:`stages.compare.cluster_variance`).
GRADED = [("independent", 12, 0.15), ("independent", 30, 0.15), ("equal4", 20, 0.3),
          ("heavy", 60, 0.3), ("heavy", 60, 0.15), ("heavy", 100, 0.15)]  # fmt: skip


def test_graded_rows_keep_coverage_and_error() -> None:
    cover, error = {}, {}
    for family in FAMILIES:
        for sizes, groups, changed in GRADED:
            for delta in (0.0, 0.05):
                cell = u.Cell(family, sizes, groups, changed=changed)
                measured = us.figures(cell, delta, REPLICATES, True)
                cover[(family, sizes, groups, changed, delta)] = measured["coverage"]
                if delta == 0:
                    error[(family, sizes, groups, changed)] = measured["called"]
    _check(cover, 0.935, 1.0, REPLICATES)
    _check(error, 0.0, 0.05, REPLICATES)


def test_tables_in_heavy_tailed_clusters_keep_the_family_wise_error() -> None:
    figures = {}
    for family in FAMILIES:
        cell = u.Cell(family, "heavy", 60)
        figures[(family, "binary with categories")] = us.fwer(cell, 10, TABLES)
        figures[(family, "graded")] = us.fwer(cell, 10, TABLES, graded=True)
    _check(figures, 0.0, 0.05, TABLES)
    assert max(figures.values()) > 0.005  # the tables are not so small that nothing is said


def _records(a: np.ndarray, b: np.ndarray, keep: np.ndarray, graded: bool) -> tuple[list, list]:
    side_a, side_b = [], []
    for g, t in zip(*np.nonzero(keep), strict=True):
        common = {"workload": "w", "id": f"q{g}-{t}", "cluster": f"c{g}"}
        if graded:
            side_a.append({**common, "score": float(a[g, t]), "measure": "f1"})
            side_b.append({**common, "score": float(b[g, t]), "measure": "f1"})
        else:
            side_a.append({**common, "correct": bool(a[g, t])})
            side_b.append({**common, "correct": bool(b[g, t])})
    return side_a, side_b


@pytest.mark.parametrize(
    ("family", "sizes", "groups", "graded"),
    [("copy", "heavy", 60, False), ("latent", "heavy", 60, False), ("copy", "heavy", 60, True),
     ("latent", "independent", 12, True), ("copy", "equal4", 20, True)],
)  # fmt: skip
def test_the_simulation_computes_what_compare_records_prints(
    family: str, sizes: str, groups: int, graded: bool
) -> None:
    cell = u.Cell(family, sizes, groups, 0.3)
    vector = cell.size_vectors()[0]
    keep = u.mask(vector)
    rng = np.random.default_rng(11)
    shape, m = (6, len(vector)), keep.shape[1]
    if graded:
        a, b = u.graded_scores(cell, rng, shape, m, 0.05)
        row = us.graded_row(a, b, keep)
    else:
        codes = u.binary_codes(cell, rng, shape, m, 0.1)
        a, b = codes >= 2, (codes == 1) | (codes == 3)
        row = us.binary_row(codes, keep)
    for r in range(shape[0]):
        side_a, side_b = _records(a[r], b[r], keep, graded)
        (printed,) = compare_records(side_a, side_b)
        if not row.testable:
            assert printed.p is None
            continue
        assert printed.p == pytest.approx(row.p[r], rel=1e-9)
        assert printed.ci95 == pytest.approx((row.low[r], row.high[r]), rel=1e-9, abs=1e-12)
        if not graded:
            estimate = accuracy_estimate(side_a)
            assert row.head_low is not None and row.head_high is not None
            assert (estimate.low, estimate.high) == pytest.approx(
                (row.head_low[r], row.head_high[r]), rel=1e-9
            )
