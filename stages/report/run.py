"""``atlas report``: every workload's metrics into summary.json, report.md and report.html.

Issue 4, "Report". Inputs: the workloads named in params.yaml (their metrics, manifests, scored
records and optional serving metrics) and the optional corpus check. Outputs, all written
atomically: ``metrics/summary.json``, ``metrics/plots/<kind>/<workload>.json``, ``report.md`` and
``report.html``. Other report kinds (e.g. a protocol report) can reuse the loaders and renderers
module by module.
"""

from __future__ import annotations

from pathlib import Path

from stages.io import atomic_write_text, write_json
from stages.params import workload_names
from stages.report.html import render_html
from stages.report.inputs import METRICS_DIR, load_check, load_workload
from stages.report.markdown import render_markdown
from stages.report.serving import write_serving_plots
from stages.report.summary import build_summary, write_plot_files

REPORT_MD = Path("report.md")
REPORT_HTML = Path("report.html")
SUMMARY = METRICS_DIR / "summary.json"


def run_report() -> list[Path]:
    """Write every report output from the cwd's metrics/ and results/; returns the paths."""
    workloads = [load_workload(name) for name in workload_names()]
    check = load_check()
    write_json(SUMMARY, build_summary(workloads, check))
    plots = write_plot_files(workloads) + write_serving_plots(workloads)
    atomic_write_text(REPORT_MD, render_markdown(workloads, check))
    atomic_write_text(REPORT_HTML, render_html(workloads, check))
    return [SUMMARY, REPORT_MD, REPORT_HTML, *plots]
