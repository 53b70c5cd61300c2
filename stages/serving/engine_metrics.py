"""Every engine's ``/metrics`` as one set of figures (issue 33).

vLLM, SGLang, TGI and llama.cpp name the same facts differently; :data:`DIALECTS` maps each
engine's documented names (and types) to six figures, read from two scrapes around a pass (or a
load level) and the gauge samples taken during it:

- ``requests_running`` and ``requests_waiting`` (gauges, ``{max, mean}`` over the samples);
- ``kv_cache_usage`` (gauge, the share of the KV cache in use, 0–1);
- ``prompt_tokens_all`` and ``generation_tokens`` (counter differences): every prompt token of
  the pass's requests, cached ones included, and every generated token;
- ``prefix_cache_hits`` / ``prefix_cache_queries`` (counter differences, in tokens) and their
  ratio ``prefix_cache_hit_rate``: the share of prompt tokens the server took from its cache
  during this pass only, not since it started (``prefix_cache_hit_rate_from: counters``). SGLang
  servers without the cached-token counter give the mean of their own ``cache_hit_rate`` gauge
  over the pass instead (``from: gauge``), a rolling figure of recent batches.

A figure the engine does not expose is null and ``unavailable`` says why. Where each name comes
from: vLLM's metrics design doc and production metrics page, SGLang's production metrics page,
TGI's metrics reference, llama.cpp's server README (and the page the embedded build serves); the
table is repeated in docs/serving.md ("Every engine's metrics").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stages.serving.prometheus_page import Page

Sum = tuple[str, ...]
"""Counters whose differences are added up into one figure."""


@dataclass(frozen=True)
class Dialect:
    """One engine's names for the figures; each figure lists alternatives, the first present
    wins (an engine renamed some between versions)."""

    name: str
    """``vllm``, ``sglang``, ``tgi`` or ``llamacpp``: what ``metrics_dialect`` says."""
    prefix: str
    """What every one of the engine's metric names starts with."""
    requests_running: tuple[str, ...]
    """Gauge: requests being computed now."""
    requests_waiting: tuple[str, ...]
    """Gauge: requests queued for a slot or a batch."""
    kv_cache_usage: tuple[str, ...]
    """Gauge: share of the KV cache in use (0–1)."""
    prompt_tokens_all: tuple[Sum, ...]
    """Counters: prompt tokens, cached ones included."""
    generation_tokens: tuple[Sum, ...]
    """Counters: generated tokens."""
    prefix_cache_hits: tuple[Sum, ...]
    """Counters: prompt tokens found in the prefix cache."""
    prefix_cache_queries: tuple[Sum, ...]
    """Counters: prompt tokens looked up in the prefix cache."""
    hit_rate_gauge: str | None = None
    """The engine's own hit-rate gauge, used when the counters are missing."""
    notes: dict[str, str] = field(default_factory=dict)
    """Why a figure is missing on this engine, where more can be said than its absent names
    (``prefix_cache``: the three prefix-cache figures at once)."""


_LLAMA_PROMPT = ("llamacpp:prompt_tokens", "llamacpp:prompt_tokens_cached")
DIALECTS = (
    Dialect(
        "vllm", "vllm:", ("vllm:num_requests_running",), ("vllm:num_requests_waiting",),
        ("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"),
        (("vllm:prompt_tokens",),), (("vllm:generation_tokens",),),
        (("vllm:prefix_cache_hits",), ("vllm:gpu_prefix_cache_hits",)),
        (("vllm:prefix_cache_queries",), ("vllm:gpu_prefix_cache_queries",)),
    ),
    Dialect(
        "sglang", "sglang:", ("sglang:num_running_reqs",), ("sglang:num_queue_reqs",),
        ("sglang:token_usage",), (("sglang:prompt_tokens",),), (("sglang:generation_tokens",),),
        (("sglang:cached_tokens",),), (("sglang:prompt_tokens",),),
        hit_rate_gauge="sglang:cache_hit_rate",
    ),
    Dialect(
        "tgi", "tgi_", ("tgi_batch_current_size",), ("tgi_queue_size",), (),
        (("tgi_request_input_length_sum",),), (("tgi_request_generated_tokens_sum",),), (), (),
        notes={
            "kv_cache_usage": "TGI's /metrics has no KV-cache usage gauge",
            "prefix_cache": "TGI's /metrics counts no prefix-cache hits",
        },
    ),
    Dialect(
        "llamacpp", "llamacpp:", ("llamacpp:requests_processing",),
        ("llamacpp:requests_deferred",), ("llamacpp:kv_cache_usage_ratio",),
        (_LLAMA_PROMPT,), (("llamacpp:tokens_predicted",),),
        (("llamacpp:prompt_tokens_cached",),), (_LLAMA_PROMPT,),
        notes={
            "kv_cache_usage": "this llama-server has no llamacpp:kv_cache_usage_ratio (newer "
            "builds dropped it); sequence_share_of_slot_max is the nearest figure",
        },
    ),
)  # fmt: skip


