"""The ``atlas`` command line: one Typer sub-app per noun, one command per pipeline stage.

Heavy modules (httpx, polars, sacrebleu, pydantic models of each stage) are imported inside the
commands so that ``atlas --help`` and the start of every stage stay fast.
"""

from __future__ import annotations

import sys
from typing import Any

import typer

from stages.compare import cli as compare_cli
from stages.datasets import cli as datasets_cli
from stages.engine import cli as engine_cli
from stages.errors import AtlasError
from stages.export import cli as export_cli
from stages.judge import cli as judge_cli
from stages.report import cli as report_cli
from stages.review import cli as review_cli
from stages.scoring import cli as scoring_cli
from stages.serving import cli as serving_cli


def _disk_sentence(exc: OSError) -> AtlasError | None:
    """A disk error no stage turned into a sentence yet (read-only, full, file-size limit)."""
    from pathlib import Path

    from stages.io import DISK_ERRNOS, disk_error

    if exc.errno not in DISK_ERRNOS:
        return None
    return disk_error(Path(exc.filename or "?"), exc, "stopped before anything was replaced")


def _start() -> None:
    """What every command does first: complete or undo output sets a killed command left half
    committed (:mod:`stages.outputs`), so every command reads whole sets."""
    from stages.outputs import recover_all

    recover_all()


class _AtlasApp(typer.Typer):
    """Typer app that turns an :class:`AtlasError` (or a disk error) into one sentence and a
    non-zero exit."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            _start()
            return super().__call__(*args, **kwargs)
        except AtlasError as exc:
            sys.stderr.write(f"atlas: error: {exc}\n")
            sys.exit(exc.exit_code)
        except OSError as exc:
            sentence = _disk_sentence(exc)
            if sentence is None:
                raise
            sys.stderr.write(f"atlas: error: {sentence}\n")
            sys.exit(sentence.exit_code)


app = _AtlasApp(
    name="atlas",
    help="Inference Atlas: reproducible accuracy and serving benchmarks.\n\n"
    "Example: atlas workloads, then atlas infer math --limit 5 --dry-run",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.command("check")(datasets_cli.check)
app.add_typer(datasets_cli.dataset_app, name="dataset")
app.add_typer(datasets_cli.schema_app, name="schema")
app.command("workloads")(datasets_cli.workloads)
app.command("infer")(serving_cli.infer)
app.command("merge")(serving_cli.merge)
app.command("serve")(engine_cli.serve)
app.command("score")(scoring_cli.score)
app.command("score-one")(scoring_cli.score_one)
app.command("report")(report_cli.report)
app.command("compare")(compare_cli.compare)
app.command("gate")(compare_cli.gate)
app.command("export")(export_cli.export)
app.add_typer(review_cli.review_app, name="review")
app.command("agreement")(review_cli.agreement)
app.command("judge")(judge_cli.judge)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI in-process (used by tests); returns the exit code."""
    try:
        app(args=argv, standalone_mode=False)
    except AtlasError as exc:
        sys.stderr.write(f"atlas: error: {exc}\n")
        return exc.exit_code
    except OSError as exc:
        sentence = _disk_sentence(exc)
        if sentence is None:
            raise
        sys.stderr.write(f"atlas: error: {sentence}\n")
        return sentence.exit_code
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0
