"""``atlas report``: every workload's metrics into headline files, report.md and report.html.

Issue 4, "Report"; issues 10 and 15. Inputs: the workloads named in params.yaml (their metrics,
manifests, scored records, timings and optional serving metrics) and the optional corpus check.
Outputs: ``metrics/summary/<workload>.json`` (headlines), ``metrics/plots/<kind>/<workload>.json``,
``report.md`` and ``report.html``. Everything is rendered before anything is written, and the
files (with the deletion of stale headline and plot files) are committed as one output set
(issue 24, :mod:`stages.outputs`), so a report that fails or is killed leaves the previous one in
place, whole (dvc.yaml marks the outputs ``persist`` so DVC does not delete them before the
command runs either).
"""

from __future__ import annotations

from pathlib import Path

from stages.outputs import output_set
from stages.params import workload_names
from stages.report.html import render_html
from stages.report.inputs import load_check, load_workload
from stages.report.markdown import render_markdown
from stages.report.serving import serving_plot_files
from stages.report.summary import headline_files, plot_files, stale_files

REPORT_MD = Path("report.md")
REPORT_HTML = Path("report.html")


def run_report() -> list[Path]:
    """Write every report output from the cwd's metrics/ and results/; returns the paths."""
    workloads = [load_workload(name) for name in workload_names()]
    check = load_check()
    files = {
        REPORT_MD: render_markdown(workloads, check),
        REPORT_HTML: render_html(workloads, check),
        **headline_files(workloads),
        **plot_files(workloads),
        **serving_plot_files(workloads),
    }
    with output_set("report", "the report") as out:
        for path, text in files.items():
            out.write_text(path, text)
        for stale in stale_files(files):
            out.remove(stale)
    return list(files)
