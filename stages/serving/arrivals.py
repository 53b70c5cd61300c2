"""When each request of an open-loop level is sent (issues 14 and 23, "Load modes").

The schedule is drawn before the first request and does not depend on the server: a slow server
builds a queue instead of slowing the client down (closed-loop clients hide that; coordinated
omission). As in vLLM's ``benchmark_serving``, the first request goes at 0 and each gap follows:

- ``constant``: every gap is 1/rate;
- ``poisson``: gaps are independent exponential draws with mean 1/rate (a Poisson process);
- ``gamma``: independent gamma draws with mean 1/rate and coefficient of variation ``cv``
  (shape 1/cv², vLLM's "burstiness" is that shape): cv > 1 is burstier than Poisson (clusters of
  arrivals and long silences), cv < 1 more regular, cv = 1 an exponential;
- ``trace``: the timestamps of a trace file, scaled to the rate (:mod:`stages.serving.trace`).

Draws come from the level's own ``random.Random(seed)``, never the global generator, at unit rate,
and are divided by the rate, so every rate of a sweep replays the same sequence of draws, scaled
(common random numbers: levels differ by their rate only).

A ``ramp`` makes the offered rate rise (or fall) linearly from ``ramp.from_rate`` to the level's
rate over ``ramp.duration_s`` seconds, then hold: the unit-rate arrival times u are mapped through
the inverse of the cumulative rate Λ(t) = r0·t + (r1 − r0)·t²/(2T) (a time change, so a ramped
Poisson process is a non-homogeneous Poisson process with that rate).

Warm-up is the head of the schedule (the first ``warmup_requests`` arrivals, or those before
``warmup_s``); the measured requests follow (``requests`` of them, or every arrival within
``duration_s`` after the warm-up). A schedule is a function of the settings alone, so a resumed
level sends exactly the entries still missing at their planned offsets.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

from stages.params import LoadParams, RampParams

DIGITS = 9


def unit_gaps(arrival: str, seed: int, cv: float | None = None) -> Iterator[float]:
    """Gaps between arrivals at rate 1 (mean 1), endless."""
    rng = random.Random(seed)
    if arrival == "constant":
        while True:
            yield 1.0
    if arrival == "gamma":
        if cv is None or cv <= 0:
            raise ValueError(f"gamma arrivals need a positive cv, got {cv}")
        shape = 1.0 / (cv * cv)
        while True:
            yield rng.gammavariate(shape, 1.0 / shape)
    if arrival != "poisson":
        raise ValueError(f"unknown arrival process {arrival!r}")
    while True:
        yield rng.expovariate(1.0)


def ramp_time(units: float, rate: float, ramp: RampParams) -> float:
    """The time at which the cumulative offered rate reaches ``units`` arrivals."""
    r0, r1, span = ramp.from_rate, rate, ramp.duration_s
    if units <= 0:
        return 0.0
    ramped = (r0 + r1) * span / 2  # arrivals due during the ramp
    if units > ramped:
        return span + (units - ramped) / r1
    slope = (r1 - r0) / (2 * span)
    # t = (-r0 + sqrt(r0² + 4·slope·u)) / (2·slope), rationalised: exact as slope -> 0
    return 2 * units / (r0 + math.sqrt(max(0.0, r0 * r0 + 4 * slope * units)))


def arrival_times(
    rate: float,
    arrival: str,
    seed: int,
    cv: float | None = None,
    ramp: RampParams | None = None,
) -> Iterator[float]:
    """Send offsets in seconds from the level's start: 0, then cumulative gaps (endless)."""
    if rate <= 0:
        raise ValueError(f"rate must be positive, got {rate}")
    gaps = unit_gaps(arrival, seed, cv)
    at = units = 0.0
    while True:
        yield round(ramp_time(units, rate, ramp) if ramp else at, DIGITS)
        gap = next(gaps)
        units += gap
        at += gap / rate


@dataclass(frozen=True)
class Slot:
    """One entry of a level's schedule."""

    index: int
    warmup: bool
    offset_s: float


def rate_schedule(
    rate: float, load: LoadParams, default_requests: int, times: Iterator[float] | None = None
) -> list[Slot]:
    """The whole schedule of one rate level: warm-up slots first, then the measured ones.
    ``times`` are the send offsets (a trace's); by default the arrival process's."""
    if times is None:
        times = arrival_times(rate, load.arrival, load.seed, load.cv, load.ramp)
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
