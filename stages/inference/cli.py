"""``atlas infer`` and ``atlas serve``."""

from __future__ import annotations

from typing import Annotated

import typer

from stages.errors import AtlasError


def infer(workload: Annotated[str, typer.Argument(help="Workload name from params.yaml.")]) -> None:
    """Send a workload's requests to the model and journal every response."""
    raise AtlasError("atlas infer is not implemented yet")


def serve() -> None:
    """Run the embedded model's OpenAI-compatible server in the foreground."""
    raise AtlasError("atlas serve is not implemented yet")
