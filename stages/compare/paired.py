"""Tests and intervals for paired binary outcomes (issue 18), vectorised over numpy arrays so that
``atlas compare`` and the Monte Carlo test in the suite run the very same code.

Notation: of the n paired records, ``b`` went right -> wrong (A right, B wrong) and ``c`` wrong ->
right; the difference of accuracies is delta = (c - b) / n.

* **Independent items** (every record its own cluster): McNemar's exact test — the smaller
  discordant count is Binomial(b + c, 1/2) under "no difference" — with its tail computed as the
  regularized incomplete beta function (``scipy.special.bdtr``): no factorials, so neither
  overflow nor loss of precision at any n (statsmodels' ``mcnemar(exact=True)`` gives the same).
  The interval is Tango's score interval (T. Tango, "Equal-tailed confidence intervals for the
  difference of two correlated proportions", Stat. Med. 1998): the set of differences d whose
  score statistic, with the cell probabilities re-estimated under d, stays within +-z. Unlike the
  Wald interval it never has zero width, stays in [-1, 1] and covers at n = 12.
* **Shared clusters or repeats**: the Rao–Scott adjustment (J. N. K. Rao and A. J. Scott,
  "A simple method for the analysis of clustered binary data", Biometrics 1992) divides every
  count by the design effect deff = cluster-robust variance / independent variance of the mean
  difference (floored at 1), then the score test (the asymptotic McNemar statistic on the
  effective counts, (c - b) / sqrt((b + c) deff)) and the Tango interval are taken with a t
  quantile. The comparison passes the CR2 variance and the Bell–McCaffrey degrees of freedom
  (issue 34, :mod:`stages.compare.cluster_variance`); with equal cluster sizes they are the CR1
  variance and G - 1, G the number of clusters (the default here).
* **Graded rows** (issue 34) take the same score step on fractional flip counts
  (:func:`effective_score`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special
from scipy import stats as sps

Array = NDArray[np.float64]
#: Bisection steps of the Tango interval: 2^-64 of the [-1, 1] range, below float resolution.
_STEPS = 64


def mcnemar_exact(right_to_wrong: ArrayLike, wrong_to_right: ArrayLike) -> Array:
    """Two-sided exact McNemar p (1 where there is no discordant pair), element-wise."""
    b = np.asarray(right_to_wrong, dtype=float)
    c = np.asarray(wrong_to_right, dtype=float)
    if np.any(b < 0) or np.any(c < 0):
        raise ValueError("discordant counts are never negative")
    total = b + c
    if np.any(total != np.round(total)):
        raise ValueError("the exact test needs whole counts")
    whole = np.round(total).astype(np.int64)
    tail = special.bdtr(np.minimum(b, c).astype(np.int64), whole, 0.5)
    return np.asarray(np.where(whole > 0, np.minimum(1.0, 2.0 * tail), 1.0), dtype=float)


def _restricted_mle(b: Array, c: Array, n: Array, d: Array) -> Array:
    """P(wrong -> right) maximising the likelihood of (b, c, n - b - c) when delta = d.

    Cells: wrong -> right q, right -> wrong q - d, agreement 1 - 2q + d; the score equation
    c/q + b/(q - d) = 2 r/(1 - 2q + d) (r = n - b - c) is a quadratic in q.
    """
    r = n - b - c
    qa = -2.0 * n
    qb = (b + c) * (1.0 + d) + 2.0 * c * d + 2.0 * r * d
    qc = -c * d * (1.0 + d)
    root = np.sqrt(np.maximum(qb * qb - 4.0 * qa * qc, 0.0))
    # qa < 0: the larger root is (-qb - root) / (2 qa); it lies in [max(d, 0), (1 + d) / 2].
    q = (-qb - root) / (2.0 * qa)
    return np.clip(q, np.maximum(d, 0.0), (1.0 + d) / 2.0)


def _score(b: Array, c: Array, n: Array, d: Array) -> Array:
    """Tango's score statistic for delta = d (positive when the data say delta > d)."""
    q = _restricted_mle(b, c, n, d)
    variance = np.maximum(2.0 * q - d - d * d, 1e-300) / n
    return ((c - b) / n - d) / np.sqrt(variance)


