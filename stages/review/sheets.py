"""``atlas review export``: the key, one reading package per reviewer and verdict templates.

* Reading packages go to ``review/packages/<study>/<reviewer>/`` (git-ignored) and are made
  read-only: ``pass<N>.md`` to read, and ``pass<N>.html``, the offline sheet reviewers label in
  (:mod:`stages.review.sheet_html`), whose export is the verdict file.
* Verdict templates go to ``review/verdicts/<study>/`` (committed) and are never overwritten.
* The key goes to ``results/review/<study>/key.json``, outside every package.
* Pass two of an audit is refused per reviewer until that reviewer's pass one is complete,
  because pass two reveals which items the filter kept (spec 002).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.io import atomic_write_text
from stages.markdown_text import fenced
from stages.review.items import (
    latest_responses,
    load_corpus,
    run_summary,
    study_items,
    workload_rows,
)
from stages.review.keys import Key, build_key, save_key
from stages.review.render import Section, corpus_sections, response_sections, rubric_markdown
from stages.review.sheet_html import sheet_data, sheet_html
from stages.review.study import Study, StudyPaths, load_study
from stages.review.verdicts import check_verdicts

READ_ONLY = 0o444


@dataclass
class ExportResult:
    """Files written by an export and the reviewers whose pass-two package was refused."""

    key: Path
    packages: list[Path] = field(default_factory=list)
    templates: list[Path] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)


def _contents(study: Study, key: Key, pass_no: int) -> dict[str, list[Section]]:
    """What each blind item shows in this pass."""
    shown: dict[str, list[Section]] = {}
    if study.audit is not None:
        audit_pass = study.audit.pass1 if pass_no == 1 else study.audit.pass2
        assert audit_pass is not None
        corpus = load_corpus(Path(study.audit.corpus), study.audit.stratum_field)
        for blind in key.pass_items(pass_no):
            shown[blind] = corpus_sections(corpus[key.items[blind].row_id], audit_pass.show)
        return shown
    for track_name, track in study.tracks.items():
        dataset, _, _ = workload_rows(track.workload)
        rows = dataset.row_by_id()
        _, records = latest_responses(track.workload)
        for blind, item in key.items.items():
            if item.track != track_name:
                continue
            record = records.get((item.row_id, item.repeat))
            if record is None:
                raise AtlasError(
                    f"results/{track.workload}/responses.jsonl: no response for row "
                    f"{item.row_id} (repeat {item.repeat}) in the current run; run "
                    f"`atlas infer {track.workload}` first"
                )
            shown[blind] = response_sections(rows[item.row_id], record)
    return shown


def _sheet_markdown(
    study: Study, key: Key, reviewer: str, pass_no: int, shown: dict[str, list[Section]]
) -> str:
    order = key.order[reviewer][str(pass_no)]
    rubrics = {study.rubric_for(key.items[b].track, pass_no).title: b for b in order}
    head = [
        f"# Review sheet — study `{key.study}`, pass {pass_no}, reviewer `{reviewer}`",
        "",
        "This file is a read-only reading package. Type your labels into "
        f"`review/verdicts/{key.study}/{reviewer}.pass{pass_no}.json` (same blind ids, same "
        "order) and commit it. Items are identified by id, never by position; your order differs "
        "from the other reviewers' on purpose. Do not discuss items until every verdict file is "
        "done.",
        "",
    ]
    if key.demo:
        head += ["> DEMO STUDY: this sheet belongs to the worked example.", ""]
    head += ["## Rubric", ""]
    head += [
        rubric_markdown(study.rubric_for(key.items[b].track, pass_no)) for b in rubrics.values()
    ]
    body = ["## Items", ""]
    for number, blind in enumerate(order, start=1):
        item = key.items[blind]
        title = study.rubric_for(item.track, pass_no).title
        body += [f"### {number}/{len(order)} · `{blind}` · {title}", ""]
        for label, text in shown[blind]:
            body += [f"**{label}**", "", fenced(text), ""]
        body += [f"Fields to fill: {', '.join(item.fields[str(pass_no)])}", ""]
    return "\n".join(head + body)


def verdict_header(key: Key, reviewer: str, pass_no: int) -> dict[str, Any]:
    """The head of a verdict file, as the template and the HTML sheet's export write it."""
    return {
        "study": key.study,
        "reviewer": reviewer,
        "pass": pass_no,
        "demo": key.demo,
        "notice": "Fill in one label per field (see the rubric in your reading package); "
        "leave nothing null. Commit this file.",
        "runs": {t: (r or {}).get("run_key") for t, r in key.runs.items()},
    }


def _template(key: Key, reviewer: str, pass_no: int) -> dict[str, Any]:
    rows = []
    for blind in key.order[reviewer][str(pass_no)]:
        fields = key.items[blind].fields[str(pass_no)]
        rows.append({"id": blind, **dict.fromkeys(fields), "why": ""})
    return {**verdict_header(key, reviewer, pass_no), "verdicts": rows}


def _write_read_only(path: Path, text: str) -> None:
    atomic_write_text(path, text)
    os.chmod(path, READ_ONLY)


def export(name: str, pass_no: int = 1, reviewers: list[str] | None = None) -> ExportResult:
    """Write the key, packages and missing verdict templates of one pass of a study."""
    study, paths = load_study(name)
    if pass_no not in study.passes:
        raise AtlasError(f"study {name} has no pass {pass_no} (passes: {study.passes})")
    chosen = reviewers or study.reviewers
    unknown = sorted(set(chosen) - set(study.reviewers))
    if unknown:
        raise AtlasError(f"{paths.config}: reviewers {unknown} are not in the study")
    runs = {t: run_summary(latest_responses(tr.workload)[0]) for t, tr in study.tracks.items()}
    key = build_key(name, study.seed, study.demo, study_items(study), study.reviewers, runs)
    save_key(key, paths.key)
    result = ExportResult(key=paths.key)
    shown = _contents(study, key, pass_no)
    for reviewer in chosen:
        if pass_no == 2:
            refusal = _pass_one_incomplete(study, paths, key, reviewer)
            if refusal:
                result.refused[reviewer] = refusal
                continue
        package = paths.package(reviewer) / f"pass{pass_no}.md"
        _write_read_only(package, _sheet_markdown(study, key, reviewer, pass_no, shown))
        header = verdict_header(key, reviewer, pass_no)
        sheet = package.with_suffix(".html")
        _write_read_only(
            sheet, sheet_html(sheet_data(study, key, reviewer, pass_no, shown, header))
        )
        result.packages += [package, sheet]
        template = paths.verdict_file(reviewer, pass_no)
        if not template.exists():
            # Unsorted keys: the blind id leads each verdict, as the reviewer reads it.
            text = json.dumps(_template(key, reviewer, pass_no), ensure_ascii=False, indent=2)
            atomic_write_text(template, text + "\n")
            result.templates.append(template)
    return result


def _pass_one_incomplete(study: Study, paths: StudyPaths, key: Key, reviewer: str) -> str | None:
    """Why ``reviewer`` may not see pass two yet, or None when pass one is complete and valid."""
    path = paths.verdict_file(reviewer, 1)
    if not path.is_file():
        return f"{path} does not exist"
    _, problems = check_verdicts(path, study, key, reviewer, 1)
    if problems:
        return f"pass one is not complete ({len(problems)} problem(s), first: {problems[0]})"
    return None
