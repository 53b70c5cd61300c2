"""Serving metrics: percentiles, token counts, per-bucket breakdown and the concurrency sweep."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from infer_helpers import prompt_row, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main
from stages.inference.definitions import Timings, summary, timing
from stages.serving.metrics import (
    bucket_metrics,
    output_tokens,
    percentile,
    serving_metrics,
)


def test_percentile_interpolates_between_order_statistics() -> None:
    values = [4.0, 1.0, 3.0, 2.0]
    assert [percentile(values, q) for q in (0, 50, 90, 99, 100)] == [1.0, 2.5, 3.7, 3.97, 4.0]
    assert percentile([], 50) is None


def test_gap_summary() -> None:
    assert summary([0.1, 0.3]) == {"n": 2, "mean": 0.2, "p50": 0.2, "p99": 0.298, "max": 0.3}
    assert summary([]) is None


def _record(rid: str, **fields: Any) -> dict[str, Any]:
    record = {"id": rid, "usage": None, "ttft_s": 0.1, "latency_s": 1.0, "itl_s": None,
              "error": None}  # fmt: skip
    record.update(fields)
    return record


def test_output_tokens_prefer_usage_then_streamed_deltas() -> None:
    assert output_tokens(_record("a", usage={"completion_tokens": 9})) == 9
    assert output_tokens(_record("a", itl_s={"n": 4})) == 5
    assert output_tokens(_record("a", ttft_s=None)) is None
    streamed_without_usage = [_record("a", itl_s={"n": 4, "p50": 0.1, "p99": 0.2})]
    metrics = serving_metrics(streamed_without_usage, [], wall_s=0.0, concurrency=1)
    assert metrics["input_tokens_total"] is None and metrics["output_tokens_total"] is None
    assert metrics["usage_reported"] == 0 and metrics["requests_per_s"] is None
    assert metrics["output_tokens_per_s"] == {"per_request_p50": 5.0, "aggregate": None}


def test_timings_are_computed_once_per_record_and_give_the_same_metrics() -> None:
    records = [
        _record("a", usage={"completion_tokens": 3}, token_s=[0.1, 0.2, 0.4]),
        _record("b", error={"kind": "timeout", "message": "x"}),
    ]
    known = Timings()
    known.add(records[0])  # as the run does while the record is journaled
    first = known.of(records[0])
    assert known.of(records[0]) is first and first == timing(records[0])
    assert known.of(records[1]) is known.of(records[1])  # computed when first asked for
    equal_copy = dict(records[0])
    assert known.of(equal_copy) is not first and known.of(equal_copy) == first
    assert serving_metrics(records, records, 2.0, 4, known) == serving_metrics(
        records, records, 2.0, 4
    )


def _dist(n: int, mean: float, p50: float, p90: float, p95: float, p99: float) -> dict[str, Any]:
    return {"n": n, "mean": mean, "p50": p50, "p90": p90, "p95": p95, "p99": p99}


def test_run_metrics_and_buckets() -> None:
    records = [
        _record("a", usage={"prompt_tokens": 10, "completion_tokens": 4}, ttft_s=0.1,
                latency_s=2.0, token_s=[0.1, 0.5, 1.0, 1.9]),
        _record("b", usage={"prompt_tokens": 20, "completion_tokens": 8}, ttft_s=0.3,
                latency_s=4.0, token_s=[0.3, 0.5]),
        _record("c", ttft_s=None, latency_s=None, error={"kind": "timeout", "message": "x"}),
    ]  # fmt: skip
    metrics = serving_metrics(records, records[1:], wall_s=2.0, concurrency=4)
    # TPOT: a (2.0 - 0.1) / 3 = 0.633333, b (4.0 - 0.3) / 7 = 0.528571; ITL pools the gaps
    # 0.4, 0.5, 0.9 (a) and 0.2 (b).
    assert metrics == {
        "ttft_s": _dist(2, 0.2, 0.2, 0.28, 0.29, 0.298),
        "tpot_s": _dist(2, 0.580952, 0.580952, 0.622857, 0.628095, 0.632286),
        "itl_s": _dist(4, 0.5, 0.45, 0.78, 0.84, 0.888),
        "latency_s": _dist(2, 3.0, 3.0, 3.8, 3.9, 3.98),
        "output_tokens_per_s": {"per_request_p50": 2.0, "aggregate": 4.0},
        "concurrency": 4,
        "requests": 3,
        "requests_failed": 1,
        "failures_by_kind": {"timeout": 1},
        "requests_per_s": 1.0,
        "input_tokens_total": 30,
        "output_tokens_total": 12,
        "usage_reported": 2,
        "output_tokens": {"total": 12, "from_usage": 2, "from_timings": 0, "from_deltas": 0},
        "engine": {  # usage without llama.cpp timings (another server): no gaps to measure
            "timings_reported": 0,
            **{
                k: _dist(0, None, None, None, None, None)
                for k in ("prompt_s", "predicted_s", "ttft_gap_s", "e2e_gap_s")
            },
            "prompt_tokens_computed": 0,
            "prompt_tokens_cached": 0,
            "prompt_cache_hit_share": None,
            # no usage says how much was cached: unknown, not 0 (issue 33)
            "usage_cached_tokens_total": None,
            "usage_cached_reported": 0,
            "usage_cached_share": None,
        },  # fmt: skip
    }
    buckets = bucket_metrics(records, {"a": "xs", "b": "s", "c": "xs"}, {"a": 5, "b": 40})
    assert buckets == {  # engine prompt tokens per nominal token: a 10/5, b 20/40 (c failed)
        "s": {"ttft_p50": 0.3, "ttft_p90": 0.3, "itl_p50": 0.2, "output_tps_p50": 2.0,
              "prompt_tokens_per_approx": 0.5, "n": 1},
        "xs": {"ttft_p50": 0.1, "ttft_p90": 0.1, "itl_p50": 0.5, "output_tps_p50": 2.0,
               "prompt_tokens_per_approx": 2.0, "n": 2},
    }  # fmt: skip


def test_journals_without_token_times_fall_back_to_per_request_gap_summaries() -> None:
    records = [
        _record("a", ttft_s=0.1, latency_s=2.0, itl_s={"n": 3, "p50": 0.2, "p99": 0.4}),
        _record("b", ttft_s=0.3, latency_s=4.0, itl_s={"n": 7, "p50": 0.4, "p99": 0.6}),
    ]
    metrics = serving_metrics(records, [], wall_s=0.0, concurrency=1)
    assert metrics["itl_s"] == {"pooled": False, "p50": 0.3, "p99": 0.598}
    assert metrics["output_tokens"] == {
        "total": 12,
        "from_usage": 0,
        "from_timings": 0,
        "from_deltas": 2,
    }


def test_perf_workload_reports_buckets_and_a_sweep_keyed_by_concurrency(
    project: Path, stub: StubServer
) -> None:
    long_text = "Describe the long sample in detail. " * 10  # 360 chars: bucket s
    rows = [prompt_row(1), prompt_row(2), prompt_row(3, text=long_text)]
    write_dataset(project, "prompts-t-v1", "prompts", rows)
    write_params(project, stub.url, workloads={"w": {"dataset": "prompts-t-v1", "perf": True}},
                 run={"sweep": [1, 2]})  # fmt: skip
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 9
    metrics = json.loads((project / "metrics" / "w.serving.json").read_text())
    assert sorted(metrics) == ["concurrency", "definitions", "main", "run_key"]
    assert {b: v["n"] for b, v in metrics["main"]["buckets"].items()} == {"s": 1, "xs": 2}
    assert sorted(metrics["concurrency"]) == ["1", "2"]
    assert [metrics["concurrency"][c]["concurrency"] for c in ("1", "2")] == [1, 2]
    assert metrics["concurrency"]["2"]["requests"] == 3
    for name in ("responses.jsonl", "load/concurrency-1.jsonl", "load/concurrency-2.jsonl"):
        assert len((project / "results" / "w" / name).read_text().splitlines()) == 3
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 9  # every pass resumes from its own journal
    again = json.loads((project / "metrics" / "w.serving.json").read_text())
    # a rerun that sent nothing keeps the rates its run measured (run._keep_wall_clock_rates)
    assert again["main"]["requests_per_s"] == metrics["main"]["requests_per_s"] is not None
    assert again["main"]["ttft_s"] == metrics["main"]["ttft_s"]
    assert again["concurrency"] == metrics["concurrency"]  # recomputed from the level journals
