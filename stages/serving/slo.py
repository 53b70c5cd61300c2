"""Service-level objectives, goodput and the knee of a rate sweep (issue 14, "SLOs and goodput").

As in vLLM's ``benchmark_serving --goodput``: a request is *good* when it succeeded and meets
every objective set (``value <= objective``); a successful request with one output token or none
has TPOT 0. TTFT and E2E are taken from the scheduled send (the user's view: queueing counts),
which in closed-loop levels is the moment a worker took the request. Failed requests meet no
objective. Goodput is good requests per second of the level's duration; ``share`` is good
requests over measured requests, and ``met`` gives the share meeting each objective alone.

The knee is the highest offered rate up to which the goodput share stays at or above the target:
rates are taken in increasing order and the first one below the target ends the search (a lucky
higher level after a failing one does not count). Null when even the lowest rate misses.
"""

from __future__ import annotations

from typing import Any

from stages.inference.definitions import DIGITS, Timing
from stages.params import SloParams

OBJECTIVES = ("ttft_s", "tpot_s", "e2e_s")


def _value(timing: Timing, objective: str) -> float | None:
    if objective == "ttft_s":
        return timing.ttft_from_scheduled_s
    if objective == "e2e_s":
        return timing.latency_from_scheduled_s
    return timing.tpot_s if timing.tpot_s is not None else 0.0


def meets(timing: Timing, slo: SloParams) -> dict[str, bool]:
    """For each objective set: does this request meet it?"""
    out = {}
    for objective in OBJECTIVES:
        limit = getattr(slo, objective)
        if limit is None:
            continue
        value = _value(timing, objective) if timing.ok else None
        out[objective] = value is not None and value <= limit
    return out


def goodput(timings: list[Timing], slo: SloParams, duration_s: float | None) -> dict[str, Any]:
    """``{slo, good, share, requests_per_s, met: {objective: share}}`` of one level."""
    verdicts = [meets(t, slo) for t in timings]
    good = sum(all(v.values()) for v in verdicts)
    n = len(timings)
    objectives = {o: getattr(slo, o) for o in OBJECTIVES if getattr(slo, o) is not None}
    return {
        "slo": objectives,
        "good": good,
        "share": round(good / n, DIGITS) if n else None,
        "requests_per_s": round(good / duration_s, DIGITS) if duration_s else None,
        "met": {
            o: round(sum(v[o] for v in verdicts) / n, DIGITS) if n else None for o in objectives
        },
    }


def knee(shares: dict[float, float | None], target: float) -> dict[str, Any]:
    """The highest rate up to which every level's goodput share is ``>= target``."""
    best: float | None = None
    for rate in sorted(shares):
        share = shares[rate]
        if share is None or share < target:
            break
        best = rate
    return {"goodput_target": target, "rate": best}
