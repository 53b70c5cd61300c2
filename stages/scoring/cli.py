"""``atlas score`` and ``atlas score-one``."""

from __future__ import annotations

from typing import Annotated

import typer


def score(workload: Annotated[str, typer.Argument(help="Workload name from params.yaml.")]) -> None:
    """Score a workload's journaled responses and write its metrics.

    Example: atlas score math
    """
    from stages.scoring.stage import run_score_stage

    run_score_stage(workload)


def score_one(
    row: Annotated[str, typer.Option("--row", help="A row as JSON, or a path to one.")],
    output: Annotated[str, typer.Option("--output", help="The model output text.")],
) -> None:
    """Score one output against one row and print the verdict as JSON.

    Example: atlas score-one --row row.json --output "The answer is 42."
    """
    from stages.scoring.one import score_one_command

    typer.echo(score_one_command(row, output))
