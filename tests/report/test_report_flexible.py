"""Issue 12 hooks in the report: strict and flexible accuracy side by side, and the long-generation
intact / intact-and-complete shares."""

from __future__ import annotations

from typing import Any

from stages.report import html, markdown
from stages.report.inputs import WorkloadInputs

CELL = {"n": 4, "correct": 1, "accuracy": 0.25, "correct_flexible": 3, "accuracy_flexible": 0.75}


def _workload(metrics: dict[str, Any]) -> WorkloadInputs:
    manifest = {"model": {"name": "m", "revision": "r"}, "dataset": {"id": "eval-x-v1"}}
    return WorkloadInputs("longgen", metrics, manifest, [], None)


METRICS = {
    **CELL,
    "failed": 0,
    "failures": {},
    "wilson_95": {"low": 0.05, "high": 0.7},
    "breakdowns": {"difficulty": {"easy": CELL}},
    "integrity": {
        "intact": {"n": 4, "count": 1, "share": 0.25},
        "intact_complete": {"n": 4, "count": 0, "share": 0.0},
        "rule": "complete = finish_reason stop and at least the lower bound of meta.line_range "
        "lines",
    },
}


def test_markdown_shows_both_accuracies_and_both_integrity_shares() -> None:
    text = "\n".join(markdown.workload_lines(_workload(METRICS)))
    assert "Flexible extraction: 75.0 % (3/4) — the same outputs read leniently." in text
    assert "| easy | 4 | 1 | 25.0 % | 75.0 % |" in text
    assert "Long generations: intact **25.0 %** (1/4); intact and complete **0.0 %** (0/4)" in text
    rows = markdown.summary_rows([_workload(METRICS)])
    assert rows[0][5:7] == ["25.0 %", "75.0 %"]


def test_html_shows_both_accuracies_and_both_integrity_shares() -> None:
    page = html.headline(_workload(METRICS)) + html.details(_workload(METRICS))
    assert "Flexible extraction: 75.0 % (3/4)" in page
    assert "Long generations: intact 25.0 % (1/4); intact and complete 0.0 % (0/4)" in page
    assert "<th>flexible</th>" in page
