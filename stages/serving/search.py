"""SLO search: the highest offered rate whose goodput share meets the target (issue 23).

``load.search: {min_rate, max_rate, max_levels}`` with the workload's ``slo``. The answer is found
by bisection, each level sent like any rate level (journaled, resumable) and stopped early when the
server is over-saturated (:mod:`stages.serving.saturation`), which counts as missing the target:

1. ``min_rate``: if it misses the target there is no answer (``rate`` null);
2. ``max_rate``: if it meets the target the answer is at least that (``at_least`` true);
3. then the geometric middle of the bracket [highest rate that met, lowest rate that missed],
   rounded to 3 significant digits, until ``max_levels`` levels were sent or the middle rounds to
   an end of the bracket. The middle is geometric because rates span orders of magnitude and
   latency grows with utilisation, not with the rate's distance to capacity.

A level meets the target when it ran to the end and its goodput share (pooled over its runs,
``load.repeats``) is at least ``goodput_target``. Goodput is not monotone in the rate for every
server, so the answer is the highest rate *seen* to meet the target, with the bracket it leaves;
between its ends nothing was tried. The search depends only on the levels' journals, so a rerun
walks the same path and sends nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from stages.params import SearchParams


def middle(low: float, high: float) -> float:
    """The geometric middle of (low, high), to 3 significant digits."""
    return float(f"{math.sqrt(low * high):.3g}")


def search(spec: SearchParams, meets: Callable[[float], bool]) -> dict[str, Any]:
    """Bisect ``[min_rate, max_rate]`` with ``meets(rate)`` sending one level each time."""
    tried: list[dict[str, Any]] = []

    def attempt(rate: float) -> bool:
        met = meets(rate)
        tried.append({"rate": rate, "met": met})
        return met

    result: dict[str, Any] = {"min_rate": spec.min_rate, "max_rate": spec.max_rate, "levels": tried}
    if not attempt(spec.min_rate):
        return {**result, "rate": None, "at_least": False, "bracket": None}
    if attempt(spec.max_rate):
        return {**result, "rate": spec.max_rate, "at_least": True, "bracket": None}
    low, high = spec.min_rate, spec.max_rate
    while len(tried) < spec.max_levels:
        mid = middle(low, high)
        if mid <= low or mid >= high:
            break
        if attempt(mid):
            low = mid
        else:
            high = mid
    return {**result, "rate": low, "at_least": False, "bracket": {"met": low, "missed": high}}
