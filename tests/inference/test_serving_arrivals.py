"""Open-loop arrival schedules: exact for a seed, Poisson statistics, warm-up and window."""

from __future__ import annotations

import math
import re
import statistics
from itertools import islice
from pathlib import Path

import pytest
import yaml

from stages.errors import AtlasError
from stages.params import LoadParams, WorkloadParams, section
from stages.serving.arrivals import Slot, arrival_times, rate_schedule


def _take(n: int, rate: float, arrival: str, seed: int) -> list[float]:
    return list(islice(arrival_times(rate, arrival, seed), n))


def test_schedule_is_exact_for_a_seed_and_scales_with_the_rate() -> None:
    assert _take(5, 2.0, "poisson", 7) == [0.0, 0.195657422, 0.277416651, 0.80366446, 0.841261356]
    # the same unit-rate draws, halved: every rate of a sweep replays one sequence
    assert _take(5, 4.0, "poisson", 7) == [0.0, 0.097828711, 0.138708325, 0.40183223, 0.420630678]
    assert _take(5, 4.0, "poisson", 7) == _take(5, 4.0, "poisson", 7)
    assert _take(3, 4.0, "poisson", 8) != _take(3, 4.0, "poisson", 7)
    assert _take(5, 4.0, "constant", 7) == [0.0, 0.25, 0.5, 0.75, 1.0]


def test_poisson_gaps_have_mean_and_variance_of_an_exponential() -> None:
    """20,000 gaps at 50 req/s. Tolerance: three standard errors of each estimate — the mean
    of n exponential gaps has SE (1/rate)/sqrt(n) (0.71 %), their variance SE
    (1/rate)^2 * sqrt(8/n) (2 %) — so 2.2 % on the mean and 6 % on the variance."""
    rate, n = 50.0, 20_000
    times = _take(n + 1, rate, "poisson", 12345)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert statistics.fmean(gaps) == pytest.approx(1 / rate, rel=0.022)
    assert statistics.variance(gaps) == pytest.approx(1 / rate**2, rel=0.06)
    # counts per one-second window: Poisson(50), mean = variance (index of dispersion ~ 1)
    counts = [0] * math.floor(times[-1])
    for at in times:
        if at < len(counts):
            counts[int(at)] += 1
    assert statistics.fmean(counts) == pytest.approx(rate, rel=0.03)
    assert statistics.variance(counts) / statistics.fmean(counts) == pytest.approx(1.0, abs=0.2)


def test_warmup_by_count_then_requests() -> None:
    load = LoadParams(mode="rate", rates=[2], arrival="constant", warmup_requests=2, requests=3)
    assert rate_schedule(2.0, load, default_requests=9) == [
        Slot(0, True, 0.0),
        Slot(1, True, 0.5),
        Slot(2, False, 1.0),
        Slot(3, False, 1.5),
        Slot(4, False, 2.0),
    ]
    default = LoadParams(mode="rate", rates=[2], arrival="constant")
    assert len(rate_schedule(2.0, default, default_requests=9)) == 9  # the items, once


def test_warmup_window_then_duration_window() -> None:
    load = LoadParams(mode="rate", rates=[4], arrival="constant", warmup_s=0.5, duration_s=1.0)
    slots = rate_schedule(4.0, load, default_requests=99)
    assert [(s.warmup, s.offset_s) for s in slots] == [
        (True, 0.0),
        (True, 0.25),
        (False, 0.5),
        (False, 0.75),
        (False, 1.0),
        (False, 1.25),
    ]


@pytest.mark.parametrize(
    ("load", "message"),
    [
        ({"mode": "rate"}, "needs a non-empty 'rates' list"),
        ({"mode": "rate", "rates": [1], "levels": [2]}, "'levels' belongs to the other mode"),
        ({"mode": "rate", "rates": [0]}, "rates must be positive"),
        ({"mode": "rate", "rates": [1, 1.0]}, "'rates' lists a level twice"),
        ({"mode": "concurrency", "levels": [1], "duration_s": 5}, "need mode rate"),
        ({"mode": "rate", "rates": [1], "requests": 3, "duration_s": 2}, "not both"),
        (
            {"mode": "rate", "rates": [1], "arrival": "bursty"},
            "'poisson', 'constant', 'gamma' or 'trace'",
        ),
    ],
)
def test_load_params_errors_name_the_field(
    load: dict[str, object], message: str, tmp_path: Path
) -> None:
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump({"workloads": {"w": {"dataset": "prompts-t-v1", "load": load}}}))
    with pytest.raises(AtlasError) as caught:
        section(WorkloadParams, "workloads.w", path)
    assert re.match(rf"{re.escape(str(path))}:\d+: workloads\.w\.load", str(caught.value))
    assert message in str(caught.value)
