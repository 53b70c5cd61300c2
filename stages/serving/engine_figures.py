"""What the engine reported per request, held against what the client measured (issue 20).

Every successful record carries the engine's ``usage`` (prompt, completion and cached prompt
tokens, streamed with ``stream_options.include_usage``) and, from llama.cpp, its ``timings``:
``prompt_n``/``prompt_ms`` (prompt tokens computed and the time they took; ``cache_n`` more were
reused from the slot's cache) and ``predicted_n``/``predicted_ms`` (generated tokens and their
time). The **client-minus-server gaps** are measured figures per request:

- ``ttft_gap_s`` = client TTFT − ``prompt_ms``: what the client waits for its first token
  beyond the server's prompt computation (queueing for a slot, HTTP, the first token's own
  decode step, event-loop delays);
- ``e2e_gap_s`` = client E2E − (``prompt_ms`` + ``predicted_ms``): the same over the whole
  request.

Each request's ``usage.prompt_tokens_details.cached_tokens`` (any engine that reports it) is
summed per pass and per load level beside the server's own prefix-cache counters (issue 33).

Definitions are repeated in docs/serving.md ("Engine-reported figures").
"""

from __future__ import annotations

from typing import Any

from stages.inference.definitions import distribution

Record = dict[str, Any]


def _num(block: Any, key: str) -> float | None:
    value = block.get(key) if isinstance(block, dict) else None
    return float(value) if isinstance(value, int | float) else None


def cached_tokens(usage: Any) -> int | None:
    """``usage.prompt_tokens_details.cached_tokens``: prompt tokens the engine says it took from
    its cache for one request; None where it does not say (vLLM without
    ``--enable-prompt-tokens-details``, TGI): unknown, which is not 0."""
    details = usage.get("prompt_tokens_details") if isinstance(usage, dict) else None
    value = _num(details, "cached_tokens")
    return int(value) if value is not None else None


def usage_cache(records: list[Record]) -> dict[str, Any]:
    """The cached prompt tokens the successful ``records``' usages report, summed (issue 33):
    ``usage_cached_tokens_total`` (null when none reports it), ``usage_cached_reported`` (how
    many did) and ``usage_cached_share``, their cached over their prompt tokens."""
    cached = prompt = reported = 0
    for record in records:
        usage = record.get("usage")
        count = cached_tokens(usage) if record.get("error") is None else None
        if count is None:
            continue
        reported += 1
        cached += count
        prompt += int(_num(usage, "prompt_tokens") or 0)
    return {
        "usage_cached_tokens_total": cached if reported else None,
        "usage_cached_reported": reported,
        "usage_cached_share": round(cached / prompt, 4) if prompt else None,
    }


def engine_block(records: list[Record]) -> dict[str, Any]:
    """``engine`` figures of a pass: timings distributions and the client-minus-server gaps."""
    ok = [r for r in records if r.get("error") is None]
    timed = [r for r in ok if isinstance(r.get("timings"), dict)]
    prompt_ms, predicted_ms, ttft_gap, e2e_gap = [], [], [], []
    for record in timed:
        t = record["timings"]
        p_ms, g_ms = _num(t, "prompt_ms"), _num(t, "predicted_ms")
        if p_ms is not None:
            prompt_ms.append(p_ms / 1000)
            if record.get("ttft_s") is not None:
                ttft_gap.append(record["ttft_s"] - p_ms / 1000)
        if g_ms is not None:
            predicted_ms.append(g_ms / 1000)
        if p_ms is not None and g_ms is not None and record.get("latency_s") is not None:
            e2e_gap.append(record["latency_s"] - (p_ms + g_ms) / 1000)
    computed = sum(int(_num(r["timings"], "prompt_n") or 0) for r in timed)
    cached = sum(int(_num(r["timings"], "cache_n") or 0) for r in timed)
    return {
        "timings_reported": len(timed),
        "prompt_s": distribution(prompt_ms),
        "predicted_s": distribution(predicted_ms),
        "ttft_gap_s": distribution(ttft_gap),
        "e2e_gap_s": distribution(e2e_gap),
        "prompt_tokens_computed": computed,
        "prompt_tokens_cached": cached,
        "prompt_cache_hit_share": round(cached / (computed + cached), 4)
        if computed + cached
        else None,
        **usage_cache(ok),
    }


def tokens_per_approx(records: list[Record], approx_of: dict[str, int]) -> float | None:
    """Engine prompt tokens (``usage.prompt_tokens``, chat template included) over the rows'
    ``approx_tokens`` (characters / 4), summed over the successful records that have both."""
    engine = approx = 0
    for record in records:
        usage = record.get("usage")
        tokens = _num(usage, "prompt_tokens")
        if record.get("error") is None and tokens is not None and record["id"] in approx_of:
            engine += int(tokens)
            approx += approx_of[record["id"]]
    return round(engine / approx, 4) if approx else None
