"""Cluster-robust standard error of a mean (issue 10; E. Miller, "Adding Error Bars to Evals",
2024, section on clustered questions; A. C. Cameron and D. L. Miller, "A Practitioner's Guide to
Cluster-Robust Inference", 2015).

For values x_1..x_n in G clusters, with mean m:

    se^2 = G / (G - 1) * sum over clusters g of (sum over i in g of (x_i - m))^2 / n^2

This is the CR1 sandwich estimator that statsmodels computes for ``OLS(x, ones).fit(
cov_type="cluster", cov_kwds={"groups": g})`` with its default ``use_correction=True``: the
small-sample factor G/(G-1) * (n-1)/(n-K) with K = 1 regressor is exactly G/(G-1). Without that
factor it is Miller's formula (CR0). With every item its own cluster it reduces to s / sqrt(n),
s the sample standard deviation (n - 1 denominator), the ordinary CLT standard error.

Few clusters make the estimate unreliable (it is biased downwards and its interval too narrow);
below :data:`MIN_CLUSTERS` clusters shared by several items no figure is given, only a note.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

#: Fewest clusters for which a cluster-robust figure is printed when items share clusters
#: (Cameron and Miller 2015 discuss 20-50 as "few"; the lower end is taken here).
MIN_CLUSTERS = 20
#: Two-sided 95 % normal quantile.
Z_95 = 1.959963984540054
DIGITS = 6


def cluster_robust_se(values: Sequence[float], clusters: Sequence[Hashable]) -> float:
    """CR1 standard error of the mean of ``values`` (see the module docstring).

    Raises ``ValueError`` for fewer than two clusters, where the estimator is undefined.
    """
    if len(values) != len(clusters):
        raise ValueError("one cluster key per value is needed")
    n = len(values)
    sums: dict[Hashable, float] = {}
    mean = math.fsum(values) / n if n else 0.0
    for value, cluster in zip(values, clusters, strict=True):
        sums[cluster] = sums.get(cluster, 0.0) + (value - mean)
    groups = len(sums)
    if groups < 2:
        raise ValueError(f"a cluster-robust standard error needs two clusters, got {groups}")
    meat = math.fsum(s * s for s in sums.values())
    return math.sqrt(groups / (groups - 1) * meat) / n


@dataclass(frozen=True)
class ClusteredMean:
    """A mean with its cluster-robust standard error, or the reason there is none."""

    mean: float | None
    """Mean of the values (None for no values)."""
    se: float | None
    """CR1 standard error; None when it cannot be trusted or computed (see ``note``)."""
    n: int
    """Number of values."""
    clusters: int
    """Number of distinct cluster keys."""
    note: str | None
    """Why ``se`` is missing, else None."""

    def ci95(self, low: float = -math.inf, high: float = math.inf) -> tuple[float, float] | None:
        """mean +- 1.96 se (CLT), clamped to [low, high]; None without an se."""
        if self.mean is None or self.se is None:
            return None
        half = Z_95 * self.se
        return max(low, self.mean - half), min(high, self.mean + half)


def clustered_mean(
    values: Sequence[float], clusters: Sequence[str], min_clusters: int = MIN_CLUSTERS
) -> ClusteredMean:
    """The mean of ``values`` and, when it can be trusted, its cluster-robust standard error.

    Independent items (every cluster a single item) always get a figure once n >= 2. Items that
    share clusters get one only from ``min_clusters`` clusters on.
    """
    n, groups = len(values), len(set(clusters))
    if n == 0:
        return ClusteredMean(None, None, 0, 0, "no items")
    mean = math.fsum(values) / n
    if n < 2:
        return ClusteredMean(mean, None, n, groups, "one item: no standard error")
    if groups < n and groups < min_clusters:
        note = (
            f"{groups} clusters for {n} items: too few for a cluster-robust standard error "
            f"(needs {min_clusters})"
        )
        return ClusteredMean(mean, None, n, groups, note)
    return ClusteredMean(mean, cluster_robust_se(values, clusters), n, groups, None)


def clustered_block(values: Sequence[float], clusters: Sequence[str]) -> dict[str, object]:
    """``metrics/<w>.json`` ``clustered``: ``{se, ci95: {low, high} | null, clusters, note}``."""
    result = clustered_mean(values, clusters)
    interval = result.ci95(0.0, 1.0)
    return {
        "se": None if result.se is None else round(result.se, DIGITS),
        "ci95": None
        if interval is None
        else {"low": round(interval[0], DIGITS), "high": round(interval[1], DIGITS)},
        "clusters": result.clusters,
        "note": result.note,
    }
