"""The interval of one revision's accuracy (issue 18): Wilson's score interval on the effective
sample size.

Records that share a cluster (questions on one passage, the repeats of one item) carry less
information than as many independent ones. The design effect deff = (CR1 variance of the mean) /
(variance of the mean of independent records, s^2 / n, s^2 the sample variance) measures how
much less; the interval is Wilson's (E. B. Wilson 1927) for the observed share on n / deff
records, floored at deff = 1, with a t quantile in place of z when records share clusters. For
independent records deff is exactly 1 and the interval is the plain Wilson interval. Unlike a Wald
interval on the cluster-robust standard error it never collapses to a point (12 of 12 right is
[0.757, 1]).

Issue 34 (unequal clusters): the variance is CR2 and the t quantile takes the Bell–McCaffrey
degrees of freedom (:mod:`stages.compare.cluster_variance`; with equal cluster sizes they are CR1
and G - 1, as before). With fewer than 50 *effective* shared clusters the variance is not trusted
for this and the effective size is the effective number of clusters, (sum m_g)^2 / sum m_g^2 —
exactly the worst case, every record of a cluster alike (G itself for equal sizes).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats as sps

from stages.compare.cluster_variance import cluster_fit, cluster_sizes, effective_clusters
from stages.compare.records import VerdictRecord, as_records
from stages.compare.row import MIN_CLUSTERS

Array = NDArray[np.float64]
#: Fewest effective shared clusters whose variance sets the effective size; below, the effective
#: size is the effective number of clusters. With 20-50 clusters an outcome concentrated in a few
#: of them is often invisible to the variance estimate (measured: 86 % coverage at 20 clusters of
#: 10, accuracy 0.1).
MIN_SHARED_CLUSTERS = 50
DIGITS = 6


@dataclass(frozen=True)
class Estimate:
    """A share with its interval."""

    value: float
    low: float
    high: float
    n: int
    n_eff: float
    """Effective sample size the interval is computed on."""
    clusters: int
    se: float | None
    """CR2 standard error of the share (None with fewer than 20 effective shared clusters, or
    n < 2)."""
    effective_clusters: float = 0.0
    """(sum m_g)^2 / sum m_g^2 over the clusters' sizes m_g (n for independent records)."""


def wilson(share: ArrayLike, n: ArrayLike, quantile: ArrayLike) -> tuple[Array, Array]:
    """Wilson score interval for ``share`` of ``n`` (> 0, may be fractional), in [0, 1]."""
    p, size, q = (np.asarray(x, dtype=float) for x in (share, n, quantile))
    q2 = q * q
    denominator = 1 + q2 / size
    centre = (p + q2 / (2 * size)) / denominator
    half = q / denominator * np.sqrt(p * (1 - p) / size + q2 / (4 * size * size))
    # The closed form is exactly 0 (or 1) at the extremes; avoid float residue there.
    low = np.where(p <= 0, 0.0, np.maximum(0.0, centre - half))
    high = np.where(p >= 1, 1.0, np.minimum(1.0, centre + half))
    return low, high


