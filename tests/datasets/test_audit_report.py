"""The report sections of the audit and of a fresh-seed workload."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stages.datasets.audit_report import audit_html, audit_markdown, fresh_markdown


def _tally(tried: int, held: int) -> dict[str, Any]:
    return {"tried": tried, "held": held, "failures": []}


def _block(status: str, formats: dict[str, Any], mutation: tuple[int, int] | None) -> dict:
    strength = {name: _tally(0, 0) for name in ("near_misses", "alternatives", "flexible")}
    strength.update(derived=_tally(10, 9), gold=_tally(4, 4), echoes=_tally(8, 8))
    killed, mutants = mutation or (0, 0)
    return {
        "status": status,
        "formats": formats,
        "strength": strength,
        "mutation": {"score": killed / mutants if mutants else None, "killed": killed,
                     "mutants": mutants},
        "leaks": {"a-1": "gold_stated"} if status == "flawed" else {},
        "duplicates": {},
    }  # fmt: skip


MC = {"rows": 40, "learned": {"margin": 0.15, "fails": True, "ci95": {"low": 0.26, "high": 0.55}}}
AUDIT = {
    "max_margin": 0.05,
    "failed": [],
    "datasets": {
        "eval-a-v1": _block("flawed", {"mc": MC}, None),
        "eval-code-v1": _block("pass", {}, (5, 6)),
    },
}


def test_audit_sections(tmp_path: Path) -> None:
    path = tmp_path / "audit.json"
    assert audit_markdown(path) == [] and audit_html(path) == ""
    path.write_text(json.dumps(AUDIT), encoding="utf-8")
    lines = audit_markdown(path, defaults={"alpha": "eval-a-v1", "code": "eval-code-v1"})
    assert lines[0] == "## Shortcut audit"
    assert "a margin over 5 points clear of chance" in lines[2]
    assert lines[2].endswith("Default workloads still on a flawed dataset: alpha (eval-a-v1).")
    assert lines[-3] == "| eval-a-v1 | mc +15.0! [0.26-0.55] | 9/10 | 4/4 | 8/8 | - | 1 | 0 | flawed |"
    assert lines[-2] == "| eval-code-v1 | - | 9/10 | 4/4 | 8/8 | 5/6 | 0 | 0 | pass |"
    html = audit_html(path)
    assert "<td>eval-a-v1</td><td>mc +15.0! [0.26-0.55]</td><td>9/10</td>" in html
    assert "Default workloads" not in html  # no defaults given


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
