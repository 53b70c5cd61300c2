"""When each request of an open-loop level is sent (issue 14, "Load modes").

The schedule is drawn before the first request and does not depend on the server: a slow server
builds a queue instead of slowing the client down (closed-loop clients hide that; coordinated
omission). As in vLLM's ``benchmark_serving``, the first request goes at 0 and each gap follows:

- ``constant``: every gap is 1/rate;
- ``poisson``: gaps are independent exponential draws with mean 1/rate (a Poisson process), from
  the level's own ``random.Random(seed)``, never the global generator.

Poisson gaps are drawn at unit rate and divided by the rate, so every rate of a sweep replays the
same sequence of draws, scaled (common random numbers: levels differ by their rate only).

Warm-up is the head of the schedule (the first ``warmup_requests`` arrivals, or those before
``warmup_s``); the measured requests follow (``requests`` of them, or every arrival within
``duration_s`` after the warm-up).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from stages.params import LoadParams

DIGITS = 9


def arrival_times(rate: float, arrival: str, seed: int) -> Iterator[float]:
    """Send offsets in seconds from the level's start: 0, then cumulative gaps (endless)."""
    if rate <= 0:
        raise ValueError(f"rate must be positive, got {rate}")
    rng = random.Random(seed)
    at = 0.0
    while True:
        yield round(at, DIGITS)
        at += (rng.expovariate(1.0) if arrival == "poisson" else 1.0) / rate


@dataclass(frozen=True)
class Slot:
    """One entry of a level's schedule."""

    index: int
    warmup: bool
    offset_s: float


def rate_schedule(rate: float, load: LoadParams, default_requests: int) -> list[Slot]:
    """The whole schedule of one rate level: warm-up slots first, then the measured ones."""
    times = arrival_times(rate, load.arrival, load.seed)
    slots: list[Slot] = []
    if load.warmup_s is not None:
        while (at := next(times)) < load.warmup_s:
            slots.append(Slot(len(slots), True, at))
        start, pending = load.warmup_s, at
    else:
        for _ in range(load.warmup_requests):
            slots.append(Slot(len(slots), True, next(times)))
        pending = next(times)
        start = pending
    if load.duration_s is not None:
        while pending < start + load.duration_s:
            slots.append(Slot(len(slots), False, pending))
            pending = next(times)
        return slots
    for _ in range(load.requests or default_requests):
        slots.append(Slot(len(slots), False, pending))
        pending = next(times)
    return slots
