"""The interval of one revision's accuracy (issue 18): Wilson's score interval on the effective
sample size.

Records that share a cluster (questions on one passage, the repeats of one item) carry less
information than as many independent ones. The design effect deff = (CR1 variance of the mean) /
(variance of the mean of independent records, s^2 / n, s^2 the sample variance) measures how
much less; the interval is Wilson's (E. B. Wilson 1927) for the observed share on n / deff
records, floored at deff = 1, with the t(G - 1) quantile in place of z when records share
clusters (G clusters). For independent records deff is exactly 1 and the interval is the plain
Wilson interval. With fewer than 20 shared clusters the CR1 variance cannot be trusted and the
effective size is G itself (every cluster counted once: the worst case). Unlike a Wald interval
on the CR1 standard error it never collapses to a point (12 of 12 right is [0.757, 1]).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scipy import stats as sps

from stages.compare.records import VerdictRecord, as_records
from stages.compare.row import MIN_CLUSTERS
from stages.scoring.clustered import cluster_robust_se


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
    """CR1 standard error of the share (None with fewer than 20 shared clusters, or n < 2)."""


def wilson(share: float, n: float, quantile: float) -> tuple[float, float]:
    """Wilson score interval for ``share`` of ``n`` (> 0, may be fractional), in [0, 1]."""
    q2 = quantile * quantile
    denominator = 1 + q2 / n
    centre = (share + q2 / (2 * n)) / denominator
    half = quantile / denominator * math.sqrt(share * (1 - share) / n + q2 / (4 * n * n))
    # The closed form is exactly 0 (or 1) at the extremes; avoid float residue there.
    low = 0.0 if share <= 0 else max(0.0, centre - half)
    high = 1.0 if share >= 1 else min(1.0, centre + half)
    return low, high


def share_estimate(
    values: Sequence[float], clusters: Sequence[Hashable], confidence: float = 0.95
) -> Estimate:
    """Mean of ``values`` in [0, 1] with its Wilson interval on the effective sample size."""
    n = len(values)
    if n == 0:
        raise ValueError("no records: no interval")
    groups = len(set(clusters))
    share = math.fsum(values) / n
    tail = (1 - confidence) / 2
    independent = groups >= n
    quantile = (
        float(sps.norm.isf(tail)) if independent else float(sps.t.isf(tail, max(groups - 1, 1)))
    )
    se: float | None = None
    if independent or groups >= MIN_CLUSTERS:
        se = cluster_robust_se(list(values), list(clusters)) if n >= 2 else None
        mean = share
        variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n >= 2 else 0.0
        if independent:
            n_eff = float(n)
        elif variance > 0 and se is not None:
            n_eff = n / max(1.0, se * se / (variance / n))
        else:  # no variation: the worst case, every cluster counted once
            n_eff = float(groups)
    else:
        n_eff = float(groups)
    low, high = wilson(share, n_eff, quantile)
    return Estimate(share, low, high, n, n_eff, groups, se)


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
