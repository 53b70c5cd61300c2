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
        "requests": 10,
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
    "main": {
        "concurrency": 2,
        "requests": 12,
        "requests_failed": 1,
        "ttft_s": _dist(0.2, 0.45),
        "itl_s": _dist(0.025, 0.07),
        "latency_s": _dist(0.9, 1.6),
        "output_tokens_per_s": {"aggregate": 40.5, "per_request_p50": 21.0},
        "requests_per_s": 0.4,
    },
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
    assert "Knee: 0.5 req/s" in page
    markdown = Path("report.md").read_text()
    assert "| rate | 1 | 1.01 | 0.85 | 0.9 | 2.5 | 1.8 | 3.5 | 0.03 | 0.02 | 0.004 | 0.6 | 0 |" in (
        markdown
    )
    assert "main.ttft_s.p50" in markdown and "rate.1.ttft" not in markdown
    Path("metrics/mix.serving.json").write_text(json.dumps({"main": SERVING["main"]}))
    assert main(["report"]) == 0  # the levels are gone: so are their plot files
    assert not (plots / "goodput_rate/mix.json").exists()
    assert not (plots / "latency_throughput/mix.json").exists()


def _cells(table: str) -> list[list[str]]:
    rows = re.findall(r"<tr>(.*?)</tr>", table)
    return [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row) for row in rows]


def test_html_serving_part_leads_with_key_figures_and_curves(scored_project: Path) -> None:
    """Issue 22: the few figures that matter and the plot first, the full dump folded below."""
    Path("metrics/mix.serving.json").write_text(json.dumps(SERVING))
    assert main(["report"]) == 0
    page = Path("report.html").read_text()
    start = page.index('<section id="mix">')
    section = page[start : page.index("</section>", start)]
    top_charts, serving = section.split("<h3>Serving</h3>")
    assert "<h3>Serving metrics</h3>" not in section
    assert "Latency against throughput" not in top_charts  # the curves moved to the serving part
    lead, folded = serving.split("<details>")
    key_table = lead[: lead.index("</table>")]
    assert _cells(key_table) == [
        ["pass", "requests", "failed", "TTFT p50 (s)", "TTFT p99 (s)", "ITL p50 (s)",
         "ITL p99 (s)", "E2E p50 (s)", "E2E p99 (s)", "output tokens/s"],
        ["main (concurrency 2)", "12", "1", "0.2", "0.45", "0.025", "0.07", "0.9", "1.6", "40.5"],
        ["rate 0.5", "10", "0", "0.3", "0.6", "0.02", "0.06", "1.1", "1.4", "—"],
        ["rate 1", "10", "0", "0.9", "2.5", "0.02", "0.06", "1.8", "3.5", "—"],
        ["rate 2", "10", "0", "6", "12", "0.02", "0.06", "7", "13", "—"],
    ]  # fmt: skip
    after_table = lead[lead.index("</table>") + len("</table>") :]
    assert after_table.startswith(
        '<p class="note">The main pass times TTFT and E2E from the actual send, load levels from '
        "the scheduled send (where a server&#x27;s queue shows)."
    )
    curves = re.findall(r"<svg.*?</svg>", after_table, flags=re.S)
    assert [ET.fromstring(c).findtext("title") for c in curves] == [
        "Latency against throughput (from the scheduled send)",
        "Goodput against offered rate",
    ]
    assert after_table.index("</svg></div>") < after_table.index('<p class="note">Knee: 0.5 req/s')
    assert folded.startswith(  # 14 figures of the file without levels (12 of main) + 3 levels
        "<summary>All serving figures: the main pass and every load level (17 rows)</summary>"
        "<h4>Main pass</h4>"
    )
    assert "<td>main.latency_s.p99</td>" in folded and "<td>run_key</td>" in folded
    levels = folded[folded.index("<h4>Load levels</h4>") :]
    assert _cells(levels)[0][:4] == ["mode", "level", "achieved rate", "req/s"]
    assert len(_cells(levels)) == 4 and folded.endswith("</table></details>")


def test_html_serving_part_without_levels_has_no_curves(scored_project: Path) -> None:
    Path("metrics/mix.serving.json").write_text(json.dumps({"main": SERVING["main"]}))
    assert main(["report"]) == 0
    page = Path("report.html").read_text()
    start = page.index('<section id="mix">')
    section = page[start : page.index("</section>", start)]
    serving = section.split("<h3>Serving</h3>")[1]
    assert _cells(serving[: serving.index("</table>")])[1:] == [
        ["main (concurrency 2)", "12", "1", "0.2", "0.45", "0.025", "0.07", "0.9", "1.6", "40.5"]
    ]
    assert "<svg" not in serving and "Knee" not in serving
    assert "<summary>All serving figures: the main pass (12 rows)</summary>" in serving  # main.*


def test_line_chart_is_byte_stable_and_scales_to_round_axes() -> None:
    series = [Series("a & b", "#123456", [(0.0, 0.0, "origin"), (3.0, 7.5, "<top>")], "4 2")]
    first = line_chart(series, "T", "x", "y", (1.5, "mark"))
    assert first == line_chart(series, "T", "x", "y", (1.5, "mark"))
    root = ET.fromstring(first)
    assert root.findtext("title") == "T"
    assert "a &amp; b" in first and "&lt;top&gt;" in first
    # x axis to 5 (ticks of 1), y axis to 10 (ticks of 2): the top point sits at 3/5 and 3/4
    assert '<polyline points="64.0,250.0 316.0,85.0"' in first
