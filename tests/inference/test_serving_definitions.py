"""The serving definitions, SLO accounting and level figures on hand-made token timelines."""

from __future__ import annotations

from typing import Any

from stages.inference.definitions import latency_figures, timing, token_counts
from stages.params import LoadParams, SloParams
from stages.serving.level_metrics import level_metrics
from stages.serving.slo import goodput, knee, meets


def _dist(n: int, mean: float | None, *ps: float | None) -> dict[str, Any]:
    return {"n": n, "mean": mean, "p50": ps[0], "p90": ps[1], "p95": ps[2], "p99": ps[3]}


def _record(scheduled: float, sent: float, **fields: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"usage": None, "error": None, "scheduled_s": scheduled,
                              "sent_s": sent}  # fmt: skip
    record.update(fields)
    return record


# A: no usage, four deltas; B: usage 5, two deltas in one read (gap 0); C: one token; D: failed.
A = _record(0.0, 0.01, ttft_s=0.2, latency_s=0.41, token_s=[0.2, 0.25, 0.3, 0.4])
B = _record(0.5, 0.5, ttft_s=0.1, latency_s=0.35, token_s=[0.1, 0.1, 0.3],
            usage={"completion_tokens": 5})  # fmt: skip
C = _record(1.0, 1.05, ttft_s=0.3, latency_s=0.3, token_s=[0.3], usage={"completion_tokens": 1})
D = _record(1.5, 1.5, ttft_s=None, latency_s=None, error={"kind": "timeout", "message": "x"})
TIMELINE = [A, B, C, D]


def test_per_request_definitions() -> None:
    a, b, c, d = (timing(r) for r in TIMELINE)
    assert (a.ttft_s, a.latency_s, a.output_tokens, a.tokens_from) == (0.2, 0.41, 4, "deltas")
    assert round(a.tpot_s or 0, 9) == 0.07  # (0.41 - 0.2) / (4 - 1)
    assert [round(g, 9) for g in a.gaps_s] == [0.05, 0.05, 0.1]
    assert round(a.lag_s or 0, 9) == 0.01
    assert round(a.ttft_from_scheduled_s or 0, 9) == 0.21
    assert round(a.latency_from_scheduled_s or 0, 9) == 0.42
    assert (b.output_tokens, b.tokens_from) == (5, "usage")
    assert round(b.tpot_s or 0, 9) == 0.0625  # (0.35 - 0.1) / (5 - 1): usage wins over deltas
    assert [round(g, 9) for g in b.gaps_s] == [0.0, 0.2]
    assert c.tpot_s is None  # one output token: no TPOT
    assert not d.ok and round(d.lag_s or 0, 9) == 0.0 and d.ttft_s is None


def test_distributions_pool_itl_and_measure_from_the_scheduled_send() -> None:
    figures = latency_figures([timing(r) for r in TIMELINE], scheduled=True)
    assert figures == {
        "ttft_s": _dist(3, 0.2, 0.2, 0.28, 0.29, 0.298),
        "tpot_s": _dist(2, 0.06625, 0.06625, 0.06925, 0.069625, 0.069925),
        "itl_s": _dist(5, 0.08, 0.05, 0.16, 0.18, 0.196),
        "latency_s": _dist(3, 0.353333, 0.35, 0.398, 0.404, 0.4088),
        "ttft_from_scheduled_s": _dist(3, 0.22, 0.21, 0.322, 0.336, 0.3472),
        "latency_from_scheduled_s": _dist(3, 0.373333, 0.35, 0.406, 0.413, 0.4186),
        # the failed request was sent too: its lag counts
        "schedule_lag_s": {**_dist(4, 0.015, 0.005, 0.038, 0.044, 0.0488), "max": 0.05},
    }
    assert token_counts([timing(r) for r in TIMELINE]) == {
        "total": 10,
        "from_usage": 2,
        "from_timings": 0,
        "from_deltas": 1,
    }
    assert latency_figures([]) == {
        name: _dist(0, None, None, None, None, None)
        for name in ("ttft_s", "tpot_s", "itl_s", "latency_s")
    }


