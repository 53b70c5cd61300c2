"""Prometheus pages of four engines for the same traffic (issue 33), written in each engine's
documented metric names and types, as each one's exporter renders them.

- vLLM (docs/design/metrics.md, "v1 Metrics", and the production metrics page): gauges
  ``vllm:num_requests_running``, ``vllm:num_requests_waiting``, ``vllm:kv_cache_usage_perc``
  (0–1); counters ``vllm:prompt_tokens``, ``vllm:generation_tokens``,
  ``vllm:prefix_cache_queries`` and ``vllm:prefix_cache_hits`` (both in tokens). vLLM exports
  with ``prometheus_client``: a counter's samples and TYPE line end in ``_total``, a
  ``_created`` gauge stands beside it, every sample has ``model_name`` and ``engine`` labels.
- SGLang (docs/references/production_metrics.md): gauges ``sglang:num_running_reqs``,
  ``sglang:num_queue_reqs``, ``sglang:token_usage``, ``sglang:cache_hit_rate``; counters
  ``sglang:prompt_tokens_total``, ``sglang:generation_tokens_total`` and
  ``sglang:cached_tokens_total`` (per ``cache_source``); also ``prometheus_client``.
- TGI (docs/source/reference/metrics.md): gauges ``tgi_batch_current_size`` and
  ``tgi_queue_size``; histograms ``tgi_request_input_length`` and
  ``tgi_request_generated_tokens`` (tokens per request); counter ``tgi_request_count``. Its Rust
  exporter writes counters without ``_total``.
- llama.cpp (tools/server/README.md, "GET /metrics", and the page the embedded llama-server
  serves): counters ``llamacpp:prompt_tokens_total`` (computed, cache hits excluded),
  ``llamacpp:prompt_tokens_cached_total``, ``llamacpp:tokens_predicted_total``, and
  ``llamacpp:n_tokens_max`` typed counter without ``_total``; gauges
  ``llamacpp:requests_processing`` and ``llamacpp:requests_deferred``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Traffic:
    """What a server has done so far, and what it holds now."""

    prompt: int
    """Prompt tokens of all requests, cached ones included."""
    cached: int
    """Of those, tokens found in the prefix cache."""
    generated: int
    running: int
    waiting: int
    kv: float
    """Share of the KV cache in use."""
    requests: int = 0


def _family(name: str, kind: str, rows: list[tuple[str, float]], help_: str = "") -> str:
    lines = [f"# HELP {name} {help_ or name}", f"# TYPE {name} {kind}"]
    lines += [f"{name}{labels} {value}" for labels, value in rows]
    return "\n".join(lines) + "\n"


def _engines(name: str, kind: str, total: float, help_: str, share: bool = False) -> str:
    """One family split over vLLM's two engines (a share is the same on both)."""
    first = total if share else total - total // 2
    second = total if share else total // 2
    rows = [
        ('{engine="0",model_name="m"}', float(first)),
        ('{engine="1",model_name="m"}', float(second)),
    ]
    text = _family(name, kind, rows, help_)
    if kind == "counter":  # prometheus_client's creation time beside every counter
        created = name.removesuffix("_total") + "_created"
        text += _family(created, "gauge", [(labels, 1.7e9) for labels, _ in rows], help_)
    return text


def vllm_page(t: Traffic) -> str:
    return (
        _engines("vllm:num_requests_running", "gauge", t.running, "Running requests.")
        + _engines("vllm:num_requests_waiting", "gauge", t.waiting, "Waiting requests.")
        + _engines("vllm:kv_cache_usage_perc", "gauge", t.kv, "KV-cache usage.", share=True)
        + _engines("vllm:prompt_tokens_total", "counter", t.prompt, "Prefill tokens.")
        + _engines("vllm:generation_tokens_total", "counter", t.generated, "Generated tokens.")
        + _engines("vllm:prefix_cache_queries_total", "counter", t.prompt, "Queried tokens.")
        + _engines("vllm:prefix_cache_hits_total", "counter", t.cached, "Cached tokens.")
        + _family(
            "vllm:time_to_first_token_seconds",
            "histogram",
            [
                ('_bucket{le="0.1",model_name="m"}', 2.0),
                ('_bucket{le="+Inf",model_name="m"}', 9),
                ('_sum{model_name="m"}', 4.5),
                ('_count{model_name="m"}', 9.0),
            ],
        )  # fmt: skip
    )


def sglang_page(t: Traffic, counters: bool = True, hit_rate: float = 0.0) -> str:
    m = '{model_name="m"}'
    cached = [
        ('{cache_source="device",model_name="m"}', t.cached - t.cached // 10),
        ('{cache_source="host",model_name="m"}', t.cached // 10),
    ]
    return (
        _family("sglang:num_running_reqs", "gauge", [(m, t.running)])
        + _family("sglang:num_queue_reqs", "gauge", [(m, t.waiting)])
        + _family("sglang:token_usage", "gauge", [(m, t.kv)])
        + _family("sglang:cache_hit_rate", "gauge", [(m, hit_rate)])
        + _family("sglang:prompt_tokens_total", "counter", [(m, t.prompt)])
        + _family("sglang:generation_tokens_total", "counter", [(m, t.generated)])
        + (_family("sglang:cached_tokens_total", "counter", cached) if counters else "")
    )


def tgi_page(t: Traffic) -> str:
    def histogram(name: str, total: int) -> str:
        rows = [('_bucket{le="1024.0"}', t.requests), ('_bucket{le="+Inf"}', t.requests),
                ("_sum", total), ("_count", t.requests)]  # fmt: skip
        return f"# TYPE {name} histogram\n" + "".join(f"{name}{s} {v}\n" for s, v in rows)

    return (
        f"# TYPE tgi_batch_current_size gauge\ntgi_batch_current_size {t.running}\n"
        f"# TYPE tgi_queue_size gauge\ntgi_queue_size {t.waiting}\n"
        f"# TYPE tgi_request_count counter\ntgi_request_count {t.requests}\n"
        + histogram("tgi_request_input_length", t.prompt)
        + histogram("tgi_request_generated_tokens", t.generated)
    )


def llamacpp_page(t: Traffic) -> str:
    return (
        _family("llamacpp:prompt_tokens_total", "counter", [("", t.prompt - t.cached)])
        + _family("llamacpp:prompt_tokens_cached_total", "counter", [("", t.cached)])
        + _family("llamacpp:tokens_predicted_total", "counter", [("", t.generated)])
        + _family("llamacpp:n_decode_total", "counter", [("", t.generated)])
        + _family("llamacpp:n_tokens_max", "counter", [("", 512)])
        + _family("llamacpp:requests_processing", "gauge", [("", t.running)])
        + _family("llamacpp:requests_deferred", "gauge", [("", t.waiting)])
        + _family("llamacpp:n_busy_slots_per_decode", "gauge", [("", 1)])
    )


PAGES = {"vllm": vllm_page, "sglang": sglang_page, "tgi": tgi_page, "llamacpp": llamacpp_page}