def tango_interval(
    right_to_wrong: ArrayLike, wrong_to_right: ArrayLike, n: ArrayLike, quantile: ArrayLike
) -> tuple[Array, Array]:
    """Tango's score interval for delta = (c - b)/n with critical value ``quantile`` (counts
    may be fractional: the Rao–Scott effective counts). n must be > 0."""
    b, c = np.asarray(right_to_wrong, dtype=float), np.asarray(wrong_to_right, dtype=float)
    size = np.asarray(n, dtype=float)
    q = np.asarray(quantile, dtype=float)
    b, c, size, q = np.broadcast_arrays(b, c, size, q)
    estimate = (c - b) / size
    # The score falls as d grows: the bounds solve score(d) = +q (low) and score(d) = -q (high).
    low_a, low_b = np.full(b.shape, -1.0), estimate.copy()
    high_a, high_b = estimate.copy(), np.full(b.shape, 1.0)
    for _ in range(_STEPS):
        mid = (low_a + low_b) / 2
        above = _score(b, c, size, mid) > q
        low_a, low_b = np.where(above, mid, low_a), np.where(above, low_b, mid)
        mid = (high_a + high_b) / 2
        above = _score(b, c, size, mid) > -q
        high_a, high_b = np.where(above, mid, high_a), np.where(above, high_b, mid)
    return low_b, high_a


