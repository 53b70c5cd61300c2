"""The report sections of the audit and of a fresh-seed workload."""

from __future__ import annotations

import json
from pathlib import Path

from stages.datasets.audit_report import audit_html, audit_markdown, fresh_markdown

AUDIT = {
    "max_margin": 0.1,
    "failed": [],
    "datasets": {
        "eval-a-v1": {
            "audited": 40,
            "chance": 0.25,
            "best": "letter_A",
            "best_accuracy": 0.4,
            "best_ci95": {"low": 0.2641, "high": 0.5522},
            "margin": 0.15,
            "leaks": {"a-1": "gold_stated"},
            "duplicates": {},
            "status": "reported",
        },
        "eval-code-v1": {
            "audited": 0,
            "chance": None,
            "best": None,
            "best_accuracy": None,
            "best_ci95": None,
            "margin": None,
            "leaks": {},
            "duplicates": {"c-2": "c-1"},
            "status": "pass",
        },
    },
}


def test_audit_sections(tmp_path: Path) -> None:
    path = tmp_path / "audit.json"
    assert audit_markdown(path) == [] and audit_html(path) == ""
    path.write_text(json.dumps(AUDIT), encoding="utf-8")
    lines = audit_markdown(path)
    assert lines[0] == "## Shortcut audit"
    assert "more than 10 points" in lines[2]
    assert lines[-3] == (
        "| eval-a-v1 | 40 | 0.250 | letter_A | 0.400 | 0.26–0.55 | +15.0 pt | 1 | 0 | reported |"
    )
    assert lines[-2] == "| eval-code-v1 | 0 | - | - | - | - | - | 0 | 1 | pass |"
    html = audit_html(path)
    assert "<td>eval-a-v1</td><td>40</td><td>0.250</td><td>letter_A</td>" in html


def test_fresh_line() -> None:
    assert fresh_markdown({"accuracy": 0.5}) == []
    fresh = {
        "seeds": [11, 12],
        "public": {"n": 40, "accuracy": 0.75},
        "mean": 0.6,
        "sd": 0.0354,
        "min": 0.575,
        "max": 0.625,
        "gap": 0.15,
        "gap_ci95": {"low": -0.0213, "high": 0.2958},
    }
    assert fresh_markdown({"fresh": fresh})[0] == (
        "Fresh instances (seeds 11, 12): public 75.0 % vs fresh mean 60.0 % (sd 3.5, range "
        "57.5–62.5); gap +15.0 pt, 95 % CI -2.1 to +29.6 (Newcombe)."
    )
