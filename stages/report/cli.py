"""``atlas report`` (the general report) and ``atlas report --protocol kouman``."""

from __future__ import annotations

from typing import Annotated

import typer

from stages.errors import AtlasError
from stages.names import checked


def report(
    protocol: Annotated[
        str | None,
        typer.Option(help="Write a protocol report instead of the general one: kouman."),
    ] = None,
    study: Annotated[
        str, typer.Option(help="Review study of a protocol report (review/studies/<name>.yaml).")
    ] = "kouman-demo",
) -> None:
    """Write the headline metrics, report.md and report.html from every workload's metrics.

    Example: atlas report   (or: atlas report --protocol kouman --study kouman-demo)
    """
    if protocol is not None:
        checked(study, "--study")
        if protocol != "kouman":
            raise AtlasError(f"--protocol {protocol!r}: the only protocol is kouman")
        from stages.review.kouman import kouman_report

        result = kouman_report(study)
        typer.echo(f"report: wrote {result.markdown} and {result.metrics_path}")
        return
    from stages.report.run import run_report

    written = run_report()
    typer.echo(
        f"report: wrote {written[0]}, {written[1]} and {len(written) - 2} headline and plot files"
    )
