"""The statistics of one row from its paired records (issue 18): binary rows (accuracy,
categories) and mean rows (graded scores, pass@k, pass^k). Multiplicity, power and verdicts are
applied afterwards over the whole table (:mod:`stages.compare.api`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from stages.compare import paired, power
from stages.compare.cluster_variance import cluster_fit, cluster_sizes, effective_clusters
from stages.compare.exchangeable import exchangeable_se, unequal
from stages.compare.records import VerdictRecord
from stages.compare.row import MIN_CLUSTERS

Pair = tuple[VerdictRecord, VerdictRecord]


@dataclass(frozen=True)
class Tested:
    """What a row's test says: p, the 95 % interval and the design effect."""

    p: float | None
    ci95: tuple[float, float] | None
    se: float | None
    deff: float
    note: str | None
    df: float | None = None
    """Degrees of freedom of the t reference (clustered binary and graded rows)."""
    design_df: float | None = None
    """The Bell–McCaffrey df alone, which the MDE is planned with: the data's own df describes
    the table at hand, not the tables of a true effect."""


@dataclass(frozen=True)
class Measured:
    """A row's data summary, its test and how to get its MDE at a given level."""

    n: int
    items: int
    clusters: int
    a: float | None
    b: float | None
    tested: Tested
    possible: bool
    """Whether a verdict is possible at all (enough items or clusters, some variation)."""
    mde: Callable[[float], tuple[float, bool]] | None
    """The MDE at a level; None where the power cannot be told (20-29 shared clusters)."""
    scale: tuple[float, float]
    test: str


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def _variance(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = _mean(values)
    return math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)


#: Differences within this share of the scale of each other are "the same": floating-point
#: residue of a constant shift (0.3 -> 0.4 and 0.5 -> 0.6 leave 1e-17) is not variation.
TOLERANCE = 1e-9


def _few(groups: int, n: int, effective: float) -> str:
    return (
        f"{groups} clusters for {n} items: too few for a cluster-robust standard error "
        f"({effective:.1f} effective, needs {MIN_CLUSTERS})"
    )


def _clustering(clusters: Sequence[Hashable]) -> tuple[int, float]:
    """(G, effective clusters) of the records' cluster keys."""
    sizes = cluster_sizes(clusters)
    return len(sizes), effective_clusters(sizes) if sizes else 0.0


def binary_test(pairs: Sequence[Pair]) -> Tested:
    """McNemar exact + Tango (independent), Rao–Scott score-t + Tango-t on the CR2 variance with
    the Bell–McCaffrey df (clustered, from 20 effective clusters)."""
    n = len(pairs)
    if n == 0:
        return Tested(None, None, None, 1.0, "no paired items")
    diffs = [float(bool(b.correct)) - float(bool(a.correct)) for a, b in pairs]
    clusters = [b.cluster_key for _, b in pairs]
    groups, effective = _clustering(clusters)
    down = sum(d < 0 for d in diffs)
    up = sum(d > 0 for d in diffs)
    if groups < n and effective < MIN_CLUSTERS:
        return Tested(None, None, None, 1.0, _few(groups, n, effective))
    fit = cluster_fit(diffs, clusters) if groups >= 2 else None
    se, df = (fit.se, fit.df) if fit is not None else (0.0, None)
    result = paired.paired_binary(down, up, n, groups, se, _variance(diffs), df)
    low, high = float(result.low), float(result.high)
    clustered = fit is not None and groups < n  # McNemar's exact test has no df
    return Tested(
        float(result.p), (low, high), se if fit is not None else None, float(result.deff), None,
        df if clustered else None, fit.design_df if clustered and fit is not None else None,
    )  # fmt: skip


