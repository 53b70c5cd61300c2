"""The judge's calibration and corrected figures in ``atlas compare`` (issue 34).

A ``<w>.judge`` workload's Δ row compares the judge's raw grades; a raw grade carries the judge's
error, so the notes name, per revision, the gate's κ and the judge's figure on the items no human
labelled corrected for that error, beside the uncorrected one (or why either is withheld). Read
from each revision's ``metrics/<w>.judge.json`` (:mod:`stages.judge.corrected`).
"""

from __future__ import annotations

from typing import Any

from stages.compare.pairs import WorkloadPairs
from stages.judge.corrected import corrected_text


def _line(metrics: dict[str, Any]) -> str:
    calibration = metrics.get("calibration") or {}
    kappa = (calibration.get("kappa_quadratic") or {}).get("value")
    gate = f"κ {kappa:.3f}" if isinstance(kappa, (int, float)) else "κ undefined"
    gate += f" on {calibration.get('resolved', 0)} calibration item(s)"
    block = metrics.get("corrected")
    if block is None and metrics.get("withheld"):
        return f"{gate}; uncorrected and corrected figures withheld: {metrics['withheld']}"
    return f"{gate}; {corrected_text(block)}"


def judge_notes(paired: dict[str, WorkloadPairs]) -> list[str]:
    """One note per revision of each judged workload compared."""
    out = []
    for name, pairs in paired.items():
        for which, side in (("A", pairs.a), ("B", pairs.b)):
            if isinstance(side.signature.get("judge"), dict):
                out.append(f"{name} judge at {which}: {_line(side.metrics)}")
    return out


def judge_blocks(paired: dict[str, WorkloadPairs]) -> dict[str, dict[str, Any]]:
    """``--json``: per judged workload, each revision's ``corrected`` block (None: not written)."""
    return {
        name: {which: side.metrics.get("corrected") for which, side in (("a", p.a), ("b", p.b))}
        for name, p in paired.items()
        if isinstance(p.b.signature.get("judge"), dict)
    }
