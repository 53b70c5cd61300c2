"""What ``atlas compare`` does once its options are parsed: compare, print, write files."""

from __future__ import annotations

from pathlib import Path

import typer

from stages.compare import flips as flip_views
from stages.compare import render
from stages.compare.html import render_html
from stages.compare.run import compare
from stages.errors import AtlasError
from stages.io import atomic_write_text


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