def binary(pairs: Sequence[Pair]) -> Measured:
    """An accuracy row's figures (a failed request is wrong at its side)."""
    n = len(pairs)
    groups, effective = _clustering([b.cluster_key for _, b in pairs])
    tested = binary_test(pairs)
    a = _mean([float(bool(x.correct)) for x, _ in pairs]) if n else None
    b = _mean([float(bool(y.correct)) for _, y in pairs]) if n else None
    down = sum(bool(x.correct) and not y.correct for x, y in pairs)
    up = sum(bool(y.correct) and not x.correct for x, y in pairs)
    discordance = float(power.no_effect_discordance(down, up, n)) if n else 0.0
    possible = tested.p is not None and power.binary_verdict_possible(n, groups, 0.05, MIN_CLUSTERS)

    def mde(level: float) -> tuple[float, bool]:
        value, capped = power.binary_mde(
            n, groups, tested.deff, discordance, a or 0.0, level, df=tested.design_df
        )
        return float(value), bool(capped)

    test = "mcnemar-exact" if groups >= n else "rao-scott-score-t"
    printable = power.binary_mde_printable(n, groups, effective)
    items = len({x.item for x, _ in pairs})
    return Measured(
        n, items, groups, a, b, tested, possible, mde if printable else None, (0.0, 1.0), test
    )


def mean_test(diffs: Sequence[float], clusters: Sequence[Hashable], span: float) -> Tested:
    """The score test and Tango interval on fractional flip counts (issue 34): the positive and
    negative parts of the differences, in units of the scale, are the wrong->right and
    right->wrong counts, divided by a design effect that makes their variance the CR2 variance
    of the mean difference; t on the Bell–McCaffrey df (n - 1 for independent items). For 0/1
    scores it is the binary rows' test. In clusters of unequal sizes the standard error is at
    least the exchangeable one (:mod:`stages.compare.exchangeable`). No test without variation
    (within :data:`TOLERANCE` of the scale) or with fewer than 20 effective shared clusters."""
    n = len(diffs)
    groups, effective = _clustering(clusters)
    if n == 0:
        return Tested(None, None, None, 1.0, "no paired items")
    if groups < 2:
        return Tested(None, None, None, 1.0, "one cluster: no standard error")
    if groups < n and effective < MIN_CLUSTERS:
        return Tested(None, None, None, 1.0, _few(groups, n, effective))
    fit = cluster_fit(list(diffs), list(clusters))
    if max(diffs) - min(diffs) <= TOLERANCE * span or fit.se <= TOLERANCE * span:
        return Tested(None, None, None, 1.0, "the differences do not vary: no test")
    se = fit.se
    if groups < n and unequal(cluster_sizes(clusters)):
        # A few large clusters may carry the whole difference without having varied in this
        # table: the exchangeable floor counts them with their size (stages.compare.exchangeable)
        se = max(se, exchangeable_se(diffs, clusters))
    up = math.fsum(max(d, 0.0) for d in diffs) / span
    down = math.fsum(max(-d, 0.0) for d in diffs) / span
    p, low, high, deff = paired.fractional_score(up, down, n, se / span, fit.df)
    interval = (max(-span, float(low) * span), min(span, float(high) * span))
    return Tested(float(p), interval, se, float(deff), None, fit.df, fit.design_df)


def mean_row(
    values: Sequence[tuple[float, float]], clusters: Sequence[Hashable], items: int,
    scale: tuple[float, float],
) -> Measured:  # fmt: skip
    """A row of mean values (graded scores, or per-item pass@k) paired as (A, B)."""
    n = len(values)
    span = scale[1] - scale[0]
    diffs = [b - a for a, b in values]
    tested = mean_test(diffs, clusters, span)
    groups = len(set(clusters))

    def mde(level: float) -> tuple[float, bool]:
        return power.graded_mde(tested.se or 0.0, groups, span, level, tested.design_df)

    a = _mean([a for a, _ in values]) if n else None
    b = _mean([b for _, b in values]) if n else None
    possible = tested.p is not None
    return Measured(
        n, items, groups, a, b, tested, possible, mde if possible else None, scale,
        "score-t-cr2",
    )  # fmt: skip