def dialect_of(page: Page) -> Dialect | None:
    """The engine whose names the page uses, or None when it uses none of the four."""
    for dialect in DIALECTS:
        if any(name.startswith(dialect.prefix) for name in page):
            return dialect
    return None


def gauge_summary(samples: list[float]) -> dict[str, Any]:
    """``{max, mean}`` of a gauge's samples (nulls without samples)."""
    return {
        "max": max(samples) if samples else None,
        "mean": round(sum(samples) / len(samples), 3) if samples else None,
    }


def counter_delta(before: Page, after: Page, alternatives: tuple[Sum, ...]) -> float | None:
    """The first alternative's difference between the scrapes (a series absent before counts
    from 0: a labelled counter appears at its first increment, SGLang's per cache source); None
    when no alternative has all its counters on the page after, or a counter went back (the
    server restarted meanwhile)."""
    for names in alternatives:
        if all(name in after for name in names):
            deltas = [after[name] - before.get(name, 0.0) for name in names]
            return sum(deltas) if min(deltas) >= 0 else None
    return None


class _Reader:
    def __init__(self, dialect: Dialect, before: Page, after: Page, samples: list[Page]) -> None:
        self.dialect, self.before, self.after, self.samples = dialect, before, after, samples
        self.unavailable: dict[str, str] = {}

    def missing(self, figure: str, names: list[str]) -> None:
        notes = self.dialect.notes
        note = notes.get(figure) or (notes.get("prefix_cache") if "prefix" in figure else None)
        self.unavailable[figure] = note or f"the page has no {' or '.join(names)}"

    def gauge(self, figure: str) -> dict[str, Any] | None:
        names = getattr(self.dialect, figure)
        for name in names:
            if name in self.after:
                return gauge_summary([s[name] for s in self.samples if name in s])
        self.missing(figure, list(names))
        return None

    def counter(self, figure: str) -> int | None:
        alternatives: tuple[Sum, ...] = getattr(self.dialect, figure)
        delta = counter_delta(self.before, self.after, alternatives)
        if delta is None:
            if any(all(n in self.after for n in names) for names in alternatives):
                self.unavailable[figure] = "a counter went back: the server restarted"
            else:
                self.missing(figure, [" + ".join(names) for names in alternatives])
            return None
        return round(delta)


def engine_figures(before: Page, after: Page, samples: list[Page]) -> dict[str, Any]:
    """The six common figures of a pass (``samples``: every scrape, both ends included); an
    empty dict when the page is no known engine's."""
    dialect = dialect_of(after)
    if dialect is None:
        return {}
    read = _Reader(dialect, before, after, samples)
    block: dict[str, Any] = {"metrics_dialect": dialect.name}
    for figure in ("requests_running", "requests_waiting", "kv_cache_usage"):
        block[figure] = read.gauge(figure)
    for figure in ("prompt_tokens_all", "generation_tokens"):
        block[figure] = read.counter(figure)
    hits, queries = read.counter("prefix_cache_hits"), read.counter("prefix_cache_queries")
    rate, source, gauge = None, None, dialect.hit_rate_gauge
    during = [s[gauge] for s in samples[1:] if gauge in s] if gauge else []
    if hits is not None and queries:
        rate, source = round(hits / queries, 4), "counters"
    elif hits is None and during:  # SGLang without its cached-token counter
        rate, source = gauge_summary(during)["mean"], "gauge"
    elif hits is not None and queries == 0:
        read.unavailable["prefix_cache_hit_rate"] = "no prompt token was looked up in the pass"
    else:  # the reason of its missing counters
        missing = read.unavailable
        missing["prefix_cache_hit_rate"] = (
            missing.get("prefix_cache_hits") or missing.get("prefix_cache_queries") or ""
        )
    block.update(
        prefix_cache_hits=hits,
        prefix_cache_queries=queries,
        prefix_cache_hit_rate=rate,
        prefix_cache_hit_rate_from=source,
        unavailable=dict(sorted(read.unavailable.items())),
    )
    return block
