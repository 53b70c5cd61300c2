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

Which figures are shown from it, and from how many clusters, is decided where it is used:
:mod:`stages.compare.measures` (comparisons) and :mod:`stages.scoring.interval` (one revision).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence


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
