"""``atlas compare A B``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from stages.names import checked_verdict_set


def compare(
    a: Annotated[
        str, typer.Argument(help="Baseline: a git revision, a DVC experiment name or 'workspace'.")
    ] = "HEAD",
    b: Annotated[
        str, typer.Argument(help="Compared: a git revision, a DVC experiment name or 'workspace'.")
    ] = "workspace",
    workload: Annotated[
        list[str] | None,
        typer.Option("--workload", "-w", help="Compare only this workload (repeatable)."),
    ] = None,
    flips: Annotated[
        bool,
        typer.Option(
            "--flips", help="List every flipped item: prompt excerpt, gold, both answers."
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Also write compare.md and compare.html here.")
    ] = None,
    plan: Annotated[
        float | None,
        typer.Option(
            "--plan",
            min=0.01,
            help="Instead of the table: items and fresh-seed instances each workload needs to "
            "detect a difference of this many points with 80% power.",
        ),
    ] = None,
) -> None:
    """Compare revision B against A item by item: paired, clustered intervals, McNemar, flips.

    Example: atlas compare HEAD~1 HEAD --flips --out build/compare (or --plan 3)
    """
    for name in workload or []:
        checked_verdict_set(name, "--workload")  # it names metrics/verdicts/<name>.jsonl
    from stages.compare.run_cli import run_compare

    run_compare(a, b, workload, flips, as_json, out, plan)
