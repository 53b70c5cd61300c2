"""The figures of one load level, from its journal records alone (issue 14, "Outputs").

Warm-up records are journaled but left out of every figure (``warmup_excluded`` counts them).
Measured records carry their segment (one per invocation that sent part of the level; with
``repeats``, per run of the level) and times on that segment's clock, so a level resumed after a
kill is still measured exactly: its duration is the sum over segments of (last measured answer −
first measured scheduled send), and a rerun that sends nothing recomputes the same figures. Rates
are per second of that duration: ``requests_per_s`` (successful requests), ``output_tokens_per_s``,
and goodput. In rate mode ``achieved_rate`` is the send rate of the measured sessions' first turns,
(n − 1) / (last send − first send), summed over segments; it shows whether the client kept the
offered rate. Latency figures follow :mod:`stages.inference.definitions`; with ``multi_turn``,
``turns`` gives TTFT per turn index."""

from __future__ import annotations

from collections import Counter
from typing import Any

from stages.inference.definitions import (
    DIGITS,
    distribution,
    latency_figures,
    timing,
    token_counts,
)
from stages.params import LoadParams, SloParams
from stages.serving.channel_figures import channel_figures
from stages.serving.engine_figures import engine_block
from stages.serving.slo import goodput

Record = dict[str, Any]


def _by_segment(records: list[Record]) -> dict[tuple[int, int], list[Record]]:
    """Records by (run of the level's repeats, segment): each has a clock of its own."""
    groups: dict[tuple[int, int], list[Record]] = {}
    for record in records:
        clock = (int(record.get("trial", 0)), int(record.get("segment", 0)))
        groups.setdefault(clock, []).append(record)
    return groups


def duration_s(measured: list[Record]) -> float | None:
    """Sum over segments of last ``done_s`` − first ``scheduled_s`` of the measured records."""
    total = 0.0
    for group in _by_segment(measured).values():
        total += max(r["done_s"] for r in group) - min(r["scheduled_s"] for r in group)
    return round(total, DIGITS) if measured and total > 0 else None


def achieved_rate(measured: list[Record]) -> float | None:
    """Send rate of the sessions' first turns: sum of (n − 1) over sum of send spans."""
    starts = [r for r in measured if int(r.get("turn", 0)) == 0]
    gaps = span = 0.0
    for group in _by_segment(starts).values():
        sent = sorted(r["sent_s"] for r in group)
        gaps += len(sent) - 1
        span += sent[-1] - sent[0]
    return round(gaps / span, DIGITS) if span > 0 else None


def _per_s(count: float, seconds: float | None) -> float | None:
    return round(count / seconds, DIGITS) if seconds else None


def level_metrics(
    records: list[Record], load: LoadParams, level: float, slo: SloParams | None
) -> dict[str, Any]:
    """Every figure of one level; ``records`` are the level's records of this run."""
    measured = [r for r in records if r.get("phase") == "measure"]
    timings = [timing(r) for r in measured]
    failures = Counter(r["error"]["kind"] for r in measured if r.get("error"))
    seconds = duration_s(measured)
    tokens = token_counts(timings)
    block: dict[str, Any] = (
        {"concurrency": int(level)}
        if load.mode == "concurrency"
        else {
            "offered_rate": level,
            "arrival": load.arrival,
            "achieved_rate": achieved_rate(measured),
        }
    )
    block.update(
        requests=len(measured),
        requests_failed=sum(failures.values()),
        failures_by_kind=dict(sorted(failures.items())),
        warmup_excluded=sum(r.get("phase") == "warmup" for r in records),
        segments=len(_by_segment(measured)),
        duration_s=seconds,
        requests_per_s=_per_s(len(measured) - sum(failures.values()), seconds),
        output_tokens_per_s=_per_s(tokens["total"], seconds),
        output_tokens=tokens,
        **latency_figures(timings, scheduled=True),
        **channel_figures(timings, scheduled=True),
        engine=engine_block(measured),
    )
    if slo is not None:
        block["goodput"] = goodput(timings, slo, seconds)
    if load.multi_turn:
        turns: dict[int, list[float]] = {}
        for record, t in zip(measured, timings, strict=True):
            if t.ttft_s is not None:
                turns.setdefault(int(record.get("turn", 0)), []).append(t.ttft_s)
        block["turns"] = {str(k): {"ttft_s": distribution(v)} for k, v in sorted(turns.items())}
    return block
