"""The small-sample cluster-robust variance of a mean (issue 34): CR2 with Bell–McCaffrey and
Satterthwaite-type degrees of freedom, and the effective number of clusters.

CR1 with a t(G - 1) reference (:mod:`stages.scoring.clustered`) over-rejects when cluster sizes
differ: a few large clusters carry most of the weight of the mean, so the variance is estimated
from fewer independent pieces than G, and their residuals are shrunk by their own pull on the
mean. For the mean of n values in G clusters of sizes m_g (a regression on a constant) the fixes
of R. M. Bell and D. F. McCaffrey (2002), in the form of J. E. Pustejovsky and E. Tipton (2018)
and G. Imbens and M. Kolesár (2016) with the working model of independent, equal-variance values,
have closed forms:

* CR2 variance: sum over g of S_g^2 / (1 - m_g / n), over n^2, where S_g is the sum of the
  cluster's deviations from the mean (the residual adjustment (I - H_gg)^(-1/2) scales a
  cluster's sum by 1 / sqrt(1 - m_g / n) and leaves the rest alone);
* degrees of freedom: (tr M)^2 / tr(M^2) for the G x G matrix M = D - u u', D = diag(m_g /
  (n^2 c_g^2)), u_g = m_g / (n^1.5 c_g), c_g^2 = 1 - m_g / n (tr M = 1 / n).

With equal sizes both reduce exactly to CR1 and G - 1; with every value its own cluster to
s / sqrt(n) and n - 1. ``tests/compare/test_unequal_clusters.py`` checks them against the general
matrix formulas.

The Bell–McCaffrey df assumes the working model: every cluster adds to the variance in proportion
to its size. With rare outcomes in large clusters (accuracy 0.1, a few 40-item clusters) the
variance is carried by the few clusters that happened to flip, and a low estimate comes with a low
variance: the t interval then missed the truth above in 7 % of tables instead of 2.5 %. So the df
used is the smaller of the Bell–McCaffrey df and a Satterthwaite df read from the clusters' own
contributions w_g = S_g^2 / (1 - m_g / n) to the variance, (sum E w_g)^2 / sum (E w_g)^2,
estimated as :data:`SATTERTHWAITE` (sum w_g)^2 / sum w_g^2. For normal scores E w_g^2 =
3 (E w_g)^2 and the constant would be 3; cluster sums of rare 0/1 outcomes have heavier tails
(E w_g^2 > 3 (E w_g)^2), and the constant is chosen by simulation (issue 34, 60 heavy-tailed
clusters, accuracy 0.1 and 0.9, 5 points of effect, copy model): coverage 92.0 % with the
Bell–McCaffrey df alone, 92.0-93.4 % with 3, 94.0-94.6 % with 2; on equal clusters it only
widens intervals (94.0 -> 95.7 % at 20 clusters of 10, accuracy 0.1).

The **effective number of clusters** is (sum m_g)^2 / sum m_g^2: the number of equal clusters
whose mean has the same variance as this one's in the worst case, when the values of a cluster
are all alike (the variance of the mean is then var / that number). The Bell–McCaffrey df is close
to it less one, and it is what the 20-cluster floor of a clustered figure counts.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

Array = NDArray[np.float64]


def effective_clusters(sizes: ArrayLike) -> float:
    """(sum m_g)^2 / sum m_g^2 (see the module docstring); G for equal sizes."""
    m = np.asarray(sizes, dtype=float)
    return float(m.sum() ** 2 / (m * m).sum())


def bell_mccaffrey_df(sizes: ArrayLike) -> float:
    """Degrees of freedom of the CR2 t test of a mean over clusters of these sizes (>= 2)."""
    m = np.asarray(sizes, dtype=float)
    n = float(m.sum())
    if len(m) < 2:
        raise ValueError("degrees of freedom need two clusters")
    keep = 1.0 - m / n
    d = m / (n * n * keep)
    u2 = m * m / (n**3 * keep)
    trace_square = float((d * d).sum() - 2.0 * (d * u2).sum() + u2.sum() ** 2)
    return (1.0 / n) ** 2 / trace_square


#: The constant of the Satterthwaite df (module docstring).
SATTERTHWAITE = 2.0


def satterthwaite_df(sums: ArrayLike, sizes: ArrayLike) -> Array:
    """SATTERTHWAITE (sum w_g)^2 / sum w_g^2 with w_g = S_g^2 / (1 - m_g / n) (module
    docstring), at least 1; element-wise over the leading axes of ``sums`` (..., G); +inf where
    nothing varies."""
    s = np.asarray(sums, dtype=float)
    m = np.asarray(sizes, dtype=float)
    w = s * s / (1.0 - m / float(m.sum()))
    total, squares = w.sum(-1), (w * w).sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = np.where(squares > 0, SATTERTHWAITE * total * total / squares, np.inf)
    return np.asarray(np.maximum(df, 1.0), dtype=float)


def small_sample_df(sums: ArrayLike, sizes: ArrayLike) -> Array:
    """The df of the CR2 t reference: the smaller of the Bell–McCaffrey and the Satterthwaite
    df (module docstring); element-wise over the leading axes of ``sums`` (..., G)."""
    return np.minimum(bell_mccaffrey_df(sizes), satterthwaite_df(sums, sizes))


def cr2_variance(sums: ArrayLike, sizes: ArrayLike) -> Array:
    """CR2 variance of the mean from the clusters' sums of deviations ``sums`` (..., G) and their
    sizes (G,); element-wise over the leading axes (the Monte Carlo replicates)."""
    s = np.asarray(sums, dtype=float)
    m = np.asarray(sizes, dtype=float)
    n = float(m.sum())
    return np.asarray((s * s / (1.0 - m / n)).sum(-1) / (n * n), dtype=float)


@dataclass(frozen=True)
class ClusterFit:
    """The mean of values in clusters with its small-sample standard error."""

    mean: float
    se: float
    """CR2 standard error of the mean."""
    df: float
    """Degrees of freedom of its t reference (:func:`small_sample_df`)."""
    design_df: float
    """The Bell–McCaffrey df alone (depends on the cluster sizes only)."""
    clusters: int
    effective: float
    """Effective number of clusters (module docstring)."""


def cluster_sizes(clusters: Sequence[Hashable]) -> list[int]:
    """How many values each cluster has, in order of first appearance."""
    counts: dict[Hashable, int] = {}
    for key in clusters:
        counts[key] = counts.get(key, 0) + 1
    return list(counts.values())


def cluster_fit(values: Sequence[float], clusters: Sequence[Hashable]) -> ClusterFit:
    """CR2 fit of the mean of ``values``; ValueError with fewer than two clusters."""
    if len(values) != len(clusters):
        raise ValueError("one cluster key per value is needed")
    n = len(values)
    mean = math.fsum(values) / n if n else 0.0
    sums: dict[Hashable, list[float]] = {}
    for value, key in zip(values, clusters, strict=True):
        sums.setdefault(key, []).append(value - mean)
    if len(sums) < 2:
        raise ValueError(f"a cluster-robust standard error needs two clusters, got {len(sums)}")
    sizes = np.array([len(v) for v in sums.values()], dtype=float)
    totals = np.array([math.fsum(v) for v in sums.values()])
    se = math.sqrt(float(cr2_variance(totals, sizes)))
    design = bell_mccaffrey_df(sizes)
    df = min(design, float(satterthwaite_df(totals, sizes)))
    return ClusterFit(mean, se, df, design, len(sums), effective_clusters(sizes))
