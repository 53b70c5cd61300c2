"""Serving curves in the report: plot files, inline SVG curves, the level table and the knee."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from stages.cli import main
from stages.report.line_svg import Series, line_chart


def _dist(p50: float, p99: float) -> dict[str, float]:
    return {"p50": p50, "p99": p99}


def _level(
    rate: float, rps: float, ttft: tuple[float, float], e2e: tuple[float, float], share: float
) -> dict[str, Any]:
    return {
        "offered_rate": rate,
        "achieved_rate": rate * 1.01,
        "requests_per_s": rps,
        "requests_failed": 0,
        "ttft_from_scheduled_s": _dist(*ttft),
        "latency_from_scheduled_s": _dist(*e2e),
        "tpot_s": _dist(0.03, 0.05),
        "itl_s": _dist(0.02, 0.06),
        "schedule_lag_s": _dist(0.001, 0.004),
        "goodput": {
            "slo": {"ttft_s": 1.0},
            "good": 9,
            "share": share,
            "requests_per_s": round(rps * share, 6),
            "met": {"ttft_s": share},
        },
    }


SERVING = {
    "run_key": "k",
    "definitions": "vLLM conventions",
    "main": {"ttft_s": {"p50": 0.2}, "requests_per_s": 0.4},
    "rate": {
        "2": _level(2.0, 0.9, (6.0, 12.0), (7.0, 13.0), 0.0),
        "0.5": _level(0.5, 0.48, (0.3, 0.6), (1.1, 1.4), 1.0),
        "1": _level(1.0, 0.85, (0.9, 2.5), (1.8, 3.5), 0.6),
    },
    "knee": {"goodput_target": 0.9, "rate": 0.5, "slo": {"ttft_s": 1.0}},
}


def test_serving_curves_as_plot_files_svg_and_tables(scored_project: Path) -> None:
    Path("metrics/mix.serving.json").write_text(json.dumps(SERVING))
    assert main(["report"]) == 0
    plots = Path("metrics/plots")
    assert json.loads((plots / "goodput_rate/mix.json").read_text()) == [
        {"offered_rate": 0.5, "achieved_rate": 0.505, "goodput_rps": 0.48, "goodput_share": 1.0},
        {"offered_rate": 1.0, "achieved_rate": 1.01, "goodput_rps": 0.51, "goodput_share": 0.6},
        {"offered_rate": 2.0, "achieved_rate": 2.02, "goodput_rps": 0.0, "goodput_share": 0.0},
    ]
    curve = json.loads((plots / "latency_throughput/mix.json").read_text())
    assert [(r["level"], r["throughput_rps"], r["latency_p99_s"]) for r in curve] == [
        (0.5, 0.48, 1.4),
        (1.0, 0.85, 3.5),
        (2.0, 0.9, 13.0),
    ]
    page = Path("report.html").read_text()
    svgs = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    titles = [ET.fromstring(s).findtext("title") for s in svgs]
    assert "Latency against throughput (from the scheduled send)" in titles
    assert "Goodput against offered rate" in titles
    assert "<title>1/s offered: goodput 0.51/s (60% met the SLO)</title>" in page
    assert ">knee 0.5/s</text>" in page
    assert "http://" not in page and "https://" not in page
    assert "<h3>Load levels</h3>" in page and "Knee: 0.5 req/s" in page
    markdown = Path("report.md").read_text()
    assert "| rate | 1 | 1.01 | 0.85 | 0.9 | 2.5 | 1.8 | 3.5 | 0.03 | 0.02 | 0.004 | 0.6 | 0 |" in (
        markdown
    )
    assert "main.ttft_s.p50" in markdown and "rate.1.ttft" not in markdown
    Path("metrics/mix.serving.json").write_text(json.dumps({"main": SERVING["main"]}))
    assert main(["report"]) == 0  # the levels are gone: so are their plot files
    assert not (plots / "goodput_rate/mix.json").exists()
    assert not (plots / "latency_throughput/mix.json").exists()


def test_line_chart_is_byte_stable_and_scales_to_round_axes() -> None:
    series = [Series("a & b", "#123456", [(0.0, 0.0, "origin"), (3.0, 7.5, "<top>")], "4 2")]
    first = line_chart(series, "T", "x", "y", (1.5, "mark"))
    assert first == line_chart(series, "T", "x", "y", (1.5, "mark"))
    root = ET.fromstring(first)
    assert root.findtext("title") == "T"
    assert "a &amp; b" in first and "&lt;top&gt;" in first
    # x axis to 5 (ticks of 1), y axis to 10 (ticks of 2): the top point sits at 3/5 and 3/4
    assert '<polyline points="64.0,250.0 316.0,85.0"' in first
