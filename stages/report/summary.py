"""``metrics/summary.json`` and the DVC plot data files (issue 4 "Report", issue 6 plots).

The summary keeps each workload's figures apart — accuracy with its n, interval and failures —
and never folds them into one combined score. Like every metrics file it holds dicts, not lists.

Plot files are lists of flat dicts (the table shape DVC ``plots`` reads), one directory per plot
kind and one file per workload, so one static top-level ``plots:`` entry per directory covers
every workload: ``metrics/plots/<kind>/<workload>.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stages.io import write_json
from stages.report import tables
from stages.report.inputs import WorkloadInputs

PLOTS_DIR = Path("metrics/plots")
PLOT_KINDS = ("accuracy_by_category", "ttft_by_bucket", "latency_histogram", "haystack_grid")
DIGITS = 6


def workload_summary(workload: WorkloadInputs) -> dict[str, Any]:
    """The headline figures of one workload, each with the counts behind it."""
    metrics = workload.metrics
    name, revision = workload.model
    out: dict[str, Any] = {
        "dataset": workload.dataset,
        "kind": workload.kind,
        "model": {"name": name, "revision": revision},
        "n": metrics.get("n", 0),
        "failed": metrics.get("failed", 0),
    }
    for key in ("correct", "accuracy", "wilson_95", "drop"):
        if key in metrics:
            out[key] = metrics[key]
    secondary = metrics.get("secondary")
    if secondary:
        out["secondary"] = {"chrf_corpus": secondary.get("chrf_corpus"), "n": secondary.get("n")}
    for field, label in (("ttft_s", "ttft_p50_s"), ("latency_s", "latency_p50_s")):
        values = tables.timings(workload.scored, field)
        if values:
            out[label] = round(tables.percentile(values, 0.5), DIGITS)
    return out


def build_summary(workloads: list[WorkloadInputs], check: dict[str, Any] | None) -> dict[str, Any]:
    """``metrics/summary.json``: per-workload figures and the corpus check's counts."""
    summary: dict[str, Any] = {"workloads": {w.name: workload_summary(w) for w in workloads}}
    if check is not None:
        summary["check"] = {k: check[k] for k in ("datasets", "failures") if k in check}
    return summary


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


def write_plot_files(workloads: list[WorkloadInputs], root: Path = PLOTS_DIR) -> list[Path]:
    """Write ``<root>/<kind>/<workload>.json`` for every table with data; returns the paths.

    Files left from workloads that are gone (or lost a table) are removed, so ``dvc plots``
    never shows a stale series.
    """
    written = []
    for workload in workloads:
        for kind, rows in plot_tables(workload).items():
            path = root / kind / f"{workload.name}.json"
            write_json(path, rows)
            written.append(path)
    for kind in PLOT_KINDS:
        for stale in sorted((root / kind).glob("*.json")):
            if stale not in written:
                stale.unlink()
    return written
