"""``atlas score`` and ``atlas score-one``."""

from __future__ import annotations

from typing import Annotated

import typer

from stages.names import checked

UNSAFE_HELP = (
    "Run code_exec in the basic sandbox when no real one exists (no bubblewrap, not root): the "
    "model's code then runs as your user, and the figures are marked unsafe."
)


def score(
    workload: Annotated[str, typer.Argument(help="Workload name from params.yaml.")],
    unsafe_sandbox: Annotated[bool, typer.Option("--unsafe-sandbox", help=UNSAFE_HELP)] = False,
) -> None:
    """Score a workload's journaled responses and write its metrics.

    Example: atlas score math
    """
    checked(workload, "WORKLOAD")  # it names results/<workload>/ and metrics/<workload>.json
    from stages.scoring.stage import run_score_stage

    run_score_stage(workload, unsafe_sandbox)


def score_one(
    row: Annotated[str, typer.Option("--row", help="A row as JSON, or a path to one.")],
    output: Annotated[str, typer.Option("--output", help="The model output text.")],
    unsafe_sandbox: Annotated[bool, typer.Option("--unsafe-sandbox", help=UNSAFE_HELP)] = False,
) -> None:
    """Score one output against one row and print the verdict as JSON.

    Example: atlas score-one --row row.json --output "The answer is 42."
    """
    from stages.scoring.one import score_one_command
    from stages.scoring.sandbox import allow_unsafe

    with allow_unsafe(unsafe_sandbox):
        typer.echo(score_one_command(row, output))
