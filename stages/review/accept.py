"""``atlas review accept FILE``: put a verdict file exported from the HTML sheet in its place.

The sheet's export (:mod:`stages.review.sheet_html`) is downloaded wherever the browser saves
files. This command checks it against the study's key exactly as ``atlas review import`` will
(same validator, every problem named) and writes it to
``review/verdicts/<study>/<reviewer>.pass<N>.json``. The file there is replaced only when it
holds no label yet (the template ``atlas review export`` wrote), when it holds the same labels, or
with ``--replace``: committed verdicts are never overwritten by accident.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from stages.errors import AtlasError, ValidationFailures
from stages.io import atomic_write_text
from stages.review.keys import load_key
from stages.review.study import load_study
from stages.review.table import label_text
from stages.review.verdicts import NOTE_FIELDS, check_verdicts, read_strict_json


@dataclass(frozen=True)
class Accepted:
    """Where the verdicts went and how many items they label."""

    target: Path
    items: int
    draft: bool


def _labels(path: Path) -> dict[tuple[str, str], str]:
    """Every label typed into a verdict file, by (blind id, field)."""
    data, _ = read_strict_json(path)
    entries = data.get("verdicts") if isinstance(data, dict) else None
    found: dict[tuple[str, str], str] = {}
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            continue
        for name, value in entry.items():
            label = label_text(value)
            if name not in ("id", *NOTE_FIELDS) and label is not None:
                found[(entry["id"], name)] = label
    return found


def accept(source: Path, study_name: str, draft: bool = False, replace: bool = False) -> Accepted:
    """Validate ``source`` and write it as its reviewer's verdict file of its pass."""
    study, paths = load_study(study_name)
    key = load_key(paths.key)
    data, text = read_strict_json(source)
    if not isinstance(data, dict):
        raise AtlasError(f"{source}:1: expected a verdict file (an object)")
    reviewer, pass_no = data.get("reviewer"), data.get("pass")
    if reviewer not in study.reviewers or pass_no not in study.passes:
        raise AtlasError(
            f"{source}:1: reviewer/pass: {reviewer!r}, pass {pass_no!r} is not a sheet of study "
            f"{study_name} (reviewers {', '.join(study.reviewers)}; passes {study.passes})"
        )
    assert isinstance(reviewer, str) and isinstance(pass_no, int)
    verdicts, problems = check_verdicts(source, study, key, reviewer, pass_no)
    if draft:  # a draft may leave labels out; anything else wrong is still refused
        problems = [p for p in problems if "missing label" not in p and "have no verdict" not in p]
    if problems or verdicts is None:
        raise ValidationFailures([f"{len(problems)} problem(s) in {source}:"] + problems)
    target = paths.verdict_file(reviewer, pass_no)
    if target.is_file() and not replace:
        before, after = _labels(target), _labels(source)
        changed = sorted(k for k, v in before.items() if after.get(k) != v)
        if changed:
            shown = ", ".join(f"{b} {f}" for b, f in changed[:5])
            raise AtlasError(
                f"{target}: already holds {len(before)} label(s), {len(changed)} of them "
                f"different or missing in {source} (first: {shown}); pass --replace to overwrite"
            )
    atomic_write_text(target, text if text.endswith("\n") else text + "\n")
    complete = sum(len(fields) == len(key.items[b].fields[str(pass_no)])
                   for b, fields in verdicts.labels.items())  # fmt: skip
    return Accepted(target, complete, draft=complete < len(key.order[reviewer][str(pass_no)]))
