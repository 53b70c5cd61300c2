"""Report tables and SVG primitives on hand-made records."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from stages.report import svg, tables


def rec(row_id: str, **kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": row_id, "repeat": 0, "scorer": "exact", "failed": None}
    return {**base, **kw}


def test_percentile_interpolates_linearly() -> None:
    assert tables.percentile([4.0, 1.0, 3.0, 2.0], 0.5) == 2.5
    assert tables.percentile([0.1, 0.3], 0.9) == pytest.approx(0.28)
    assert tables.percentile([7.0], 0.9) == 7.0
    with pytest.raises(ValueError):
        tables.percentile([], 0.5)


def test_latency_histogram_bins_and_skips_failures() -> None:
    records = [rec(f"r{i}", latency_s=float(i)) for i in range(11)]
    records.append(rec("bad", latency_s=99.0, failed="timeout"))
    rows = tables.latency_histogram(records, bins=5)
    assert [(r["latency_bin"], r["count"]) for r in rows] == [
        ("0-2 s", 2),
        ("2-4 s", 2),
        ("4-6 s", 2),
        ("6-8 s", 2),
        ("8-10 s", 3),  # the last bin holds its upper edge
    ]
    single = tables.latency_histogram([rec("a", latency_s=1.5), rec("b", latency_s=1.5)])
    assert single == [{"latency_bin": "1.5-1.5 s", "lo_s": 1.5, "hi_s": 1.5, "count": 2}]
    assert tables.latency_histogram([rec("a")]) == []


def test_ttft_by_bucket_orders_buckets_by_size() -> None:
    records = [
        rec("a", facets={"bucket": "m"}, ttft_s=1.0),
        rec("b", facets={"bucket": "xs"}, ttft_s=0.2),
        rec("c", facets={"bucket": "xs"}, ttft_s=0.4),
        rec("d", facets={"bucket": "xs"}, ttft_s=9.0, failed="http_5xx"),
        rec("e", facets={"bucket": "l"}),
    ]
    assert tables.ttft_by_bucket(records) == [
        {"bucket": "xs", "n": 2, "ttft_p50_s": 0.3, "ttft_p90_s": 0.38, "ttft_mean_s": 0.3},
        {"bucket": "m", "n": 1, "ttft_p50_s": 1.0, "ttft_p90_s": 1.0, "ttft_mean_s": 1.0},
    ]


def test_error_examples_prefer_wrong_answers_over_failed_requests() -> None:
    records = [
        rec("f", correct=False, failed="timeout", gold="1", why="request failed"),
        rec("ok", correct=True, gold="2"),
        rec("w", repeat=1, correct=False, gold={"a": 1}, extracted="x", why="differs"),
        rec("t", scorer="chrf", correct=None, gold="hello"),
    ]
    assert tables.error_examples(records) == [
        {
            "key": "w#1",
            "prompt": "",
            "gold": '{"a": 1}',
            "extracted": "x",
            "why": "differs",
            "failed": None,
        },
        {
            "key": "f",
            "prompt": "",
            "gold": "1",
            "extracted": None,
            "why": "request failed",
            "failed": "timeout",
        },
    ]
    assert len(tables.error_examples(records, limit=1)) == 1


def test_flatten_and_facet_order() -> None:
    assert tables.flatten({"b": {"y": 1, "x": [1, 2]}, "a": "s"}) == [("a", "s"), ("b.y", 1)]
    values = ["hard", "easy", "medium"]
    assert sorted(values, key=lambda v: tables.facet_order("difficulty", v)) == [
        "easy",
        "medium",
        "hard",
    ]
    assert sorted(["s", "xxl", "xs"], key=lambda v: tables.facet_order("bucket", v)) == [
        "xs",
        "s",
        "xxl",
    ]


def test_bar_chart_scales_escapes_and_parses() -> None:
    chart = svg.bar_chart([svg.Bar("<b>&", 0.5, "50%")], "Title", 1.0, svg.accuracy_colour)
    root = ET.fromstring(chart)
    widths = [r.get("width") for r in root.iter("rect")]
    assert widths == [str(svg.PLOT_W), "180.0"]
    assert "&lt;b&gt;&amp;" in chart
    assert 'fill="hsl(60, 60%, 42%)"' in chart
    assert "xmlns" not in chart


def test_heat_grid_greys_missing_cells() -> None:
    grid = svg.heat_grid(["1k", "8k"], ["0%", "50%"], {("1k", "0%"): (1.0, 2)}, "Grid")
    root = ET.fromstring(grid)
    fills = [r.get("fill") for r in root.iter("rect")]
    assert fills == ["hsl(120, 60%, 42%)", "#f4f4f4", "#f4f4f4", "#f4f4f4"]
    assert "1k @ 0%: 100% of 2" in grid
