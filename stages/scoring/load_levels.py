"""Correctness under load: an eval workload's load levels scored and paired with the baseline
level (issue 23).

A server whose batching, preemption or cache corrupts answers at high load is caught by sending
the same items at a low and a high load and pairing the verdicts item by item: a drop in accuracy
is then a finding with an error bar, not a difference of two unpaired numbers. An eval workload
with ``load`` levels sends every level the same entries (:mod:`stages.serving.load`), and
``atlas infer`` lists each level's measured entries in ``results/<w>/load/index.json``. Here:

* each level's measured entries are scored like the main pass (same scorers, a failed or missing
  request counts as wrong); the k-th time a row is sent at a level pairs with the k-th time it is
  sent at the baseline (levels send the same sequence of items; with ``repeats`` every run adds
  its sequence);
* the **baseline** is the lowest level (concurrency 1, the lowest rate): every other level is
  paired with it by :func:`stages.compare.compare_records` (issue 18), the records of level L and
  of the baseline both labelled L, so the flips, the 95 % interval of the difference, the exact or
  cluster-aware test and the verdict are those of ``atlas compare``, with Holm across the levels;
* each level's own figures are those of :func:`stages.scoring.metrics.eval_metrics`: accuracy
  and, for long generations, the ``integrity`` shares.

The block goes into ``metrics/<w>.json`` as ``load`` (docs/formats.md#metrics).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stages.datasets.load import Dataset
from stages.io import read_json
from stages.scoring.metrics import ScoredRecord, eval_metrics
from stages.scoring.records import ScoringContext, score_record

PAIRING = (
    "each level's verdicts paired item by item with the baseline level's by compare_records "
    "(issue 18): flips, 95% interval of the difference, test and verdict; Holm across levels"
)
VERDICTS = {"B better": "better under load", "B worse": "worse under load"}


def _latest(path: Path, run_key: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return out
    data = path.read_bytes()
    for line in data[: data.rfind(b"\n") + 1].splitlines():
        if line.strip():
            record = json.loads(line)
            if record.get("run_key") == run_key:
                out[record["key"]] = record
    return out


def score_level(
    folder: Path,
    level: dict[str, Any],
    run_key: str,
    rows: dict[str, dict[str, Any]],
    context: ScoringContext,
) -> list[ScoredRecord]:
    """Every measured entry of one level scored; ``repeat`` numbers a row's sendings in order."""
    journal = _latest(folder / level["journal"], run_key)
    seen: dict[str, int] = {}
    scored = []
    for run in level["runs"]:
        for entry in run:
            row = rows.get(entry["id"])
            if row is None:
                continue
            occurrence = seen.get(entry["id"], 0)
            seen[entry["id"]] = occurrence + 1
            scored.append(score_record(row, occurrence, journal.get(entry["key"]), context))
    return scored


def _verdict_records(
    name: str, label: str, scored: list[ScoredRecord], clusters: dict[str, str], sha: str | None
) -> list[dict[str, Any]]:
    return [
        {
            "workload": name,
            "level": label,
            "id": r.id,
            "repeat": r.repeat,
            "cluster": clusters.get(r.id, r.id),
            "correct": r.correct if r.binary else None,
            "score": r.score if not r.binary and r.score is not None else None,
            "failed": r.failed,
            "dataset_sha256": sha,
        }
        for r in scored
        if r.binary or r.score is not None
    ]


def _pairing(row: Any) -> dict[str, Any]:
    ci = row.ci95
    return {
        "measure": row.measure,
        "n": row.n,
        "baseline": row.a,
        "level": row.b,
        "delta": row.delta,
        "ci95": {"low": ci[0], "high": ci[1]} if ci is not None else None,
        "p": row.p,
        "p_adjusted": row.p_adjusted,
        "test": row.test,
        "verdict": VERDICTS.get(row.verdict, row.verdict),
        "flips": len(row.right_to_wrong) + len(row.wrong_to_right),
        "right_to_wrong": list(row.right_to_wrong),
        "wrong_to_right": list(row.wrong_to_right),
        "failed_baseline": row.failed_a,
        "failed_level": row.failed_b,
        "carried_by_failures": row.carried_by_failures,
        "note": row.note,
    }


def load_block(
    name: str,
    dataset: Dataset,
    context: ScoringContext,
    clusters: dict[str, str],
    run_key: str,
    folder: Path,
    sha: str | None,
) -> dict[str, Any] | None:
    """The ``load`` block of an eval workload's metrics; None without levels to score."""
    index_path = folder / "index.json"
    if context.kind == "prompts" or not index_path.is_file():
        return None
    index = read_json(index_path)
    levels = (index or {}).get("levels") or {}
    if not levels or index.get("run_key") != run_key:
        return None
    from stages.compare import compare_records

    rows = dataset.row_by_id()
    scored = {
        label: score_level(folder, lv, run_key, rows, context) for label, lv in levels.items()
    }
    labels = sorted(scored, key=float)
    baseline = labels[0]
    a: list[dict[str, Any]] = []
    b: list[dict[str, Any]] = []
    for label in labels[1:]:  # the baseline's records labelled L pair with level L's
        a += _verdict_records(name, label, scored[baseline], clusters, sha)
        b += _verdict_records(name, label, scored[label], clusters, sha)
    paired = {
        (row.level, row.measure): row
        for row in (compare_records(a, b) if a else [])
        if row.category is None and row.role == "primary"
    }
    out: dict[str, Any] = {}
    for label in labels:
        figures = eval_metrics(scored[label])
        block: dict[str, Any] = {
            k: figures[k] for k in ("n", "correct", "failed", "accuracy") if k in figures
        }
        if "integrity" in figures:
            block["integrity"] = figures["integrity"]
        rows_of_level = [row for (level, _), row in paired.items() if level == label]
        if rows_of_level:
            block["vs_baseline"] = {row.measure: _pairing(row) for row in rows_of_level}
        out[label] = block
    return {"mode": index.get("mode"), "baseline": baseline, "pairing": PAIRING, "levels": out}
