"""``atlas score WORKLOAD``: journaled responses -> ``scored.jsonl``, ``timings.jsonl``,
``metrics/verdicts/<workload>.jsonl`` and ``metrics/<workload>.json`` (see :mod:`.lines`).

Spec 001 ("Answer extraction and scorers"); inputs are the journal and manifest written by
``atlas infer``. Rescoring never re-runs inference. Which records are scored:

* only journal records whose ``run_key`` equals the manifest's (other models' runs share the file);
* per (row id, repeat) the last record wins (a resumed run appends its retry after the failure);
* a torn last line (no trailing newline, invalid JSON: the writer died mid-line) is dropped;
* the rows sent are the manifest's ``ids`` when it lists them, else the first ``limit`` rows when
  the workload sets one, else every row with at least one record; a sent row without any record
  is a failed request of kind ``no_response``. Records of rows outside that set are ignored.

Everything but ``timings.jsonl`` is byte-identical for identical inputs (issue 15): timings are
measurements, kept out of the scored records, the verdicts and the metrics. Every file is written
only after all records are scored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages.compare.clusters import cluster_of
from stages.datasets.load import ROWS_FILE, Dataset
from stages.datasets.verified import load_verified
from stages.errors import AtlasError
from stages.io import atomic_write_text, read_json, sha256_file, write_json
from stages.params import workload as workload_params
from stages.scoring import lines
from stages.scoring.interval import clustered_block
from stages.scoring.metrics import ScoredRecord, eval_metrics, prompts_metrics, row_facts

RESULTS_DIR = Path("results")
METRICS_DIR = Path("metrics")
VERDICTS_DIR = METRICS_DIR / "verdicts"
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


def _field(manifest: Mapping[str, Any], dotted: str, path: Path) -> Any:
    node: Any = manifest
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or node.get(part) is None:
            raise AtlasError(f"{path}: {dotted}: missing")
        node = node[part]
    return node


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
    common: dict[str, Any] = {
        "id": row["id"],
        "repeat": repeat,
        "failed": failed,
        "ttft_s": _seconds(record.get("ttft_s")) if record else None,
        "latency_s": _seconds(record.get("latency_s")) if record else None,
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
    if failed is not None and correct is not None:
        correct = False  # a failed request is never right, whatever the output field holds
        correct_flexible = False
    return ScoredRecord(
        scorer=verdict.scorer,
        correct=correct,
        score=verdict.score,
        extracted=verdict.extracted,
        why=verdict.why,
        extras=dict(verdict.extras),
        correct_flexible=correct_flexible,
        extracted_flexible=None if flexible is None else flexible.extracted,
        **common,
    )


def signature(
    name: str, manifest: Mapping[str, Any], records: list[ScoredRecord], versions: Mapping[str, str]
) -> dict[str, Any]:
    """What the numbers depend on: dataset bytes, scorer versions, model, decoding, and the
    engine and endpoints that answered (copied from the manifest; null when it has none)."""
    used = sorted({r.scorer for r in records if r.scorer})
    dataset, model = manifest.get("dataset", {}), manifest.get("model", {})
    return {
        "workload": name,
        "run_key": manifest.get("run_key"),
        "dataset": {"id": dataset.get("id"), "sha256": dataset.get("sha256")},
        "model": {"name": model.get("name"), "revision": model.get("revision")},
        "decoding": dict(manifest.get("decoding") or {}),
        "scorers": {s: versions.get(s, "unknown") for s in used},
        "engine": manifest.get("engine"),
        "provenance": manifest.get("provenance"),
    }


def score_workload(
    name: str, score_fn: ScoreFn | None = None, versions: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Score workload ``name`` from the cwd's results/ and datasets/; returns the metrics."""
    params = workload_params(name)
    manifest_path = RESULTS_DIR / name / "manifest.json"
    manifest = read_json(manifest_path)
    if not isinstance(manifest, dict):
        raise AtlasError(f"{manifest_path}: expected a JSON object")
    run_key = _field(manifest, "run_key", manifest_path)
    if _field(manifest, "dataset.id", manifest_path) != params.dataset:
        raise AtlasError(
            f"{manifest_path}: dataset.id: {manifest['dataset']['id']!r} is not "
            f"workloads.{name}.dataset {params.dataset!r} (run `atlas infer {name}` again)"
        )
    dataset = load_verified(params.dataset)  # refused if its published bytes changed, or empty
    pinned = manifest["dataset"].get("sha256")
    if pinned and pinned != sha256_file(dataset.path / ROWS_FILE):
        raise AtlasError(
            f"{manifest_path}: dataset.sha256: {dataset.path / ROWS_FILE} changed since the run "
            f"(run `atlas infer {name}` again)"
        )
    kind = dataset.card.kind
    if kind != "prompts" and score_fn is None:
        from stages.scoring.registry import SCORER_VERSIONS, score_row

        score_fn, versions = score_row, versions or SCORER_VERSIONS
    journal = read_journal(RESULTS_DIR / name / "responses.jsonl", run_key)
    context = ScoringContext(kind, dataset.path, dataset.card.default_scorer, score_fn)
    records: list[ScoredRecord] = []
    clusters: dict[str, str] = {}
    for row in sent_rows(dataset, manifest, journal, params.limit, manifest_path):
        recorded: list[tuple[int, dict[str, Any] | None]] = [(0, None)]  # sent, nothing journaled
        recorded = sorted(journal[row["id"]].items()) if row["id"] in journal else recorded
        records.extend(score_record(row, repeat, rec, context) for repeat, rec in recorded)
        clusters[row["id"]] = cluster_of(dataset.id, row)
    body = prompts_metrics(records) if kind == "prompts" else eval_metrics(records, clusters)
    binary = [r for r in records if r.binary]
    if binary:
        outcomes = [1.0 if r.correct is True else 0.0 for r in binary]
        body["clustered"] = clustered_block(outcomes, [clusters[r.id] for r in binary])
    metrics = {
        "workload": name,
        "kind": kind,
        "repeats": 1 + max((r.repeat for r in records), default=0),
        **body,
        "signature": signature(name, manifest, records, versions or {}),
    }
    fresh_lines: list[str] = []
    if params.fresh_seeds:  # public vs fresh-instance accuracy (#13, stages/datasets/fresh_score)
        from stages.datasets.fresh_score import fresh_block, score_instances

        scored = score_instances(name, params, score_fn)
        metrics["fresh"] = fresh_block(name, dataset, records, scored)
        for seed, instance, rows, fresh_records in scored:
            keys = {row["id"]: cluster_of(instance.id, row) for row in rows}
            fresh_lines += [
                lines.verdict_line(r, keys[r.id], seed) for r in lines.ordered(fresh_records)
            ]
    by_item = lines.ordered(records)
    atomic_write_text(
        RESULTS_DIR / name / "scored.jsonl", lines.jsonl([lines.scored_line(r) for r in records])
    )
    atomic_write_text(
        RESULTS_DIR / name / "timings.jsonl", lines.jsonl([lines.timing_line(r) for r in by_item])
    )
    verdicts = [lines.verdict_line(r, clusters[r.id]) for r in by_item] + fresh_lines
    atomic_write_text(VERDICTS_DIR / f"{name}.jsonl", lines.jsonl(verdicts))
    write_json(METRICS_DIR / f"{name}.json", metrics)
    return metrics


def run_score_stage(workload: str) -> None:
    """Entry point of ``atlas score``: score, write, print one summary line."""
    import typer

    metrics = score_workload(workload)
    accuracy, loose = metrics.get("accuracy"), metrics.get("accuracy_flexible")
    shown = f"accuracy {accuracy:.4f} (flexible {loose:.4f}), " if accuracy is not None else ""
    typer.echo(f"score {workload}: {metrics['n']} records, {shown}{metrics['failed']} failed")
