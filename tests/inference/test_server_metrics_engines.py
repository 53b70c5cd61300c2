"""Every engine's /metrics (issue 33): vLLM-, SGLang-, TGI- and llama.cpp-style pages of the same
traffic give the same figures, the prefix-cache hit rate from counter differences around a pass,
a figure an engine lacks is null with its reason. Pages: tests/inference/engine_pages.py (each
engine's documented names and types); the key on /metrics: test_server_metrics_key.py."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from engine_pages import PAGES, Traffic, llamacpp_page, sglang_page
from hypothesis import given, settings
from hypothesis import strategies as st
from net_servers import Background, read_request
from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest

from stages.serving.engine_metrics import engine_figures
from stages.serving.server_metrics import figures, parse, scrape

BEFORE = Traffic(prompt=5000, cached=1000, generated=2000, running=0, waiting=0, kv=0.0,
                 requests=20)  # fmt: skip
DURING = Traffic(prompt=5600, cached=1400, generated=2100, running=3, waiting=2, kv=0.25,
                 requests=21)  # fmt: skip
AFTER = Traffic(prompt=6200, cached=1900, generated=2300, running=0, waiting=0, kv=0.05,
                requests=23)  # fmt: skip
# hand-checked: +1200 prompt tokens of which +900 from the cache, +300 generated; gauges over the
# three scrapes: running 0, 3, 0; waiting 0, 2, 0; KV usage 0, 0.25, 0.05
SAME = {
    "requests_running": {"max": 3.0, "mean": 1.0},
    "requests_waiting": {"max": 2.0, "mean": 0.667},
    "prompt_tokens_all": 1200,
    "generation_tokens": 300,
}
CACHE = {
    "prefix_cache_hits": 900,
    "prefix_cache_queries": 1200,
    "prefix_cache_hit_rate": 0.75,
    "prefix_cache_hit_rate_from": "counters",
}
KV = {"max": 0.25, "mean": 0.1}


def _pass(engine: str) -> dict[str, Any]:
    pages = [parse(PAGES[engine](t)) for t in (BEFORE, DURING, AFTER)]
    assert all(page is not None for page in pages)
    before, during, after = pages
    assert before is not None and during is not None and after is not None
    return figures(before, after, [before, during, after], wall_s=2.0, n_ctx=4096)


def test_four_engines_pages_give_the_same_figures_hit_rate_included() -> None:
    blocks = {engine: _pass(engine) for engine in PAGES}
    for engine, block in blocks.items():
        assert block["metrics_dialect"] == engine
        assert {k: block[k] for k in SAME} == SAME, engine
    for engine in ("vllm", "sglang", "llamacpp"):
        assert {k: blocks[engine][k] for k in CACHE} == CACHE, engine
    assert blocks["vllm"]["kv_cache_usage"] == blocks["sglang"]["kv_cache_usage"] == KV
    assert blocks["vllm"]["unavailable"] == blocks["sglang"]["unavailable"] == {}
    # what an engine does not expose is null, with the reason
    tgi = blocks["tgi"]
    assert (tgi["kv_cache_usage"], tgi["prefix_cache_hit_rate"]) == (None, None)
    assert tgi["unavailable"] == {
        "kv_cache_usage": "TGI's /metrics has no KV-cache usage gauge",
        "prefix_cache_hit_rate": "TGI's /metrics counts no prefix-cache hits",
        "prefix_cache_hits": "TGI's /metrics counts no prefix-cache hits",
        "prefix_cache_queries": "TGI's /metrics counts no prefix-cache hits",
    }
    llama = blocks["llamacpp"]
    assert llama["kv_cache_usage"] is None
    assert "llamacpp:kv_cache_usage_ratio" in llama["unavailable"]["kv_cache_usage"]
    # llama.cpp's own figures of issue 20 stay beside them, only on its page
    assert (llama["prompt_tokens"], llama["prompt_tokens_cached"]) == (300, 900)
    assert llama["prompt_cache_hit_share"] == 0.75 and llama["tokens_predicted"] == 300
    assert "prompt_tokens" not in blocks["vllm"] and blocks["vllm"]["wall_s"] == 2.0


def test_sglang_without_its_cached_token_counter_reads_its_hit_rate_gauge() -> None:
    rates = [0.9, 0.6, 0.7]  # the gauge at the three scrapes; the one before the pass is not it
    pages = [parse(sglang_page(t, counters=False, hit_rate=r)) for t, r in
             zip((BEFORE, DURING, AFTER), rates, strict=True)]  # fmt: skip
    before, during, after = pages
    assert before is not None and during is not None and after is not None
    block = engine_figures(before, after, [before, during, after])
    assert (block["prefix_cache_hit_rate"], block["prefix_cache_hit_rate_from"]) == (0.65, "gauge")
    assert (block["prefix_cache_hits"], block["prefix_cache_queries"]) == (None, 1200)
    assert block["unavailable"] == {"prefix_cache_hits": "the page has no sglang:cached_tokens"}


def test_a_counter_that_went_back_and_a_pass_without_prompts() -> None:
    before, after = parse(llamacpp_page(AFTER)), parse(llamacpp_page(BEFORE))
    assert before is not None and after is not None
    block = engine_figures(before, after, [before, after])  # the server restarted meanwhile
    assert block["generation_tokens"] is None and block["prefix_cache_hit_rate"] is None
    assert block["unavailable"]["generation_tokens"] == (
        "a counter went back: the server restarted"
    )
    fresh = parse(sglang_page(AFTER))  # a server's first requests: cached_tokens appears
    assert fresh is not None
    first = {k: v for k, v in fresh.items() if k != "sglang:cached_tokens"}
    assert engine_figures(first, fresh, [first, fresh])["prefix_cache_hits"] == 1900
    idle = engine_figures(before, before, [before, before])
    assert (idle["prefix_cache_queries"], idle["prefix_cache_hit_rate"]) == (0, None)
    assert idle["unavailable"]["prefix_cache_hit_rate"] == (
        "no prompt token was looked up in the pass"
    )


def test_pages_of_no_engine_or_not_prometheus_give_nothing() -> None:
    assert parse("garbage {\n") is None
    page = parse("# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 3\n")
    assert page == {"process_cpu_seconds": 3.0}
    assert engine_figures(page, page, [page]) == {}

    async def process_only(reader: Any, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        body = b"process_cpu_seconds_total 3\n"
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        await writer.drain()

    with Background(process_only) as server:  # a /metrics of no engine: no server block
        assert scrape(f"http://127.0.0.1:{server.port}", 2.0) is None
    assert parse("llamacpp:requests_processing NaN\n") == {}


def _vllm_reference(split: list[tuple[int, int, float]]) -> dict[str, float] | None:
    """A page written by prometheus_client itself (what vLLM exports with), with vLLM's metric
    names, one label set per engine: (queries, hits, KV usage) each."""
    registry = CollectorRegistry()
    labels = ["model_name", "engine"]
    queries = Counter("vllm:prefix_cache_queries", "q", labels, registry=registry)
    hits = Counter("vllm:prefix_cache_hits", "h", labels, registry=registry)
    kv = Gauge("vllm:kv_cache_usage_perc", "kv", labels, registry=registry)
    for engine, (q, h, usage) in enumerate(split):
        queries.labels("m", str(engine)).inc(q)
        hits.labels("m", str(engine)).inc(h)
        kv.labels("m", str(engine)).set(usage)
    return parse(generate_latest(registry).decode())


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), st.floats(0, 1)),
        min_size=1,
        max_size=4,
    ).map(lambda rows: [(q + h, h, kv) for q, h, kv in rows])
)
def test_vllm_counters_are_summed_over_engines_and_the_rate_is_exact(
    split: list[tuple[int, int, float]],
) -> None:
    zero = _vllm_reference([(0, 0, 0.0)] * len(split))
    page = _vllm_reference(split)
    assert zero is not None and page is not None
    block = engine_figures(zero, page, [zero, page])
    queries, hits = sum(q for q, _, _ in split), sum(h for _, h, _ in split)
    assert (block["prefix_cache_queries"], block["prefix_cache_hits"]) == (queries, hits)
    assert block["prefix_cache_hit_rate"] == (round(hits / queries, 4) if queries else None)
    mean = sum(kv for _, _, kv in split) / len(split)
    assert block["kv_cache_usage"]["max"] == pytest.approx(mean, abs=1e-12)
