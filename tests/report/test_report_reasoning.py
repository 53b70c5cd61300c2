"""Issue 33: TTFA beside TTFT and the reasoning and answer channels in the report's serving
tables and in ``atlas compare``'s serving rows; a file where nothing thought renders as before."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from stages.cli import main
from stages.compare.render import SERVING_HEADER, serving_table
from stages.compare.run import ServingRow
from stages.compare.serving import serving_figures
from stages.report import channel_table, serving


def _d(p50: float, p99: float) -> dict[str, float]:
    return {"p50": p50, "p99": p99}


def _channels(thinking: int) -> dict[str, Any]:
    return {
        "requests_thinking": thinking,
        "reasoning": {
            "itl_s": _d(0.01, 0.03),
            "tpot_s": _d(0.012, 0.02),
            "tokens": {"total": 500, "from_usage": 0, "from_tokenizer": 3, "approximate": 1},
        },
        "answer": {"itl_s": _d(0.02, 0.05), "tpot_s": _d(0.025, 0.04), "tokens": {"total": 40}},
    }


MAIN = {
    "concurrency": 2, "requests": 4, "requests_failed": 0, "ttft_s": _d(0.1, 0.2),
    "ttfa_s": _d(1.5, 2.5), "itl_s": _d(0.012, 0.04), "latency_s": _d(2.0, 3.0),
    "output_tokens_per_s": {"aggregate": 90.0, "per_request_p50": 50.0}, "channels": _channels(4),
}  # fmt: skip
LEVEL = {
    "offered_rate": 1.0, "requests": 5, "requests_failed": 0, "requests_per_s": 0.9,
    "ttft_from_scheduled_s": _d(0.3, 0.6), "ttfa_from_scheduled_s": _d(1.8, 2.9),
    "latency_from_scheduled_s": _d(2.4, 3.3), "itl_s": _d(0.02, 0.05),
    "channels": _channels(5),
}  # fmt: skip
QUIET = {k: v for k, v in LEVEL.items() if k not in ("ttfa_from_scheduled_s", "channels")}
THOUGHT = {"run_key": "k", "main": MAIN, "rate": {"1": LEVEL, "2": QUIET}}


def test_key_table_puts_ttfa_beside_ttft_when_a_pass_thought() -> None:
    header = serving.key_header(THOUGHT)
    assert header[3:7] == ["TTFT p50 (s)", "TTFT p99 (s)", "TTFA p50 (s)", "TTFA p99 (s)"]
    rows = serving.key_rows(THOUGHT)
    assert [len(r) for r in rows] == [len(header)] * 3
    assert rows[0][3:7] == [0.1, 0.2, 1.5, 2.5]
    assert rows[1][3:7] == [0.3, 0.6, 1.8, 2.9]  # a level: from the scheduled send
    assert rows[2][3:7] == [0.3, 0.6, 0.3, 0.6]  # a level where nothing thought: TTFA = TTFT
    quiet = {"main": {k: v for k, v in MAIN.items() if k not in ("ttfa_s", "channels")}}
    assert serving.key_header(quiet) == serving.KEY_HEADER
    assert len(serving.key_rows(quiet)[0]) == len(serving.KEY_HEADER)
    assert channel_table.channel_rows(quiet) == []


def test_channel_table_has_a_row_per_pass_that_thought() -> None:
    assert channel_table.channel_rows(THOUGHT) == [
        ["main", "4 of 4", 0.1, 1.5, 0.01, 0.012, 0.02, 0.025, 500, 40, "tokenizer 3, approx. 1"],
        ["rate 1", "5 of 5", 0.3, 1.8, 0.01, 0.012, 0.02, 0.025, 500, 40, "tokenizer 3, approx. 1"],
    ]


def test_report_shows_the_channels_of_a_thinking_run(scored_project: Path) -> None:
    Path("metrics/mix.serving.json").write_text(json.dumps(THOUGHT))
    assert main(["report"]) == 0
    md = Path("report.md").read_text()
    assert "### Reasoning and answer channels" in md
    assert "| main | 4 of 4 | 0.1 | 1.5 |" in md
    page = Path("report.html").read_text()
    section = page[page.index('<section id="mix">') :].split("<h3>Serving</h3>")[1]
    key = re.findall(r"<th[^>]*>(.*?)</th>", section[: section.index("</table>")])
    assert key[3:7] == ["TTFT p50 (s)", "TTFT p99 (s)", "TTFA p50 (s)", "TTFA p99 (s)"]
    assert "<th>reasoning ITL p50 (s)</th>" in section


def _row(a: dict[str, Any], b: dict[str, Any]) -> ServingRow:
    return ServingRow("w", serving_figures(a), serving_figures(b), [])


def test_compare_serving_rows_show_ttfa_when_a_side_thought() -> None:
    thinking = {"main": MAIN}
    plain = {"main": {"ttft_s": {"p50": 0.5}, "itl_s": {"p50": 0.02}}}
    assert serving_figures(thinking)["ttfa_p50_s"] == 1.5 and "ttfa_p50_s" not in serving_figures(
        plain
    )
    header, cells = serving_table([_row(plain, thinking)])
    assert header == ["workload", "TTFT p50 s", "TTFA p50 s", "ITL p50 s", "output tokens/s"]
    # A did not think: its TTFA is its TTFT
    assert cells == [["w", "0.500 -> 0.100 (-80%)", "0.500 -> 1.500 (+200%)",
                      "0.0200 -> 0.0120 (-40%)", "— -> 90.0"]]  # fmt: skip
    header, cells = serving_table([_row(plain, plain)])
    assert header == SERVING_HEADER and len(cells[0]) == len(SERVING_HEADER)
