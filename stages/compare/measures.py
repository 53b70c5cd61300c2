"""The statistics of one row from its paired records (issue 18): binary rows (accuracy,
categories) and mean rows (graded scores, pass@k, pass^k). Multiplicity, power and verdicts are
applied afterwards over the whole table (:mod:`stages.compare.api`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from scipy import stats as sps

from stages.compare import paired, power
from stages.compare.records import VerdictRecord
from stages.compare.row import MIN_CLUSTERS
from stages.scoring.clustered import cluster_robust_se

Pair = tuple[VerdictRecord, VerdictRecord]


@dataclass(frozen=True)
class Tested:
    """What a row's test says: p, the 95 % interval and the design effect (binary rows)."""

    p: float | None
    ci95: tuple[float, float] | None
    se: float | None
    deff: float
    note: str | None


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


def _few(groups: int, n: int) -> str:
    return (
        f"{groups} clusters for {n} items: too few for a cluster-robust standard error "
        f"(needs {MIN_CLUSTERS})"
    )


def binary_test(pairs: Sequence[Pair]) -> Tested:
    """McNemar exact + Tango (independent), Rao–Scott score-t + Tango-t (clustered)."""
    n = len(pairs)
    if n == 0:
        return Tested(None, None, None, 1.0, "no paired items")
    diffs = [float(bool(b.correct)) - float(bool(a.correct)) for a, b in pairs]
    clusters = [b.cluster_key for _, b in pairs]
    groups = len(set(clusters))
    down = sum(d < 0 for d in diffs)
    up = sum(d > 0 for d in diffs)
    if groups < n and groups < MIN_CLUSTERS:
        return Tested(None, None, None, 1.0, _few(groups, n))
    se = cluster_robust_se(diffs, clusters) if groups >= 2 else 0.0
    result = paired.paired_binary(down, up, n, groups, se, _variance(diffs))
    low, high = float(result.low), float(result.high)
    return Tested(
        float(result.p), (low, high), se if groups >= 2 else None, float(result.deff), None
    )


def binary(pairs: Sequence[Pair]) -> Measured:
    """An accuracy row's figures (a failed request is wrong at its side)."""
    n = len(pairs)
    groups = len({b.cluster_key for _, b in pairs})
    tested = binary_test(pairs)
    a = _mean([float(bool(x.correct)) for x, _ in pairs]) if n else None
    b = _mean([float(bool(y.correct)) for _, y in pairs]) if n else None
    down = sum(bool(x.correct) and not y.correct for x, y in pairs)
    up = sum(bool(y.correct) and not x.correct for x, y in pairs)
    discordance = float(power.no_effect_discordance(down, up, n)) if n else 0.0
    possible = tested.p is not None and power.binary_verdict_possible(n, groups, 0.05, MIN_CLUSTERS)

    def mde(level: float) -> tuple[float, bool]:
        value, capped = power.binary_mde(n, groups, tested.deff, discordance, a or 0.0, level)
        return float(value), bool(capped)

    test = "mcnemar-exact" if groups >= n else "rao-scott-score-t"
    printable = power.binary_mde_printable(n, groups)
    items = len({x.item for x, _ in pairs})
    return Measured(
        n, items, groups, a, b, tested, possible, mde if printable else None, (0.0, 1.0), test
    )


def mean_test(diffs: Sequence[float], clusters: Sequence[Hashable], span: float) -> Tested:
    """Wald t(G - 1) on the CR1 standard error of the mean difference; the interval clipped to
    the possible differences +-span. No test without variation or with too few clusters."""
    n, groups = len(diffs), len(set(clusters))
    if n == 0:
        return Tested(None, None, None, 1.0, "no paired items")
    if groups < 2:
        return Tested(None, None, None, 1.0, "one cluster: no standard error")
    if groups < n and groups < MIN_CLUSTERS:
        return Tested(None, None, None, 1.0, _few(groups, n))
    se = cluster_robust_se(list(diffs), list(clusters))
    delta = _mean(diffs)
    if se == 0:
        return Tested(None, None, 0.0, 1.0, "the differences do not vary: no test")
    df = groups - 1
    p = float(2.0 * sps.t.sf(abs(delta) / se, df))
    half = float(sps.t.isf(0.025, df)) * se
    return Tested(p, (max(-span, delta - half), min(span, delta + half)), se, 1.0, None)


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
        return power.graded_mde(tested.se or 0.0, groups, span, level)

    a = _mean([a for a, _ in values]) if n else None
    b = _mean([b for _, b in values]) if n else None
    return Measured(n, items, groups, a, b, tested, tested.p is not None, mde, scale, "wald-t-cr1")