def effective_size(
    n: ArrayLike, clusters: ArrayLike, se: ArrayLike, variance: ArrayLike,
    effective: ArrayLike | None = None,
) -> Array:  # fmt: skip
    """n / deff (deff floored at 1); the effective clusters (default G) where clusters are shared
    and fewer than 50 effective ones, or the records do not vary; n for independent records."""
    size, groups = np.asarray(n, dtype=float), np.asarray(clusters, dtype=float)
    worst = groups if effective is None else np.asarray(effective, dtype=float)
    se_, var = np.asarray(se, dtype=float), np.asarray(variance, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        deff = np.maximum(se_**2 / (var / size), 1.0)
    trusted = (worst >= MIN_SHARED_CLUSTERS) & (var > 0) & np.isfinite(deff)
    clustered = np.where(trusted, size / np.where(trusted, deff, 1.0), worst)
    return np.asarray(np.where(groups >= size, size, clustered), dtype=float)


def interval(
    share: ArrayLike, n: ArrayLike, clusters: ArrayLike, se: ArrayLike, variance: ArrayLike,
    confidence: float = 0.95, effective: ArrayLike | None = None, df: ArrayLike | None = None,
) -> tuple[Array, Array, Array]:  # fmt: skip
    """(low, high, n_eff): Wilson on the effective size, z for independent records, t(``df``)
    where records share clusters (default G - 1; see the module docstring); element-wise."""
    size, groups = np.asarray(n, dtype=float), np.asarray(clusters, dtype=float)
    tail = (1 - confidence) / 2
    dof = groups - 1 if df is None else np.asarray(df, dtype=float)
    quantile = np.where(groups >= size, sps.norm.isf(tail), sps.t.isf(tail, np.maximum(dof, 1)))
    n_eff = effective_size(size, groups, se, variance, effective)
    low, high = wilson(share, n_eff, quantile)
    return low, high, n_eff


def share_estimate(
    values: Sequence[float], clusters: Sequence[Hashable], confidence: float = 0.95
) -> Estimate:
    """Mean of ``values`` in [0, 1] with its Wilson interval on the effective sample size."""
    n = len(values)
    if n == 0:
        raise ValueError("no records: no interval")
    sizes = cluster_sizes(clusters)
    groups, effective = len(sizes), effective_clusters(sizes)
    share = math.fsum(values) / n
    variance = math.fsum((v - share) ** 2 for v in values) / (n - 1) if n >= 2 else 0.0
    fit = cluster_fit(values, clusters) if groups >= 2 else None
    # the standard error is shown from 20 effective clusters
    trusted = fit is not None and (groups >= n or effective >= MIN_CLUSTERS)
    se = fit.se if fit is not None and trusted else None
    df = fit.df if fit is not None else None
    low, high, n_eff = interval(share, n, groups, se or 0.0, variance, confidence, effective, df)
    return Estimate(share, float(low), float(high), n, float(n_eff), groups, se, effective)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, DIGITS)


def clustered_block(values: Sequence[float], clusters: Sequence[Hashable]) -> dict[str, object]:
    """``metrics/<w>.json`` ``clustered``: ``{se, ci95: {low, high}, clusters, n_eff, note}`` —
    the CR1 standard error (None with fewer than 20 shared clusters, with ``note`` saying why)
    and the interval of :func:`share_estimate`, the same as ``wilson_95``."""
    estimate = share_estimate(values, clusters)
    n, groups = estimate.n, estimate.clusters
    note = None
    if estimate.se is None:
        note = (
            f"{groups} clusters for {n} items: too few for a cluster-robust standard error "
            f"({estimate.effective_clusters:.1f} effective, needs {MIN_CLUSTERS}); the interval "
            "counts each effective cluster once"
            if n >= 2
            else "one item: no standard error"
        )
    return {
        "se": _rounded(estimate.se),
        "ci95": {"low": _rounded(estimate.low), "high": _rounded(estimate.high)},
        "clusters": groups,
        "n_eff": round(estimate.n_eff, 2),
        "note": note,
    }


def _binary(records: list[VerdictRecord]) -> tuple[list[float], list[Hashable]]:
    chosen = [r for r in records if r.correct is not None]
    values = [1.0 if r.correct and r.failed is None else 0.0 for r in chosen]
    return values, [r.cluster_key for r in chosen]


def accuracy_estimate(
    records: Iterable[Mapping[str, Any] | VerdictRecord], *, confidence: float = 0.95
) -> Estimate:
    """Accuracy of one revision's binary records (a failed request is wrong) with its interval
    (see the module docstring); ValueError when no record is binary."""
    # One revision's records need no workload name: fill it where a verdict line has none.
    filled = [r if isinstance(r, VerdictRecord) else {"workload": "", **r} for r in records]
    values, clusters = _binary(as_records(filled, "records"))
    return share_estimate(values, clusters, confidence)


def accuracy_interval(
    records: Iterable[Mapping[str, Any] | VerdictRecord], *, confidence: float = 0.95
) -> tuple[float, float]:
    """(low, high) of :func:`accuracy_estimate`."""
    estimate = accuracy_estimate(records, confidence=confidence)
    return estimate.low, estimate.high
