"""``atlas compare A B`` and ``atlas gate POLICY A B``: options, then compare, print, write.

Typer and the option checks only at import; the statistics load inside the commands.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from stages.errors import AtlasError
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
    run_compare(a, b, workload, flips, as_json, out, plan)


def gate(
    policy: Annotated[Path, typer.Argument(help="Policy file (YAML): alpha and rules.")],
    a: Annotated[
        str, typer.Argument(help="Baseline: a git revision, DVC experiment or 'workspace'.")
    ],
    b: Annotated[
        str, typer.Argument(help="Candidate: a git revision, DVC experiment or 'workspace'.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the decisions as JSON.")] = False,
) -> None:
    """Pass or fail a CI job on B against A: exit 0 pass, 1 fail, 3 inconclusive, 2 bad input.

    Example: atlas gate ci/policy.yaml origin/main HEAD
    """
    from stages.compare import gate as gating
    from stages.compare.policy import load_policy
    from stages.compare.run import compare

    rules = load_policy(policy)
    result = gating.evaluate(rules, compare(a, b))
    if as_json:
        typer.echo(json.dumps(gating.as_dict(result, rules), indent=2))
    else:
        typer.echo("\n".join(gating.lines(result, rules)))
    sys.exit(result.exit_code)


def check_out(out: Path) -> None:
    """``--out`` names a directory (made if missing) where compare.md and compare.html are
    replaced; an existing file there, or a file on the way to it, is refused before anything is
    compared or written."""
    for place in (out, *out.parents):
        if place.exists() or place.is_symlink():
            if not place.is_dir():
                where = "is" if place == out else f"lies under {place}, which is"
                raise AtlasError(
                    f"--out {out}: {where} a file, not a directory (give a directory: "
                    "compare.md and compare.html are written, or replaced, inside it)"
                )
            break
    for name in ("compare.md", "compare.html"):
        if (out / name).is_dir():
            raise AtlasError(f"--out {out}: {out / name} is a directory; {name} cannot replace it")


def run_compare(
    a: str,
    b: str,
    only: list[str] | None,
    show_flips: bool,
    as_json: bool,
    out: Path | None,
    plan: float | None = None,
) -> None:
    from stages.compare import flips as flip_views
    from stages.compare import render
    from stages.compare.html import render_html
    from stages.compare.run import compare
    from stages.io import atomic_write_text

    if out is not None:
        check_out(out)
    result = compare(a, b, only)
    if not result.rows:
        reasons = render.notes(result) or ["no paired items"]
        raise AtlasError("nothing to compare: " + "; ".join(reasons))
    if plan is not None:
        from stages.compare.plan_view import plan_output

        typer.echo(plan_output(result, plan, as_json), nl=False)
        return
    flips = flip_views.collect(result) if show_flips or out is not None or as_json else []
    if as_json:
        typer.echo(
            render.as_json(result, flip_views.as_dict(flips) if show_flips else None), nl=False
        )
    else:
        lines = flip_views.terminal_lines(flips)
        typer.echo(render.terminal(result, show_flips, lines), nl=False)
    if out is not None:
        markdown = render.markdown(result, flip_views.markdown_lines(flips))
        page = render_html(result, flips)
        atomic_write_text(out / "compare.md", markdown)
        atomic_write_text(out / "compare.html", page)
        if not as_json:
            typer.echo(f"compare: wrote {out / 'compare.md'} and {out / 'compare.html'}")
