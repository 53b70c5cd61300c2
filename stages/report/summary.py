"""Headline metrics and the DVC plot data files (issue 4 "Report", issues 6 and 10).

Headlines: one small flat file per workload, ``metrics/summary/<workload>.json``, the only DVC
``metrics:`` of the pipeline. Every file has the same few keys, so ``dvc metrics show`` prints
one row per workload within a terminal's width and ``dvc metrics diff`` one line per changed
figure. The keys, values rounded to 4 decimals:

* scored workloads: ``accuracy``, ``flexible`` (accuracy under lenient extraction, when scoring
  computes it), ``ci95_lo``/``ci95_hi`` (Wilson 95 % interval), ``n``, ``failed``;
* serving (prompts) workloads: ``n``, ``failed``, ``ttft_p50`` and ``itl_p50`` in seconds (the
  main pass of ``metrics/<w>.serving.json``, one measured run);
* ``unsafe_sandbox: true`` only where code verdicts ran in the basic sandbox (issue 24).

Everything else (breakdowns, DROP F1, chrF++, clustered standard errors, every serving figure)
stays in the per-workload files, reached with ``dvc metrics show metrics/<w>.json`` or
``dvc metrics diff --targets``. Each workload's figures stay apart: there is no combined score.

Plot files are lists of flat dicts (the table shape DVC ``plots`` reads), one directory per plot
kind and one file per workload, so one static top-level ``plots:`` entry per directory covers
every workload: ``metrics/plots/<kind>/<workload>.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stages.compare.serving import serving_figures
from stages.io import dumps_pretty
from stages.report import tables
from stages.report.inputs import WorkloadInputs

SUMMARY_DIR = Path("metrics/summary")
PLOTS_DIR = Path("metrics/plots")
PLOT_KINDS = ("accuracy_by_category", "ttft_by_bucket", "latency_histogram", "haystack_grid")
DIGITS = 4


def _rounded(value: Any) -> Any:
    return round(value, DIGITS) if isinstance(value, float) else value


def headline(workload: WorkloadInputs) -> dict[str, Any]:
    """The flat headline of one workload (see the module docstring)."""
    metrics = workload.metrics
    out: dict[str, Any] = {}
    if metrics.get("accuracy") is not None:
        wilson = metrics.get("wilson_95") or {}
        out["accuracy"] = metrics["accuracy"]
        if metrics.get("accuracy_flexible") is not None:
            out["flexible"] = metrics["accuracy_flexible"]
        out["ci95_lo"], out["ci95_hi"] = wilson.get("low"), wilson.get("high")
    out["n"] = metrics.get("n", 0)
    out["failed"] = metrics.get("failed", 0)
    if workload.kind == "prompts":
        figures = serving_figures(workload.serving)
        out["ttft_p50"], out["itl_p50"] = figures["ttft_p50_s"], figures["itl_p50_s"]
    if tables.unsafe(metrics):
        out["unsafe_sandbox"] = True
    return {k: _rounded(v) for k, v in out.items() if v is not None}


def headline_files(workloads: list[WorkloadInputs], root: Path = SUMMARY_DIR) -> dict[Path, str]:
    """``{metrics/summary/<w>.json: text}`` for every workload."""
    return {root / f"{w.name}.json": dumps_pretty(headline(w)) for w in workloads}


def category_table(workload: WorkloadInputs) -> tuple[str, list[dict[str, Any]]]:
    """Accuracy by category, or by the first facet the workload has when it has no category."""
    breakdowns = workload.metrics.get("breakdowns", {})
    facet = "category" if "category" in breakdowns else next(iter(sorted(breakdowns)), "category")
    return facet, tables.accuracy_by(workload.metrics, facet)


def plot_tables(workload: WorkloadInputs) -> dict[str, list[dict[str, Any]]]:
    """Every plot table of one workload that has data, keyed by plot kind."""
    facet, by_category = category_table(workload)
    candidates = {
        "accuracy_by_category": [{"category": row[facet], **row} for row in by_category],
        "ttft_by_bucket": tables.ttft_by_bucket(workload.scored),
        "latency_histogram": tables.latency_histogram(workload.scored),
        "haystack_grid": tables.haystack_cells(workload.scored),
    }
    return {kind: rows for kind, rows in candidates.items() if rows}


def plot_files(workloads: list[WorkloadInputs], root: Path = PLOTS_DIR) -> dict[Path, str]:
    """``{<root>/<kind>/<workload>.json: text}`` for every plot table with data."""
    return {
        root / kind / f"{workload.name}.json": dumps_pretty(rows)
        for workload in workloads
        for kind, rows in plot_tables(workload).items()
    }


def stale_files(written: dict[Path, str]) -> list[Path]:
    """Headline and plot files left from workloads that are gone (or lost a table), so that
    neither ``dvc metrics show`` nor ``dvc plots`` shows a stale series."""
    from stages.report.serving import PLOT_KINDS as SERVING_PLOT_KINDS

    kinds = (*PLOT_KINDS, *SERVING_PLOT_KINDS)
    folders = [SUMMARY_DIR, *(PLOTS_DIR / kind for kind in kinds)]
    return [p for folder in folders for p in sorted(folder.glob("*.json")) if p not in written]
