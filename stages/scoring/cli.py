"""``atlas score`` and ``atlas score-one``."""

from __future__ import annotations

from typing import Annotated

import typer

from stages.errors import AtlasError


def score(workload: Annotated[str, typer.Argument(help="Workload name from params.yaml.")]) -> None:
    """Score a workload's journaled responses and write its metrics."""
    raise AtlasError("atlas score is not implemented yet")


def score_one(
    row: Annotated[str, typer.Option("--row", help="A row as JSON, or a path to one.")],
    output: Annotated[str, typer.Option("--output", help="The model output text.")],
) -> None:
    """Score one output against one row and print the verdict as JSON."""
    raise AtlasError("atlas score-one is not implemented yet")
