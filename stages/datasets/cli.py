"""Commands for datasets: ``atlas check``, ``atlas dataset …`` and ``atlas schema export``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

dataset_app = typer.Typer(
    help="Create, publish and import datasets.\n\nExample: atlas dataset new eval-geometry-v1",
    no_args_is_help=True,
)
schema_app = typer.Typer(
    help="JSON Schema of cards and rows.\n\nExample: atlas schema export schemas/",
    no_args_is_help=True,
)


def check(
    no_regen: Annotated[
        bool, typer.Option("--no-regen", help="Skip regenerating datasets (structure only).")
    ] = False,
    metrics: Annotated[Path, typer.Option(help="Where to write the check metrics.")] = Path(
        "metrics/check.json"
    ),
    audit_metrics: Annotated[
        Path, typer.Option(help="Where to write the shortcut audit metrics.")
    ] = Path("metrics/audit.json"),
) -> None:
    """Validate every dataset: schema, files, budget, determinism, immutability and the
    shortcut audit (printed as a table; see `atlas dataset audit`).

    Example: atlas check   (or atlas check --no-regen for a quick structural pass)
    """
    from stages.datasets.audit_metrics import corpus_metrics
    from stages.datasets.audit_report import kill_rate_lines, table
    from stages.datasets.check import MB, run_check
    from stages.errors import ValidationFailures
    from stages.outputs import output_set
    from stages.params import CheckParams, section

    params = section(CheckParams, "check")
    report = run_check(params.budget_mb, regenerate_all=not no_regen)
    typer.echo(
        f"budget: {report.bytes_used / MB:.2f} MB used of {params.budget_mb:g} MB "
        f"({len(report.rows)} datasets, {sum(report.rows.values())} rows)"
    )
    with output_set("check", "the corpus check metrics") as out:
        out.write_json(metrics, report.metrics())
        out.write_json(audit_metrics, corpus_metrics(report.audits))
    typer.echo(table(report.audits))
    for line in kill_rate_lines(report.audits):
        typer.echo(line)
    flawed = sorted(k for k, a in report.audits.items() if a.status == "flawed")
    if flawed:
        typer.echo(
            f"flawed (published, so reported, not failed; supersede them): {', '.join(flawed)}"
            " — `atlas dataset audit ID` says why"
        )
    if report.failures:
        raise ValidationFailures(
            [f"check failed with {len(report.failures)} problem(s):"] + report.failures
        )
    typer.echo("check: ok")


@dataset_app.command("new")
def new(dataset_id: Annotated[str, typer.Argument(help="e.g. eval-math-v2")]) -> None:
    """Copy the generator template for a new dataset and add it to params.yaml.

    Example: atlas dataset new eval-geometry-v1
    """
    from stages.datasets.new import new_dataset

    path = new_dataset(dataset_id)
    typer.echo(
        f"wrote {path}; edit it (a task family of its own goes in "
        "_gen/families/<suite>/<family>.py; after adding an import, `atlas dataset stages`), "
        f"then `dvc repro` and `atlas dataset publish {dataset_id}`"
    )


@dataset_app.command("audit")
def audit(
    target: Annotated[
        str, typer.Argument(help="Dataset id under datasets/, or a dataset directory anywhere.")
    ],
    fresh: Annotated[
        bool | None,
        typer.Option(
            help="Learn on three fresh instances too (default: only a dataset being published)."
        ),
    ] = None,
) -> None:
    """Shortcut audit of one eval dataset: the learned answer-free baseline per answer format,
    scorer strength per row (probes, derived near misses, echoes), code mutation testing,
    uniqueness, leaks and duplicates.

    Example: atlas dataset audit eval-science-v2   (or a directory such as /tmp/out/eval-x-v1,
    a generator's output before it is committed). Exits non-zero when a dataset that is not
    yet published fails (rules: `stages/datasets/audit.py`).
    """
    from stages.datasets.audit import audit_dataset
    from stages.datasets.audit_report import details, table
    from stages.datasets.load import DATASETS_DIR, dataset_dir
    from stages.errors import ValidationFailures

    path = Path(target)
    if not (path / "dataset.json").is_file():
        path = dataset_dir(target, DATASETS_DIR)
    result = audit_dataset(path, fresh=fresh)
    typer.echo(table({result.id: result}))
    typer.echo(details(result))
    if result.status == "fail":
        raise ValidationFailures([f"audit failed for {result.id}:"] + result.problems())


@dataset_app.command("generate")
def generate(
    dataset_id: Annotated[str, typer.Argument(help="Dataset id with a generator in _gen/.")],
) -> None:
    """Run a generator into a temporary folder, check the budget, then move it into datasets/.

    Example: atlas dataset generate eval-math-v2   (what the gen-eval-math-v2 stage runs).
    Nothing under datasets/ changes when the generator fails or the budget would be exceeded.
    """
    from stages.datasets.generate import generate as do_generate
    from stages.params import CheckParams, section

    path = do_generate(dataset_id, section(CheckParams, "check").budget_mb)
    typer.echo(f"wrote {path}")


@dataset_app.command("stages")
def stages() -> None:
    """Rewrite dvc.yaml's gen stages from params.yaml `datasets:` and each generator's imports.

    Example: atlas dataset stages   (after adding `from families.science import units` to
    `_gen/eval-science-v3.py`, so that gen-eval-science-v3 depends on
    `_gen/families/science/units.py`; the check fails until then).
    """
    from stages.datasets.gen_stages import sync

    changed = sync()
    typer.echo("dvc.yaml: gen stages rewritten" if changed else "dvc.yaml: gen stages up to date")


@dataset_app.command("fresh")
def fresh(
    dataset_id: Annotated[str, typer.Argument(help="A generated dataset id under datasets/.")],
    seed: Annotated[int, typer.Option(help="Seed of the fresh instance.")],
) -> None:
    """Write an unpublished fresh instance: same generator and distribution, new items.

    Example: atlas dataset fresh eval-math-v2 --seed 101   (writes fresh/seed-101/eval-math-v2/,
    git-ignored, never in datasets/); the same seed always gives the same bytes.
    """
    from stages.datasets.fresh import make_fresh, overlap
    from stages.datasets.load import load_dataset

    path = make_fresh(dataset_id, seed)
    public, instance = load_dataset(dataset_id), load_dataset(dataset_id, path.parent)
    shared = overlap(public, instance)
    typer.echo(f"wrote {path} ({len(instance.rows)} rows, {len(shared)} repeating a public item)")


@dataset_app.command("publish")
def publish(dataset_id: Annotated[str, typer.Argument(help="Dataset id to pin.")]) -> None:
    """Pin a dataset's bytes in datasets/registry.json; later changes fail the check.

    Example: atlas dataset publish eval-geometry-v1
    """
    from stages.datasets.registry import publish as do_publish

    digests = do_publish(dataset_id)
    typer.echo(f"published {dataset_id} ({len(digests)} files)")


@schema_app.command("export")
def export(directory: Annotated[Path, typer.Argument(help="Output directory.")]) -> None:
    """Write JSON Schema for the dataset card and the three row kinds.

    Example: atlas schema export schemas/
    """
    from stages.datasets.schema_export import export_schemas

    for path in export_schemas(directory):
        typer.echo(f"wrote {path}")


@dataset_app.command("import")
def import_(
    source: Annotated[Path, typer.Argument(help="CSV, JSONL or Parquet file to import.")],
    dataset_id: Annotated[str, typer.Option("--id", help="New dataset id, e.g. eval-mmlu300-v1.")],
    kind: Annotated[
        str,
        typer.Option(
            help="What the file holds: mc (subject, question, choices, answer) "
            "or translation (source, references, direction, ...)."
        ),
    ] = "mc",
    sample: Annotated[
        int | None, typer.Option(help="Items to draw, stratified by subject.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the stratified sample.")] = 0,
    origin: Annotated[str, typer.Option(help="Where the file comes from.")] = "unknown",
    revision: Annotated[str, typer.Option(help="The origin's revision.")] = "unknown",
    licence: Annotated[str, typer.Option(help="Licence of the source material.")] = "unknown",
) -> None:
    """Import an external file as a pinned, never-regenerated dataset.

    Example: atlas dataset import mmlu.csv --id eval-mmlu300-v1 --sample 300 --origin MMLU
    """
    from stages.review.importer import import_dataset

    path = import_dataset(
        source,
        dataset_id,
        kind=kind,
        sample=sample,
        seed=seed,
        origin=origin,
        revision=revision,
        licence=licence,
    )
    typer.echo(f"imported {source} into {path}")


def workloads() -> None:
    """List the workloads in params.yaml: dataset, rows, scorers, perf or eval.

    Example: atlas workloads
    """
    from stages.datasets.workloads import workloads_table

    typer.echo(workloads_table())
