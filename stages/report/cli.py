"""``atlas report``."""

from __future__ import annotations

import typer

from stages.errors import AtlasError


def report() -> None:
    """Write metrics/summary.json, report.md and report.html from every workload's metrics."""
    raise AtlasError("atlas report is not implemented yet")


_ = typer
