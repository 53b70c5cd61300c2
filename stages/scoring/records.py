"""The records of one run, ready to score: this run's journal records and the rows it sent.

Which records are scored (inputs are the journal and manifest written by ``atlas infer``):

* only journal records whose ``run_key`` equals the manifest's (other models' runs share the file);
* per (row id, repeat) the last record wins (a resumed run appends its retry after the failure);
* a torn last line (no trailing newline, invalid JSON: the writer died mid-line) is dropped;
* the rows sent are the manifest's ``ids`` when it lists them, else the first ``limit`` rows when
  the workload sets one, else every row with at least one record; a sent row without any record
  is a failed request of kind ``no_response``. Records of rows outside that set are ignored.

Used by ``atlas score`` (:mod:`stages.scoring.stage`) for the public dataset and by the fresh
block (:mod:`stages.datasets.fresh_score`) for each fresh instance, so both read runs alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages.datasets.load import Dataset
from stages.errors import AtlasError
from stages.scoring import exhausted
from stages.scoring.metrics import ScoredRecord, row_facts

ScoreFn = Callable[[dict[str, Any], dict[str, Any], Path], Any]
Journal = dict[str, dict[int, dict[str, Any]]]


@dataclass(frozen=True)
class ScoringContext:
    """What scoring one record needs besides the row and the record."""

    kind: str
    """Dataset kind: ``prompts`` rows are counted, never scored."""
    dataset_dir: Path
    default_scorer: str | None
    """The card's default, used only by rows that name no scorer (haystack recipes)."""
    score_fn: ScoreFn | None


def read_journal(path: Path, run_key: str) -> Journal:
    """``{id: {repeat: record}}`` of this run's records; last record per (id, repeat) wins."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise AtlasError(f"{path}: file not found (run `atlas infer` first)") from exc
    lines = raw.split(b"\n")
    journal: Journal = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            if number == len(lines):  # unterminated last line: a write torn by a crash
                continue
            raise AtlasError(f"{path}:{number}: invalid JSON record ({exc})") from exc
        if not isinstance(record, dict):
            raise AtlasError(f"{path}:{number}: expected a JSON object")
        if record.get("run_key") != run_key:
            continue
        row_id, repeat = record.get("id"), record.get("repeat")
        if not isinstance(row_id, str) or not isinstance(repeat, int) or repeat < 0:
            raise AtlasError(f"{path}:{number}: id/repeat: missing or not a string/int >= 0")
        journal.setdefault(row_id, {})[repeat] = record
    return journal


def sent_rows(
    dataset: Dataset, manifest: Mapping[str, Any], journal: Journal, limit: int | None, path: Path
) -> list[dict[str, Any]]:
    """The rows the run sent, in dataset order (see the module docstring for the rule)."""
    ids = manifest.get("ids")
    if isinstance(ids, list):
        known = dataset.row_by_id()
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise AtlasError(f"{path}: ids: {unknown[0]!r} is not a row of {dataset.id}")
        wanted = set(ids)
        return [row for row in dataset.rows if row["id"] in wanted]
    if limit is not None:
        return dataset.rows[:limit]
    return [row for row in dataset.rows if row["id"] in journal]


def _failure(record: Mapping[str, Any]) -> str | None:
    error = record.get("error")
    if not error:
        return None
    return str(error.get("kind", "unknown")) if isinstance(error, Mapping) else "unknown"


def _seconds(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def score_record(
    row: dict[str, Any], repeat: int, record: dict[str, Any] | None, context: ScoringContext
) -> ScoredRecord:
    """Score one journal record (``None``: the row was sent but nothing was journaled)."""
    facts = row_facts(row)
    failed = "no_response" if record is None else _failure(record)
    ran_out = exhausted.record_exhaustion(record)  # None for a failed request
    common: dict[str, Any] = {
        "id": row["id"],
        "repeat": repeat,
        "failed": failed,
        "ttft_s": _seconds(record.get("ttft_s")) if record else None,
        "latency_s": _seconds(record.get("latency_s")) if record else None,
        "exhausted": ran_out,
        **facts,
    }
    if context.kind == "prompts" or context.score_fn is None:
        why = f"request failed: {failed}" if failed else "serving prompt: not scored"
        return ScoredRecord(
            scorer=None, correct=None, score=None, extracted=None, why=why, extras={}, **common
        )
    scorer = row.get("scorer") or context.default_scorer
    if not scorer:
        card = context.dataset_dir / "dataset.json"
        raise AtlasError(f"{card}: default_scorer: missing, and row {row['id']!r} names no scorer")
    common["facets"] = {**common["facets"], "scorer": scorer}
    if record is None:
        return ScoredRecord(
            scorer=scorer,
            correct=False,
            score=0.0,
            extracted=None,
            why="request failed: no_response (nothing journaled)",
            extras={},
            correct_flexible=False,
            **common,
        )
    verdict = context.score_fn({**row, "scorer": scorer}, record, context.dataset_dir)
    correct = verdict.correct
    flexible = getattr(verdict, "flexible", None)  # issue 12: the flexible reading, if any
    correct_flexible = correct if flexible is None else flexible.correct
    why = verdict.why
    if (failed is not None or ran_out is not None) and correct is not None:
        # A failed request is never right, whatever the output field holds; nor is an answer
        # that ran out while thinking (an empty text may pass splice, or an instruction rule).
        correct = False
        correct_flexible = False
    if ran_out is not None:
        why = f"{exhausted.why(ran_out)}; the scorer said: {verdict.why}"
    return ScoredRecord(
        scorer=verdict.scorer,
        correct=correct,
        score=verdict.score,
        extracted=verdict.extracted,
        why=why,
        extras=dict(verdict.extras),
        correct_flexible=correct_flexible,
        extracted_flexible=None if flexible is None else flexible.extracted,
        **common,
    )


def score_sent_row(
    row: dict[str, Any], journal: Journal, context: ScoringContext
) -> list[ScoredRecord]:
    """Every repeat of one sent row, scored; a row nothing was journaled for is one failed
    record (``no_response``)."""
    recorded: list[tuple[int, dict[str, Any] | None]] = [(0, None)]
    recorded = sorted(journal[row["id"]].items()) if row["id"] in journal else recorded
    return [score_record(row, repeat, record, context) for repeat, record in recorded]