def design_effect(n: ArrayLike, clusters: ArrayLike, se: ArrayLike, variance: ArrayLike) -> Array:
    """Variance of the mean under clustering over its variance for independent records, floored
    at 1; where the records do not vary (variance 0) the worst case n / G."""
    size, groups = np.asarray(n, dtype=float), np.asarray(clusters, dtype=float)
    se_, var = np.asarray(se, dtype=float), np.asarray(variance, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(var > 0, se_**2 / (var / size), size / groups)
    return np.maximum(np.nan_to_num(ratio, nan=1.0), 1.0)


@dataclass(frozen=True)
class PairedBinary:
    """Test and 95 % interval of delta for arrays of paired binary tables."""

    p: Array
    low: Array
    high: Array
    deff: Array


def t_quantile(level: ArrayLike, clusters: ArrayLike) -> Array:
    """Upper ``level`` quantile of t(G - 1) (G >= 2)."""
    return np.asarray(sps.t.isf(level, np.asarray(clusters, dtype=float) - 1.0), dtype=float)


Z_95 = float(sps.norm.isf(0.025))


def effective_score(
    right_to_wrong: ArrayLike, wrong_to_right: ArrayLike, n: ArrayLike, deff: ArrayLike,
    df: ArrayLike,
) -> tuple[Array, Array, Array]:  # fmt: skip
    """(p, low, high): the score test and Tango interval on the effective counts (every count
    over ``deff``) with the t(``df``) quantile — the Rao–Scott step of clustered binary rows, and
    of graded rows on their fractional flip counts (:mod:`stages.compare.measures`)."""
    b, c = np.asarray(right_to_wrong, dtype=float), np.asarray(wrong_to_right, dtype=float)
    design, dof = np.asarray(deff, dtype=float), np.asarray(df, dtype=float)
    be, ce, ne = b / design, c / design, np.asarray(n, dtype=float) / design
    low, high = tango_interval(be, ce, ne, sps.t.isf(0.025, dof))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(be + ce > 0, (ce - be) / np.sqrt(be + ce), 0.0)
    return np.asarray(2.0 * sps.t.sf(np.abs(z), dof), dtype=float), low, high


def fractional_score(
    up: ArrayLike, down: ArrayLike, n: ArrayLike, se: ArrayLike, df: ArrayLike
) -> tuple[Array, Array, Array, Array]:
    """(p, low, high, deff) of graded rows, element-wise: ``up`` and ``down`` are the sums of the
    positive and negative parts of the differences in units of the scale (fractional wrong->right
    and right->wrong counts), ``se`` the cluster-robust standard error of the mean difference in
    the same units. The design effect makes the variance the flip counts would have as 0/1 flips
    (n - 1 denominator) equal to se^2 — below 1 where scores move by less than the whole scale, so
    the interval narrows to what the data show — and :func:`effective_score` does the rest."""
    c, b = np.asarray(up, dtype=float), np.asarray(down, dtype=float)
    size = np.asarray(n, dtype=float)
    spread = (b + c - (c - b) ** 2 / size) / np.maximum(size - 1, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        deff = np.asarray(se, dtype=float) ** 2 / (spread / size)
    deff = np.where(np.isfinite(deff) & (deff > 0), deff, 1.0)
    p, low, high = effective_score(b, c, size, deff, df)
    return p, low, high, deff


def paired_binary(
    right_to_wrong: ArrayLike,
    wrong_to_right: ArrayLike,
    n: ArrayLike,
    clusters: ArrayLike,
    se: ArrayLike,
    variance: ArrayLike,
    df: ArrayLike | None = None,
) -> PairedBinary:
    """McNemar exact and Tango (independent: clusters == n) or Rao–Scott score-t and Tango-t
    (shared clusters) for each table; n > 0 and clusters >= 2 where clusters < n.

    ``se`` is the cluster-robust (CR2) standard error of delta and ``variance`` the sample
    variance (n - 1 denominator) of the per-record differences; both only matter for clustered
    tables, as does ``df``, the degrees of freedom of the t reference (default G - 1; the
    comparison passes the Bell–McCaffrey df of :mod:`stages.compare.cluster_variance`).
    """
    b, c = np.asarray(right_to_wrong, dtype=float), np.asarray(wrong_to_right, dtype=float)
    size, groups = np.asarray(n, dtype=float), np.asarray(clusters, dtype=float)
    b, c, size, groups = np.broadcast_arrays(b, c, size, groups)
    independent = groups >= size
    deff = np.where(independent, 1.0, design_effect(size, groups, se, variance))
    dof = np.maximum(groups, 2.0) - 1.0 if df is None else np.asarray(df, dtype=float)
    dof = np.maximum(dof, 1.0)
    be, ce, ne = b / deff, c / deff, size / deff
    quantile = np.where(independent, Z_95, sps.t.isf(0.025, dof))
    low, high = tango_interval(be, ce, ne, quantile)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(be + ce > 0, (ce - be) / np.sqrt(be + ce), 0.0)
    p_clustered = 2.0 * sps.t.sf(np.abs(z), dof)
    exact = mcnemar_exact(np.round(b), np.round(c))  # clustered tables use the score p instead
    p = np.where(independent, exact, p_clustered)
    return PairedBinary(p=np.asarray(p, dtype=float), low=low, high=high, deff=deff)


def shifted_test(
    right_to_wrong: float, wrong_to_right: float, n: int, clusters: int, se: float, variance: float,
    delta: float, df: float | None = None,
) -> tuple[float, float]:  # fmt: skip
    """One-sided p-values of Tango's score test of H0: difference <= ``delta`` (small: the data
    say it is above) and of H0: difference >= ``delta``, on the Rao–Scott effective counts with
    t(G - 1) where records share clusters — the test behind a non-inferiority margin."""
    deff = 1.0 if clusters >= n else float(design_effect(n, clusters, se, variance))
    z = float(_score(np.array(right_to_wrong / deff), np.array(wrong_to_right / deff),
                     np.array(n / deff), np.array(float(delta))))  # fmt: skip
    if clusters >= n:
        return float(sps.norm.sf(z)), float(sps.norm.cdf(z))
    dof = clusters - 1 if df is None else df
    return float(sps.t.sf(z, dof)), float(sps.t.cdf(z, dof))
