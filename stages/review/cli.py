"""``atlas review export|import`` and ``atlas agreement`` (spec 000 review, spec 002 audit)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from stages.errors import AtlasError
from stages.names import checked

review_app = typer.Typer(
    help="Human review: export sheets, import verdicts.\n\n"
    "Example: atlas review export --study kouman-demo",
    no_args_is_help=True,
)

StudyOption = Annotated[
    str, typer.Option("--study", help="Study name: review/studies/<name>.yaml.")
]


@review_app.command("export")
def export(
    study: StudyOption,
    pass_no: Annotated[
        int, typer.Option("--pass", help="Which pass to export (audits have 2).")
    ] = 1,
    reviewer: Annotated[
        list[str] | None, typer.Option(help="Only this reviewer (repeatable); default all.")
    ] = None,
) -> None:
    """Write the blind key, one read-only reading package per reviewer and verdict templates.

    Example: atlas review export --study kouman-demo --pass 1
    """
    checked(study, "--study")
    from stages.review.sheets import export as do_export

    result = do_export(study, pass_no, reviewer or None)
    typer.echo(f"key: {result.key} (keep it away from reviewers)")
    for path in result.packages:
        if path.suffix == ".html":
            typer.echo(f"sheet: {path} (open it in a browser; its export is the verdict file)")
        else:
            typer.echo(f"package: {path} (read-only)")
    for path in result.templates:
        typer.echo(f"verdict template: {path} (commit it once filled in)")
    if result.refused:
        lines = [f"pass {pass_no} refused for {r}: {why}" for r, why in result.refused.items()]
        raise AtlasError("; ".join(lines))


@review_app.command("accept")
def accept_verdicts(
    file: Annotated[Path, typer.Argument(help="Verdict file exported from an HTML sheet.")],
    study: StudyOption,
    draft: Annotated[
        bool, typer.Option(help="Accept an incomplete draft (import refuses it until complete).")
    ] = False,
    replace: Annotated[
        bool, typer.Option(help="Overwrite a verdict file that holds other labels.")
    ] = False,
) -> None:
    """Check a sheet's exported verdicts against the key and put them in review/verdicts/.

    Example: atlas review accept ~/Downloads/ana.pass1.json --study kouman-demo
    """
    checked(study, "--study")
    from stages.review.accept import accept

    done = accept(file, study, draft=draft, replace=replace)
    state = "draft" if done.draft else "complete"
    typer.echo(f"{done.target}: {done.items} item(s) labelled ({state}); commit it")


@review_app.command("import")
def import_verdicts(
    study: StudyOption,
    pass_no: Annotated[
        list[int] | None,
        typer.Option(
            "--pass",
            help="Only these passes (repeatable); default: pass one and "
            "every later pass with labels typed in.",
        ),
    ] = None,
) -> None:
    """Validate every verdict, resolve final labels and write the labels table and metrics.

    Example: atlas review import --study kouman-demo
    """
    checked(study, "--study")
    from stages.review.outcome import import_study
    from stages.review.study import StudyPaths

    out, _ = import_study(study, pass_no or None)
    paths = StudyPaths(study)
    passes = ", ".join(str(p) for p in out.passes)
    typer.echo(f"imported pass(es) {passes} of {study}: {len(out.key.items)} items")
    open_items = out.unresolved()
    if open_items:
        typer.echo(
            f"{open_items} disagreement(s) await adjudication: see "
            f"{paths.results / 'disagreements.json'}, record decisions in "
            f"{paths.adjudication_file(1)}"
        )
    typer.echo(f"metrics: {paths.metrics}")


def agreement(
    table: Annotated[
        Path, typer.Argument(help="Long table (.csv or .jsonl): item, rater, label [, field].")
    ],
    method: Annotated[
        str,
        typer.Option(
            help="cohen | cohen-linear | cohen-quadratic | fleiss | "
            "krippendorff-nominal | krippendorff-ordinal | "
            "majority (2-of-3 per item and field)."
        ),
    ],
    labels: Annotated[
        str | None,
        typer.Option(help="Full ordered label set, e.g. 0,1,2,3,4 (weights use it, seen or not)."),
    ] = None,
    field: Annotated[str | None, typer.Option(help="Only rows of this field.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    out: Annotated[Path | None, typer.Option(help="Also write the JSON result here.")] = None,
) -> None:
    """Inter-rater agreement over a long table (item, rater, label).

    Example: atlas agreement labels.csv --method cohen-quadratic --labels 0,1,2,3,4
    """
    from stages.io import write_json
    from stages.review.agreement import METHODS, Rating, compute, majority
    from stages.review.table import read_table, resolve_labels

    if method not in (*METHODS, "majority"):
        raise AtlasError(f"--method {method!r}: use one of {', '.join(METHODS)}, majority")
    ratings = read_table(table)
    if field is not None:
        ratings = [r for r in ratings if r.field == field]
        if not ratings:
            raise AtlasError(f"{table}: no rows with field {field!r}")
    by_field: dict[str, list[Rating]] = {}
    for r in ratings:
        by_field.setdefault(r.field, []).append(r)
    result: dict[str, object] = {}
    lines: list[str] = []
    for name, rows in sorted(by_field.items()):
        label = name or "(all)"
        if method == "majority":
            winners = {m.item: m.label for m in majority(rows)}
            missing = sum(v is None for v in winners.values())
            result[label] = {"items": len(winners), "no_majority": missing, "majority": winners}
            lines.append(f"{label}: a majority on {len(winners) - missing} of {len(winners)} items")
            continue
        a = compute(method, rows, resolve_labels(rows, labels, method))
        result[label] = a.as_dict()
        value = f"{a.value:.4f}" if a.value is not None else f"undefined ({a.reason})"
        lines.append(
            f"{label}: {method} = {value} over {a.items} items, {a.raters} raters, "
            f"labels {','.join(a.labels)}"
        )
    document = result if len(result) != 1 else next(iter(result.values()))
    if out is not None:
        write_json(out, document)
    typer.echo(json.dumps(document, ensure_ascii=False, indent=2) if as_json else "\n".join(lines))
