"""``atlas review import``: validate every verdict, resolve final labels, write tables and metrics.

How a final label is chosen is :mod:`stages.review.resolved`' rule; the metrics document is
:mod:`stages.review.summary`'s.
"""

from __future__ import annotations

import csv
import io
from dataclasses import asdict
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.outputs import output_set
from stages.review.agreement import Rating
from stages.review.keys import Key, load_key
from stages.review.resolved import FieldOutcome, StudyOutcome, resolve
from stages.review.study import Study, StudyPaths, load_study
from stages.review.summary import summarise
from stages.review.verdict_lines import VERDICTS, lines_text, review_documents
from stages.review.verdicts import (
    ReviewerVerdicts,
    load_adjudication,
    load_all_verdicts,
    read_strict_json,
)


def _check_runs(key: Key, verdicts: list[ReviewerVerdicts], paths: StudyPaths) -> None:
    for v in verdicts:
        for track, run_key in v.runs.items():
            current = (key.runs.get(track) or {}).get("run_key")
            if run_key and current and run_key != current:
                raise AtlasError(
                    f"{paths.verdict_file(v.reviewer, v.pass_no)}: runs.{track}: the verdicts "
                    f"judge run {run_key[:12]}…, the current responses are run {current[:12]}…; "
                    "export a new study for the new run"
                )


def resolve_pass(
    study: Study, paths: StudyPaths, key: Key, pass_no: int, out: StudyOutcome
) -> None:
    verdicts = load_all_verdicts(study, paths, key, pass_no)
    _check_runs(key, verdicts, paths)
    by_item: dict[tuple[str, str], dict[str, str]] = {}
    for v in verdicts:
        out.demo_verdicts |= v.demo
        for blind, fields in v.labels.items():
            for name, label in fields.items():
                by_item.setdefault((blind, name), {})[v.reviewer] = label
    split = {k for k, labels in by_item.items() if len(set(labels.values())) > 1}
    decided = load_adjudication(paths.adjudication_file(pass_no), study, key, pass_no, split)
    resolved: dict[str, dict[str, FieldOutcome]] = {}
    ratings: list[Rating] = []
    for (blind, name), labels in sorted(by_item.items()):
        resolved.setdefault(blind, {})[name] = resolve(labels, decided.get((blind, name)))
        column = out.field_name(blind, pass_no, name)
        ratings += [Rating(blind, r, label, column) for r, label in sorted(labels.items())]
    out.passes[pass_no] = resolved
    out.ratings[pass_no] = ratings


def _labels_csv(out: StudyOutcome) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["item", "rater", "field", "label"])
    for ratings in out.ratings.values():
        writer.writerows([r.item, r.rater, r.field, r.label] for r in ratings)
    return buffer.getvalue()


def _outcome_json(out: StudyOutcome) -> dict[str, Any]:
    items: dict[str, Any] = {}
    for pass_no, resolved in out.passes.items():
        for blind, fields in resolved.items():
            entry = items.setdefault(blind, {"item": asdict(out.key.items[blind]), "passes": {}})
            entry["passes"][str(pass_no)] = {n: asdict(f) for n, f in fields.items()}
    return {
        "study": out.key.study,
        "demo": out.key.demo or out.demo_verdicts,
        "runs": out.key.runs,
        "items": items,
    }


def _disagreements(out: StudyOutcome) -> dict[str, Any]:
    open_items: dict[str, Any] = {}
    for pass_no, resolved in out.passes.items():
        decisions = [
            {"id": blind, "field": name, "label": None, "why": "", "labels": f.labels}
            for blind, fields in resolved.items()
            for name, f in fields.items()
            if f.how == "unresolved"
        ]
        open_items[f"pass{pass_no}"] = {"count": len(decisions), "decisions": decisions}
    return open_items


def _started(paths: StudyPaths, study: Study, pass_no: int) -> bool:
    """True once any reviewer typed a label into a verdict file of this pass."""
    for reviewer in study.reviewers:
        path = paths.verdict_file(reviewer, pass_no)
        if path.is_file():
            data, _ = read_strict_json(path)
            entries = data.get("verdicts") if isinstance(data, dict) else None
            for entry in entries if isinstance(entries, list) else []:
                if isinstance(entry, dict) and any(
                    v not in (None, "") for k, v in entry.items() if k not in ("id", "why")
                ):
                    return True
    return False


def import_study(name: str, passes: list[int] | None = None) -> tuple[StudyOutcome, dict[str, Any]]:
    """Validate and resolve pass one and every later pass that has begun (or just ``passes``);
    write tables and metrics. A pass that is imported must be complete."""
    study, paths = load_study(name)
    key = load_key(paths.key)
    if key.study != name or sorted(key.order) != sorted(study.reviewers):
        raise AtlasError(f"{paths.key}: written for another study or reviewer list; re-export")
    out = StudyOutcome(study, key)
    for pass_no in study.passes:
        wanted = pass_no in passes if passes else pass_no == 1 or _started(paths, study, pass_no)
        if wanted:
            resolve_pass(study, paths, key, pass_no, out)
    metrics = summarise(out)
    with output_set(f"review-import-{name}", f"the imported verdicts of study {name}") as files:
        files.write_text(paths.results / "labels.csv", _labels_csv(out))
        files.write_json(paths.results / "outcome.json", _outcome_json(out))
        files.write_json(paths.results / "disagreements.json", _disagreements(out))
        files.write_json(paths.metrics, metrics)
        for workload, (document, lines) in review_documents(out).items():
            files.write_json(Path("metrics") / f"{workload}.review.json", document)
            files.write_text(VERDICTS / f"{workload}.review.jsonl", lines_text(lines))
    return out, metrics


def outcome_path(paths: StudyPaths) -> Path:
    return paths.results / "outcome.json"
