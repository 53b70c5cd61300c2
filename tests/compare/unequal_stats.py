"""Issue 34: the project's statistics applied to the simulated records of ``unequal.py``,
vectorised over replicates exactly as ``compare_records`` and ``accuracy_interval`` compute them
(``test_simulation_unequal.py`` checks the two agree record by record), and the Monte Carlo
figures of a cell: coverage, the share of tables calling a difference, the headline's coverage,
the family-wise error of null tables.

``before=True`` judges the same draws as the code before issue 34 did (commit bb82816): CR1 with
t(G - 1), the 20-cluster floor on clusters, the headline's worst case at G, and graded rows a
Wald t on CR1 — for the before/after figures of ``make bench`` (checked record by record against
that commit's ``compare_records`` and ``accuracy_estimate`` when it was written).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import simulation as sim
from numpy.typing import NDArray
from scipy import stats as sps
from unequal import Cell, binary_codes, graded_scores, mask

from stages.compare import paired
from stages.compare.cluster_variance import cr2_variance, effective_clusters, small_sample_df
from stages.compare.exchangeable import exchangeable_variance, unequal
from stages.compare.row import MIN_CLUSTERS
from stages.scoring import interval

Array = NDArray[np.float64]


@dataclass(frozen=True)
class Row:
    """One row's statistics per replicate: the test, the interval and what A's headline says."""

    p: Array
    low: Array
    high: Array
    testable: bool
    head_low: Array | None = None
    head_high: Array | None = None


def _cluster_se(
    values: Array, keep: NDArray[np.bool_], sizes: Array, before: bool = False
) -> tuple[Array, Array, Array]:
    """(mean, CR2 se, small-sample df) per replicate of ``values`` (..., G, m) over the kept
    records; ``before``: (mean, CR1 se, G - 1)."""
    n = float(sizes.sum())
    sums = np.where(keep, values, 0.0).sum(-1)
    mean = sums.sum(-1) / n
    used = sizes > 0
    deviations = (sums - mean[..., None] * sizes)[..., used]
    if before:
        groups = int(used.sum())
        cr1 = groups / (groups - 1) * (deviations**2).sum(-1) / (n * n)
        return mean, np.sqrt(cr1), np.full(mean.shape, groups - 1.0)
    df = small_sample_df(deviations, sizes[used])
    return mean, np.sqrt(cr2_variance(deviations, sizes[used])), df


def _design(keep: NDArray[np.bool_]) -> tuple[Array, int, int, float]:
    sizes = keep.sum(-1).astype(float)
    used = sizes[sizes > 0]
    groups, n = len(used), int(used.sum())
    return sizes, groups, n, effective_clusters(used)


def binary_row(codes: NDArray[np.int8], keep: NDArray[np.bool_], before: bool = False) -> Row:
    """What ``compare_records`` says of the binary row over the kept records (and A's headline)."""
    sizes, groups, n, effective = _design(keep)
    effective = groups if before else effective
    up = (codes == 1).astype(float)
    down = (codes == 2).astype(float)
    right = (codes >= 2).astype(float)
    _, se, df = _cluster_se(up - down, keep, sizes, before)
    share, se_a, df_a = _cluster_se(right, keep, sizes, before)
    n_up, n_down = np.where(keep, up, 0).sum((-2, -1)), np.where(keep, down, 0).sum((-2, -1))
    variance = (n_up + n_down - (n_up - n_down) ** 2 / n) / max(n - 1, 1)
    testable = groups >= n or effective >= MIN_CLUSTERS
    variance_a = share * (1 - share) * n / max(n - 1, 1)
    if before:  # the defaults (t(G - 1), G clusters) are the old code's; it had no more arguments
        result = paired.paired_binary(n_down, n_up, n, groups, se, variance)
        head = interval.interval(share, n, groups, se_a, variance_a)
    else:
        result = paired.paired_binary(n_down, n_up, n, groups, se, variance, df)
        head = interval.interval(share, n, groups, se_a, variance_a, 0.95, effective, df_a)
    return Row(result.p, result.low, result.high, testable, head[0], head[1])


def graded_row(a: Array, b: Array, keep: NDArray[np.bool_], before: bool = False) -> Row:
    """What ``compare_records`` says of a graded (0-1) row over the kept records."""
    sizes, groups, n, effective = _design(keep)
    diffs = np.where(keep, b - a, 0.0)
    mean, se, df = _cluster_se(diffs, keep, sizes, before)
    if before:  # a Wald t(G - 1) on CR1, no test at exactly zero se, floor on clusters
        with np.errstate(divide="ignore", invalid="ignore"):
            half = sps.t.isf(0.025, df) * se
            p = np.where(se > 0, 2 * sps.t.sf(np.abs(mean) / se, df), 1.0)
        nan = np.full(p.shape, np.nan)
        low = np.where(se > 0, np.maximum(-1.0, mean - half), nan)
        high = np.where(se > 0, np.minimum(1.0, mean + half), nan)
        return Row(p, low, high, groups >= n or groups >= MIN_CLUSTERS)
    used = sizes > 0
    if groups < n and unequal(sizes[used]):  # the exchangeable floor, as mean_test applies it
        sums = diffs.sum(-1)
        own = np.where(keep, diffs - (sums / np.maximum(sizes, 1))[..., None], 0.0)
        floor = exchangeable_variance(sums[..., used], (own**2).sum(-1)[..., used], sizes[used])
        se = np.maximum(se, np.sqrt(floor))
    up = np.maximum(diffs, 0).sum((-2, -1))
    down = np.maximum(-diffs, 0).sum((-2, -1))
    p, low, high, _ = paired.fractional_score(up, down, n, se, df)
    testable = groups >= n or effective >= MIN_CLUSTERS
    degenerate = se <= 1e-9  # no variation: no test, no interval (the verdict never comes)
    nan = np.full(p.shape, np.nan)
    return Row(np.where(degenerate, 1.0, p), np.where(degenerate, nan, low),
               np.where(degenerate, nan, high), testable)  # fmt: skip


def category_keep(keep: NDArray[np.bool_], category: int) -> NDArray[np.bool_]:
    position = np.cumsum(keep.ravel()).reshape(keep.shape) - 1
    return keep & (position % sim.CATEGORIES == category)


def says(row: Row) -> Array:
    """Whether the row calls a difference (p < 5 % and the interval excludes zero)."""
    return np.asarray(row.testable & (row.p < 0.05) & ((row.low > 0) | (row.high < 0)), float)


def covered(row: Row, delta: float) -> Array:
    hit = (row.low <= delta + 1e-12) & (delta - 1e-12 <= row.high)
    return np.where(np.isnan(row.low) | (not row.testable), np.nan, hit.astype(float))


def _nanmean(parts: list[Array]) -> float:
    values = np.concatenate([np.ravel(x) for x in parts])
    return float(np.nanmean(values)) if np.any(~np.isnan(values)) else float("nan")


def figures(
    cell: Cell, delta: float, replicates: int, graded: bool = False, before: bool = False
) -> dict[str, float]:
    """Coverage of the paired interval, the share of tables calling a difference (the type-I
    error when delta = 0) and, for binary cells, the coverage of A's headline interval — NaN
    where no interval is printed. The replicates are split among the cell's size draws."""
    vectors = cell.size_vectors()
    cover, called, head = [], [], []
    for k, sizes in enumerate(vectors):
        rng = cell.rng("figures", graded, delta, k)
        count = replicates // len(vectors)
        keep = mask(sizes)
        shape, m = (count, len(sizes)), keep.shape[1]
        if graded:
            row = graded_row(*graded_scores(cell, rng, shape, m, delta), keep, before)
        else:
            row = binary_row(binary_codes(cell, rng, shape, m, delta), keep, before)
        cover.append(covered(row, delta))
        called.append(says(row))
        if row.head_low is not None and row.head_high is not None:
            hit = (row.head_low <= cell.p) & (cell.p <= row.head_high)
            head.append(hit.astype(float))
    out = {"coverage": _nanmean(cover), "called": _nanmean(called)}
    if head:
        out["headline"] = _nanmean(head)
    return out


def fwer(
    cell: Cell, workloads: int, tables: int, graded: bool = False, before: bool = False
) -> float:
    """Share of null tables (``workloads`` workloads with 3 categories each, binary; or graded
    workloads without categories) where some row calls a difference, through the same
    graphical procedure as ``compare_records`` (:func:`current.table_errors`)."""
    import current

    vectors = cell.size_vectors()
    errors = []
    for k, sizes in enumerate(vectors):
        rng = cell.rng("fwer", graded, workloads, k)
        count = tables // len(vectors)
        keep = mask(sizes)
        shape, m = (count, workloads, len(sizes)), keep.shape[1]
        primary: list[sim.Tested] = []
        children: list[list[sim.Tested]] = []
        if graded:
            a, b = graded_scores(cell, rng, shape, m, 0.0)
            rows = [graded_row(a[:, w], b[:, w], keep, before) for w in range(workloads)]
            primary = [_tested(r) for r in rows]
            children = [[] for _ in rows]
        else:
            codes = binary_codes(cell, rng, shape, m, 0.0)
            for w in range(workloads):
                primary.append(_tested(binary_row(codes[:, w], keep, before)))
                children.append([_tested(binary_row(codes[:, w], category_keep(keep, j), before))
                                 for j in range(sim.CATEGORIES)])  # fmt: skip
        errors.append(current.table_errors(primary, children))
    return float(np.mean(np.concatenate(errors)))


def _tested(row: Row) -> sim.Tested:
    nan = np.full(row.p.shape, np.nan)
    low, high = (row.low, row.high) if row.testable else (nan, nan)
    return sim.Tested(row.p, low, high, np.ones(row.p.shape), row.testable, row.testable)
