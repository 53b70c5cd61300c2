"""Verdict and adjudication files: reading, validating every entry, resolving final labels.

A verdict file ``review/verdicts/<study>/<reviewer>.pass<N>.json`` lists one object per blind id
of the reviewer's sheet; its fields are the rubric's. Every problem (unknown id, item missing,
label outside the rubric, duplicate id or key, field not asked) is collected and reported with
the file, line and item, so one import run shows all of them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages.errors import AtlasError, ValidationFailures
from stages.review.keys import Key
from stages.review.study import Study, StudyPaths
from stages.review.table import label_text

NOTE_FIELDS = ("why",)
HEADER = {"study", "reviewer", "pass", "demo", "notice", "runs", "verdicts"}
ADJ_HEADER = {"study", "pass", "adjudicator", "demo", "notice", "decisions"}


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for name, value in pairs:
        if name in seen:
            raise AtlasError(f"duplicate key {name!r}")
        seen[name] = value
    return seen


def read_strict_json(path: Path) -> tuple[Any, str]:
    """The document and its text; duplicate object keys are an error (one would be lost)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise AtlasError(f"{path}: file not found") from exc
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys), text
    except json.JSONDecodeError as exc:
        raise AtlasError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from exc
    except AtlasError as exc:
        raise AtlasError(f"{path}: {exc}") from exc


def _line_of(text: str, blind: str) -> int:
    match = re.search(r'"id"\s*:\s*"' + re.escape(blind) + '"', text)
    return text.count("\n", 0, match.start()) + 1 if match else 1


@dataclass(frozen=True)
class ReviewerVerdicts:
    """One reviewer's validated labels for one pass: blind id -> field -> label."""

    reviewer: str
    pass_no: int
    labels: dict[str, dict[str, str]]
    demo: bool
    runs: dict[str, str | None]


def check_verdicts(
    path: Path, study: Study, key: Key, reviewer: str, pass_no: int
) -> tuple[ReviewerVerdicts | None, list[str]]:
    """Validate one verdict file against the key; (verdicts or None, every problem found)."""
    data, text = read_strict_json(path)
    problems: list[str] = []
    if not isinstance(data, dict) or not isinstance(data.get("verdicts"), list):
        return None, [f"{path}:1: verdicts: expected an object with a 'verdicts' list"]
    for name in sorted(set(data) - HEADER):
        problems.append(f"{path}:1: {name}: unknown header field")
    expect = {"study": key.study, "reviewer": reviewer, "pass": pass_no}
    for name, value in expect.items():
        if data.get(name) != value:
            problems.append(f"{path}:1: {name}: is {data.get(name)!r}, expected {value!r}")
    sheet = key.order.get(reviewer, {}).get(str(pass_no), [])
    labels: dict[str, dict[str, str]] = {}
    for number, entry in enumerate(data["verdicts"], start=1):
        blind = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(blind, str):
            problems.append(f"{path}: verdict #{number}: id: missing")
            continue
        where = f"{path}:{_line_of(text, blind)}: item {blind}"
        item = key.items.get(blind)
        if item is None or blind not in sheet:
            what = "unknown blind id" if item is None else f"not on this pass-{pass_no} sheet"
            problems.append(f"{where}: id: {what}")
            continue
        if blind in labels:
            problems.append(f"{where}: id: duplicate verdict for this item")
            continue
        asked = item.fields[str(pass_no)]
        rubric = study.rubric_for(item.track, pass_no)
        got: dict[str, str] = {}
        for name in sorted(set(entry) - {"id", *asked, *NOTE_FIELDS}):
            problems.append(f"{where}: {name}: field is not asked for this item")
        for name in asked:
            label = label_text(entry.get(name))
            allowed = list(rubric.fields[name].labels)
            if label is None:
                problems.append(f"{where}: {name}: missing label (one of {', '.join(allowed)})")
            elif label not in allowed:
                problems.append(
                    f"{where}: {name}: label {label!r} is not in the rubric ({', '.join(allowed)})"
                )
            else:
                got[name] = label
        labels[blind] = got
    missing = [b for b in sheet if b not in labels]
    if missing:
        shown = ", ".join(missing[:10]) + (" …" if len(missing) > 10 else "")
        problems.append(f"{path}: {len(missing)} item(s) of the sheet have no verdict: {shown}")
    runs = data.get("runs") if isinstance(data.get("runs"), dict) else {}
    result = ReviewerVerdicts(reviewer, pass_no, labels, bool(data.get("demo")), runs or {})
    return result, problems


def load_all_verdicts(
    study: Study, paths: StudyPaths, key: Key, pass_no: int
) -> list[ReviewerVerdicts]:
    """Every reviewer's verdicts for one pass, or one error listing every problem."""
    problems: list[str] = []
    found: list[ReviewerVerdicts] = []
    for reviewer in study.reviewers:
        path = paths.verdict_file(reviewer, pass_no)
        if not path.is_file():
            problems.append(f"{path}: missing (reviewer {reviewer}, pass {pass_no})")
            continue
        verdicts, issues = check_verdicts(path, study, key, reviewer, pass_no)
        problems += issues
        if verdicts is not None:
            found.append(verdicts)
    if problems:
        raise ValidationFailures([f"{len(problems)} problem(s) in the verdicts:"] + problems)
    return found


def load_adjudication(
    path: Path, study: Study, key: Key, pass_no: int, disagreements: set[tuple[str, str]]
) -> dict[tuple[str, str], str]:
    """Adjudicated labels by (blind id, field); only disagreements may be adjudicated."""
    if not path.is_file():
        return {}
    data, text = read_strict_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("decisions"), list):
        raise AtlasError(f"{path}:1: decisions: expected an object with a 'decisions' list")
    problems = [f"{path}:1: {n}: unknown header field" for n in sorted(set(data) - ADJ_HEADER)]
    if data.get("pass") != pass_no:
        problems.append(f"{path}:1: pass: is {data.get('pass')!r}, expected {pass_no}")
    decided: dict[tuple[str, str], str] = {}
    for entry in data["decisions"]:
        blind = entry.get("id") if isinstance(entry, dict) else None
        field = entry.get("field") if isinstance(entry, dict) else None
        where = f"{path}:{_line_of(text, str(blind))}: item {blind}"
        item = key.items.get(str(blind))
        if item is None or not isinstance(blind, str) or not isinstance(field, str):
            problems.append(f"{where}: id/field: unknown blind id or missing field")
            continue
        rubric = study.rubric_for(item.track, pass_no)
        label = label_text(entry.get("label"))
        if (blind, field) not in disagreements:
            problems.append(f"{where}: {field}: reviewers do not disagree here")
        elif label is None or label not in rubric.fields[field].labels:
            problems.append(f"{where}: {field}: label {label!r} is not in the rubric")
        elif (blind, field) in decided:
            problems.append(f"{where}: {field}: adjudicated twice")
        else:
            decided[(blind, field)] = label
    if problems:
        raise ValidationFailures([f"{len(problems)} problem(s) in the adjudication:"] + problems)
    return decided
