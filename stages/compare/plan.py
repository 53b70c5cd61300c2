"""``atlas compare A B --plan MDE``: how many items — and so how many fresh-seed instances on top
of the public set — a workload needs for its comparison to detect a difference of MDE points
with 80 % power (issue 18).

From the comparison at hand it keeps what does not change with the number of items: the share of
discordant records without an effect, the design effect (records per cluster and how alike they
are) and the repeats per item; it scales the items and finds the fewest whose MDE
(:mod:`stages.compare.power`, at the level the workload row is tested at) is at most the target.
Fresh instances (``workloads.<w>.fresh_seeds``, ``atlas dataset fresh``) are new draws of the same
generator, as many items as the public set each: ``ceil((needed - items now) / instance size)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from stages.compare import exhausted, paired, power
from stages.compare.row import MIN_PLAN_CLUSTERS, Row

#: Largest suite a plan looks at (items); beyond, the plan says "more than".
LIMIT = 10_000_000


@dataclass(frozen=True)
class Plan:
    workload: str
    measure: str
    items: int
    """Items compared now (public and fresh)."""
    mde: float | None
    """The row's MDE now (None where it has none)."""
    needed: int | None
    """Fewest items for the target; None when more than :data:`LIMIT`."""
    instances: int | None
    """Fresh instances to add (of ``instance_size`` items each); None when unknown."""
    instance_size: int
    note: str | None = None


def _binary_mde(row: Row, items: int, level: float, exact: bool = True) -> float:
    factor = items / row.items
    n = max(1, round(row.n * factor))
    groups = n if row.clusters >= row.n else max(2, round(row.clusters * factor))
    b, c = len(row.right_to_wrong), len(row.wrong_to_right)
    variance = (b + c - (c - b) ** 2 / row.n) / max(row.n - 1, 1)
    if row.clusters >= row.n:
        deff = 1.0
    elif row.clusters >= MIN_PLAN_CLUSTERS and row.se is not None:
        deff = float(paired.design_effect(row.n, row.clusters, row.se, variance))
    else:  # too few clusters to estimate it: the worst case, records of a cluster all alike
        deff = row.n / row.clusters
    share = float(power.no_effect_discordance(b, c, row.n))
    mde, capped = power.binary_mde(n, groups, deff, share, row.a or 0.0, level, exact)
    return math.inf if bool(capped) else float(mde)


def _graded_mde(row: Row, items: int, level: float, exact: bool = True) -> float:
    factor = items / row.items
    groups = max(2, round(row.clusters * factor))
    se = float(row.se or 0.0) / math.sqrt(factor)
    mde, capped = power.graded_mde(se, groups, row.scale[1] - row.scale[0], level)
    return math.inf if capped else mde


def _search(mde_at: Callable[[int], float], target: float, low: int, high: int) -> int:
    """Fewest items in [low, high] with mde_at <= target (mde_at(high) <= target), to 0.5 %."""
    while high - low > max(1, high // 200):
        middle = (low + high) // 2
        if mde_at(middle) <= target:
            high = middle
        else:
            low = middle + 1
    return high


def items_needed(row: Row, target: float, level: float) -> int | None:
    """Fewest items whose MDE is at most ``target`` (in the row's units); None beyond LIMIT.

    A first search with the normal form of the power, then the exact one around its answer."""
    mde_at = _binary_mde if row.measure == "accuracy" else _graded_mde
    if row.measure != "accuracy" and not row.se:
        return None
    if mde_at(row, LIMIT, level, False) > target:
        return None
    rough = _search(lambda k: mde_at(row, k, level, False), target, 1, LIMIT)
    high = rough
    while mde_at(row, high, level) > target and high < LIMIT:
        high = min(LIMIT, 2 * high)
    if mde_at(row, high, level) > target:
        return None
    return _search(lambda k: mde_at(row, k, level), target, max(1, high // 4), high)


def plan(
    rows: list[Row], target_points: float, instance_sizes: dict[str, int], alpha: float
) -> list[Plan]:
    """A plan for every workload row of a comparison (target in points of the row's scale)."""
    primary = [r for r in rows if r.role == "primary" and r.n > 0]
    level = alpha / max(len(primary), 1)
    out = []
    for row in primary:
        if row.measure == exhausted.MEASURE:  # a share to keep low, not a figure to resolve
            continue
        unit = 100.0 if row.scale[1] - row.scale[0] <= 1 else 1.0
        size = instance_sizes.get(row.workload, row.items)
        needed = items_needed(row, target_points / unit, level)
        note = None
        if row.clusters < row.n and row.clusters < MIN_PLAN_CLUSTERS:
            note = f"{row.clusters} clusters: the plan assumes the worst design effect"
        instances = None if needed is None else max(0, math.ceil((needed - row.items) / size))
        out.append(
            Plan(row.workload, row.measure, row.items, row.mde, needed, instances, size, note)
        )
    return out
