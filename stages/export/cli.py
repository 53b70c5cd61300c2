"""``atlas export REV --format F --out DIR``: a scored run in a format other tools load."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from stages.names import checked

FORMATS = ("every-eval-ever", "hf-eval-results")


def export(
    revision: Annotated[
        str, typer.Argument(help="A git revision, a DVC experiment name or 'workspace'.")
    ],
    out: Annotated[Path, typer.Option("--out", help="A new (or empty) directory to write.")],
    format: Annotated[
        str, typer.Option("--format", help="every-eval-ever or hf-eval-results.")
    ] = "every-eval-ever",
    workload: Annotated[
        list[str] | None,
        typer.Option("--workload", "-w", help="Export only this workload (repeatable)."),
    ] = None,
    with_prompts: Annotated[
        bool,
        typer.Option("--with-prompts", help="Put prompts and gold answers in the records."),
    ] = False,
    model_id: Annotated[
        str | None,
        typer.Option("--model-id", help="The model in Hub form, owner/name (default: its name)."),
    ] = None,
    organization: Annotated[
        str, typer.Option("--organization", help="Who publishes the figures.")
    ] = "Inference Atlas",
    hf_namespace: Annotated[
        str,
        typer.Option("--hf-namespace", help="Hub namespace of the datasets (hf-eval-results)."),
    ] = "inference-atlas",
) -> None:
    """Export the figures, intervals and item verdicts committed at REV.

    Example: atlas export HEAD --format every-eval-ever --out build/eee
    """
    from stages.errors import AtlasError

    if format not in FORMATS:
        raise AtlasError(f"--format {format!r}: unknown format (one of {', '.join(FORMATS)})")
    for name in workload or []:
        checked(name, "--workload")  # it names metrics/<name>.json
    from stages.export.run import run_export

    run_export(revision, out, format, workload, with_prompts, model_id, organization, hf_namespace)
