"""``atlas report``: every workload's metrics into headline files, report.md and report.html.

Issue 4, "Report"; issues 10 and 15. Inputs: the workloads named in params.yaml (their metrics,
manifests, scored records, timings and optional serving metrics) and the optional corpus check.
Outputs: ``metrics/summary/<workload>.json`` (headlines), ``metrics/plots/<kind>/<workload>.json``,
``report.md`` and ``report.html``. Everything is rendered before anything is written, and the
files (with the deletion of stale headline and plot files) are committed as one output set
(issue 24, :mod:`stages.outputs`), so a report that fails or is killed leaves the previous one in
place, whole (dvc.yaml marks the outputs ``persist`` so DVC does not delete them before the
command runs either).

The report reads each workload's score and infer output sets, and the check's, only whole: when
one is being committed (between its commit point and its last rename, :mod:`stages.outputs`) it
waits briefly for the writer, else stops; a set committed while the report was reading it (its
files' identities changed) is read again.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.outputs import await_whole, output_set
from stages.params import workload_names
from stages.report.html import render_html
from stages.report.inputs import METRICS_DIR, RESULTS_DIR, WorkloadInputs, load_check, load_workload
from stages.report.markdown import render_markdown
from stages.report.serving import serving_plot_files
from stages.report.summary import headline_files, plot_files, stale_files

REPORT_MD = Path("report.md")
REPORT_HTML = Path("report.html")


READS = 3
"""Times the inputs are read before giving up on a project whose sets keep changing."""


def _identities(names: list[str]) -> list[tuple[int, int, int] | None]:
    """(inode, size, mtime) of every file the report reads from an output set: a commit renames
    new files onto them, so any commit during the read changes at least one."""
    paths = [METRICS_DIR / "check.json"]
    for name in names:
        paths += [METRICS_DIR / f"{name}.json", METRICS_DIR / f"{name}.serving.json"]
        paths += [RESULTS_DIR / name / "scored.jsonl", RESULTS_DIR / name / "manifest.json"]
    out: list[tuple[int, int, int] | None] = []
    for path in paths:
        try:
            stat = os.stat(path)
        except FileNotFoundError:
            out.append(None)
            continue
        out.append((stat.st_ino, stat.st_size, stat.st_mtime_ns))
    return out


def read_inputs(names: list[str]) -> tuple[list[WorkloadInputs], dict[str, Any] | None]:
    """Every workload's inputs and the check, each output set read whole (module docstring)."""
    sets = ["check", *(f"score-{n}" for n in names), *(f"infer-{n}-outputs" for n in names)]
    for _ in range(READS):
        await_whole(sets, "atlas report")
        before = _identities(names)
        workloads = [load_workload(name) for name in names]
        check = load_check()
        await_whole(sets, "atlas report")
        if _identities(names) == before:
            return workloads, check
    raise AtlasError(
        f"atlas report: the scores changed under it {READS} times in a row (another atlas "
        "command is scoring); nothing was written: run it again once that has finished"
    )


def run_report() -> list[Path]:
    """Write every report output from the cwd's metrics/ and results/; returns the paths."""
    workloads, check = read_inputs(workload_names())
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
