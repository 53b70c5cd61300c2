"""``atlas review …`` and ``atlas agreement``."""

from __future__ import annotations

import typer

from stages.errors import AtlasError

review_app = typer.Typer(help="Human review: export sheets, import verdicts.", no_args_is_help=True)


def agreement() -> None:
    """Inter-rater agreement over a long table (item, rater, label)."""
    raise AtlasError("atlas agreement is not implemented yet")
