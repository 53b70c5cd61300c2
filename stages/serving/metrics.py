"""The main pass's serving figures: the ``main`` block of ``metrics/<workload>.serving.json``.

Issue 3 "Serving metrics", issue 6, issue 14. Computed from the journal records of the run (all
of them, including those finished by an earlier interrupted invocation), except the two rates that
need a wall clock — ``requests_per_s`` and the aggregate output tokens/s — which cover the
requests sent by this invocation (null when it sent none). TTFT, TPOT, ITL, E2E (``latency_s``),
output tokens and percentiles are as defined in :mod:`stages.inference.definitions`; records
written before journals had ``token_s`` have no gaps to pool, and then ITL falls back to the
per-request summaries (median of the per-request p50s, p99 of the per-request p99s), which
``itl_s.pooled: false`` says. ``input_tokens_total`` and ``output_tokens_total`` are
engine-reported figures only (null when the engine reported none; ``usage_reported`` counts the
records that had one); ``engine`` holds the engine's own timings beside the client's
(:mod:`stages.serving.engine_figures`) and ``server`` what its ``/metrics`` say
(:mod:`stages.serving.server_metrics`). When a request thought, TTFA and the figures of the
reasoning and answer channels are added (:mod:`stages.serving.channel_figures`). Everything is a
dict: DVC drops lists. The load levels (concurrency and rate sweeps) are in
:mod:`stages.serving.load`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from stages.inference.definitions import (
    Timing,
    Timings,
    latency_figures,
    percentile,
    timing,
    token_counts,
)
from stages.serving.channel_figures import channel_figures
from stages.serving.engine_figures import engine_block, tokens_per_approx

__all__ = ["bucket_metrics", "latency_block", "output_tokens", "percentile", "serving_metrics"]


def output_tokens(record: dict[str, Any]) -> int | None:
    """Engine-reported completion tokens, else the number of streamed token deltas."""
    return timing({**record, "error": None}).output_tokens


def _tps(t: Timing) -> float | None:
    tokens, latency = t.output_tokens, t.latency_s
    return tokens / latency if tokens is not None and latency else None


def _total(usages: list[dict[str, Any]], field: str) -> int | None:
    """Sum of an engine-reported count; None (not 0) when the engine reported no usage at all."""
    return sum(int(u.get(field) or 0) for u in usages) if usages else None


def latency_block(
    records: list[dict[str, Any]], timings: list[Timing] | None = None
) -> dict[str, Any]:
    """TTFT, TPOT, ITL, E2E and per-request output tokens/s of successful records (``timings``:
    each record's, when the caller has them already)."""
    ok = [r for r in records if r.get("error") is None]
    times = [t for t in timings if t.ok] if timings is not None else [timing(r) for r in ok]
    block = latency_figures(times)
    block.update(channel_figures(times))  # issue 33: only when a request thought
    if any(r.get("ttft_s") is not None and "token_s" not in r for r in ok):
        itl = [r["itl_s"] for r in ok if r.get("itl_s")]
        block["itl_s"] = {
            "pooled": False,
            "p50": percentile([s["p50"] for s in itl], 50),
            "p99": percentile([s["p99"] for s in itl], 99),
        }
    tps = [v for v in (_tps(t) for t in times) if v is not None]
    block["output_tokens_per_s"] = {"per_request_p50": percentile(tps, 50)}
    return block


def serving_metrics(
    records: list[dict[str, Any]],
    fresh: list[dict[str, Any]],
    wall_s: float,
    concurrency: int,
    known: Timings | None = None,
) -> dict[str, Any]:
    """The metrics of one pass over ``records``; ``fresh`` finished in ``wall_s`` seconds now
    (``known``: the records' timings computed so far, filled in for the others)."""
    known = known or Timings()
    failures = Counter(r["error"]["kind"] for r in records if r.get("error"))
    usages = [r["usage"] for r in records if isinstance(r.get("usage"), dict)]
    sent = len(fresh)
    fresh_tokens = sum(known.of(r).output_tokens or 0 for r in fresh if r.get("error") is None)
    timings = [known.of(r) for r in records]
    metrics = latency_block(records, timings)
    metrics["output_tokens_per_s"]["aggregate"] = (
        round(fresh_tokens / wall_s, 3) if sent and wall_s > 0 else None
    )
    metrics.update(
        concurrency=concurrency,
        requests=len(records),
        requests_failed=sum(failures.values()),
        failures_by_kind=dict(sorted(failures.items())),
        requests_per_s=round(sent / wall_s, 3) if sent and wall_s > 0 else None,
        input_tokens_total=_total(usages, "prompt_tokens"),
        output_tokens_total=_total(usages, "completion_tokens"),
        usage_reported=len(usages),
        output_tokens=token_counts(timings),
        engine=engine_block(records),
    )
    return metrics


def bucket_metrics(
    records: list[dict[str, Any]], bucket_of: dict[str, str], approx_of: dict[str, int]
) -> dict[str, Any]:
    """Per length bucket of a perf workload: ``{bucket: {ttft_p50, ttft_p90, itl_p50, ...}}``,
    with ``prompt_tokens_per_approx``: the engine's prompt tokens over the rows' nominal size."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        groups.setdefault(bucket_of.get(record["id"], "unknown"), []).append(record)
    out: dict[str, Any] = {}
    for bucket in sorted(groups):
        block = latency_block(groups[bucket])
        out[bucket] = {
            "ttft_p50": block["ttft_s"]["p50"],
            "ttft_p90": block["ttft_s"]["p90"],
            "itl_p50": block["itl_s"]["p50"],
            "output_tps_p50": block["output_tokens_per_s"]["per_request_p50"],
            "prompt_tokens_per_approx": tokens_per_approx(groups[bucket], approx_of),
            "n": len(groups[bucket]),
        }
    return out