def test_slo_accounting_and_goodput() -> None:
    slo = SloParams(ttft_s=0.25, tpot_s=0.065, e2e_s=0.4)
    a, b, c, d = (timing(r) for r in TIMELINE)
    assert meets(a, slo) == {"ttft_s": True, "tpot_s": False, "e2e_s": False}  # 0.21, 0.07, 0.42
    assert meets(b, slo) == {"ttft_s": True, "tpot_s": True, "e2e_s": True}
    # one token: TPOT counts as 0; TTFT from the scheduled send is 0.35 (lag 0.05)
    assert meets(c, slo) == {"ttft_s": False, "tpot_s": True, "e2e_s": True}
    assert meets(d, slo) == {"ttft_s": False, "tpot_s": False, "e2e_s": False}
    assert goodput([a, b, c, d], slo, duration_s=2.0) == {
        "slo": {"ttft_s": 0.25, "tpot_s": 0.065, "e2e_s": 0.4},
        "good": 1,
        "share": 0.25,
        "requests_per_s": 0.5,
        "met": {"ttft_s": 0.5, "tpot_s": 0.5, "e2e_s": 0.5},
    }
    only_ttft = SloParams(ttft_s=0.25)
    assert goodput([a, b], only_ttft, None) == {
        "slo": {"ttft_s": 0.25},
        "good": 2,
        "share": 1.0,
        "requests_per_s": None,
        "met": {"ttft_s": 1.0},
    }


def test_knee_is_the_highest_rate_before_the_first_miss() -> None:
    shares: dict[float, float | None] = {0.5: 1.0, 1.0: 0.95, 2.0: 0.5, 4.0: 0.92}
    assert knee(shares, 0.9) == {"goodput_target": 0.9, "rate": 1.0}
    assert knee(shares, 0.99) == {"goodput_target": 0.99, "rate": 0.5}
    assert knee({0.5: 0.8, 1.0: None}, 0.9) == {"goodput_target": 0.9, "rate": None}


def _level_record(phase: str, segment: int, scheduled: float, sent: float, done: float) -> Any:
    return _record(scheduled, sent, phase=phase, segment=segment, done_s=done, ttft_s=0.1,
                   latency_s=round(done - sent, 6), token_s=[0.1, 0.2])  # fmt: skip


def test_level_figures_exclude_warmup_and_add_resumed_segments() -> None:
    records = [
        _level_record("warmup", 0, 0.0, 0.0, 0.4),
        _level_record("warmup", 0, 0.1, 0.1, 0.6),
        _level_record("measure", 0, 0.5, 0.5, 1.5),
        _level_record("measure", 0, 1.0, 1.0, 1.7),
        # killed, then resumed: a new segment with its own clock
        _level_record("measure", 1, 0.0, 0.01, 0.5),
        _level_record("measure", 1, 0.25, 0.26, 0.8),
        _level_record("measure", 1, 0.5, 0.52, 1.0),
    ]
    load = LoadParams(mode="rate", rates=[2], warmup_requests=2, requests=5)
    block = level_metrics(records, load, 2.0, SloParams(e2e_s=0.6))
    # duration (1.7 - 0.5) + (1.0 - 0.0); sends: 1 gap in 0.5 s, then 2 gaps in 0.51 s
    assert block["duration_s"] == 2.2
    assert block["achieved_rate"] == 2.970297  # 3 / 1.01
    assert (block["requests"], block["warmup_excluded"], block["segments"]) == (5, 2, 2)
    assert block["requests_per_s"] == 2.272727  # 5 / 2.2
    assert block["output_tokens"] == {
        "total": 10,
        "from_usage": 0,
        "from_timings": 0,
        "from_deltas": 5,
    }
    assert block["output_tokens_per_s"] == 4.545455
    # E2E from the scheduled send: 1.0, 0.7, 0.5, 0.55, 0.5 -> three meet 0.6
    assert block["goodput"]["good"] == 3 and block["goodput"]["share"] == 0.6
    assert block["goodput"]["requests_per_s"] == 1.363636
    assert block["offered_rate"] == 2.0 and block["arrival"] == "poisson"
