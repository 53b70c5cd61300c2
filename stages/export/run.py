"""``atlas export``: read the run at a revision, build the chosen format, write it whole."""

from __future__ import annotations

import os
import time
from pathlib import Path

from stages.compare.revisions import Revision
from stages.errors import AtlasError
from stages.export import eee, hf
from stages.export.figures import figures_of
from stages.export.out_dir import check_out, write_tree
from stages.export.run_files import committed_at, content_digest, scored_workloads


def _now() -> int:
    """Now, or ``SOURCE_DATE_EPOCH`` when set (reproducible builds' convention), so that an
    export can be made byte for byte again."""
    fixed = os.environ.get("SOURCE_DATE_EPOCH")
    if fixed is None:
        return int(time.time())
    if not fixed.isdigit():
        raise AtlasError(f"SOURCE_DATE_EPOCH={fixed!r}: expected Unix seconds")
    return int(fixed)


def run_export(
    name: str,
    out: Path,
    format: str,
    only: list[str] | None,
    with_prompts: bool,
    model_id: str | None,
    organization: str,
    hf_namespace: str,
) -> None:
    check_out(out)  # before reading anything: a taken --out is refused at once
    revision = Revision.of(name)
    workloads = scored_workloads(revision, only)
    figures = [figure for workload in workloads for figure in figures_of(workload)]
    workloads = [w for w in workloads if any(f.workload is w for f in figures)]
    if not figures:
        raise AtlasError(f"{revision.short}: the scored workloads have no figure to export")
    when = committed_at(revision, workloads)
    if format == "hf-eval-results":
        files = hf.build(figures, hf_namespace, revision.commit, when)
    else:
        digest = content_digest(revision, workloads)
        export = eee.Export(
            revision, workloads, figures, model_id, with_prompts, organization, when, _now(), digest
        )
        files = eee.build(export)
    write_tree(out, files)
    shown = ", ".join(w.name for w in workloads)
    print(
        f"{revision.short}: {len(figures)} figures of {len(workloads)} workloads ({shown}) "
        f"-> {out} ({format}, {len(files)} files)"
    )
