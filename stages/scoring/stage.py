"""``atlas score WORKLOAD``: journaled responses -> ``scored.jsonl``, ``timings.jsonl``,
``metrics/verdicts/<workload>.jsonl`` and ``metrics/<workload>.json`` (see :mod:`.lines`).

Spec 001 ("Answer extraction and scorers"). Rescoring never re-runs inference. Which journal
records and rows are scored is :mod:`stages.scoring.records`' rule.

Everything but ``timings.jsonl`` is byte-identical for identical inputs (issue 15): timings are
measurements, kept out of the scored records, the verdicts and the metrics. Every file is written
only after all records are scored, and the four are committed as one output set (issue 24,
:mod:`stages.outputs`): a kill leaves the previous four or the new four, never a mix.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from stages.compare.clusters import cluster_of
from stages.datasets.fresh_score import fresh_block, score_instances
from stages.datasets.load import ROWS_FILE
from stages.datasets.verified import load_verified
from stages.errors import AtlasError
from stages.io import read_json, sha256_file
from stages.outputs import output_set
from stages.params import WorkloadParams
from stages.params import workload as workload_params
from stages.scoring import exhausted, lines
from stages.scoring.interval import clustered_block
from stages.scoring.load_levels import load_block
from stages.scoring.metrics import ScoredRecord, eval_metrics, prompts_metrics
from stages.scoring.records import ScoreFn, ScoringContext, read_journal, score_sent_row, sent_rows

RESULTS_DIR = Path("results")
METRICS_DIR = Path("metrics")
VERDICTS_DIR = METRICS_DIR / "verdicts"


def _field(manifest: Mapping[str, Any], dotted: str, path: Path) -> Any:
    node: Any = manifest
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or node.get(part) is None:
            raise AtlasError(f"{path}: {dotted}: missing")
        node = node[part]
    return node


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


def sandbox_block(records: list[ScoredRecord]) -> dict[str, Any] | None:
    """How the code verdicts were sandboxed: ``{"isolation": {mode: n}, "unsafe": bool}``, None
    without any. ``unsafe`` when any ran in the basic sandbox (issue 24: the user opted in)."""
    modes = Counter(str(r.extras["isolation"]) for r in records if r.extras.get("isolation"))
    if not modes:
        return None
    return {"isolation": dict(sorted(modes.items())), "unsafe": "basic" in modes}


def _clusters(dataset: Any) -> dict[str, str]:
    return {row["id"]: cluster_of(dataset.id, row) for row in dataset.rows}


def score_workload(
    name: str,
    score_fn: ScoreFn | None = None,
    versions: Mapping[str, str] | None = None,
    unsafe_sandbox: bool = False,
) -> dict[str, Any]:
    """Score workload ``name`` from the cwd's results/ and datasets/; returns the metrics.
    ``unsafe_sandbox`` (or ``workloads.<name>.unsafe_sandbox``) lets code_exec use the basic
    sandbox where no real one exists."""
    from stages.scoring.sandbox import allow_unsafe

    params = workload_params(name)
    with allow_unsafe(unsafe_sandbox or params.unsafe_sandbox):
        return _score(name, params, score_fn, versions)


def _score(
    name: str,
    params: WorkloadParams,
    score_fn: ScoreFn | None,
    versions: Mapping[str, str] | None,
) -> dict[str, Any]:
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
        records += score_sent_row(row, journal, context)
        clusters[row["id"]] = cluster_of(dataset.id, row)
    body = prompts_metrics(records) if kind == "prompts" else eval_metrics(records, clusters)
    binary = [r for r in records if r.binary]
    if binary:
        outcomes = [1.0 if r.correct is True else 0.0 for r in binary]
        body["clustered"] = clustered_block(outcomes, [clusters[r.id] for r in binary])
    ran_out = exhausted.block(records)
    if ran_out is not None:  # issue 33: counted apart from wrong answers and failures
        body["exhausted"] = ran_out
    metrics = {
        "workload": name,
        "kind": kind,
        "repeats": 1 + max((r.repeat for r in records), default=0),
        **body,
        "signature": signature(name, manifest, records, versions or {}),
    }
    if ran_out is not None:  # the rule the verdicts of those records depend on
        metrics["signature"]["outcomes"] = {"exhausted": exhausted.RULE}
    fresh_lines: list[str] = []
    if params.fresh_seeds:  # public vs fresh-instance accuracy (#13, stages/datasets/fresh_score)
        scored = score_instances(name, params, score_fn)
        metrics["fresh"] = fresh_block(name, dataset, records, scored)
        for seed, instance, rows, fresh_records in scored:
            keys = {row["id"]: cluster_of(instance.id, row) for row in rows}
            fresh_lines += [
                lines.verdict_line(r, keys[r.id], seed) for r in lines.ordered(fresh_records)
            ]
    levels = load_block(
        name, dataset, context, _clusters(dataset), run_key, RESULTS_DIR / name / "load", pinned
    )
    if levels is not None:  # issue 23: correctness under load, paired with the baseline level
        metrics["load"] = levels
    sandboxed = sandbox_block(records)
    if sandboxed is not None:  # issue 24: the isolation of every code verdict, unsafe flagged
        metrics["sandbox"] = sandboxed
    by_item = lines.ordered(records)
    verdicts = [lines.verdict_line(r, clusters[r.id]) for r in by_item] + fresh_lines
    with output_set(f"score-{name}", f"the scores of workload {name}") as out:
        out.write_text(
            RESULTS_DIR / name / "scored.jsonl",
            lines.jsonl([lines.scored_line(r) for r in records]),
        )
        out.write_text(
            RESULTS_DIR / name / "timings.jsonl",
            lines.jsonl([lines.timing_line(r) for r in by_item]),
        )
        out.write_text(VERDICTS_DIR / f"{name}.jsonl", lines.jsonl(verdicts))
        out.write_json(METRICS_DIR / f"{name}.json", metrics)
    return metrics


def run_score_stage(workload: str, unsafe_sandbox: bool = False) -> None:
    """Entry point of ``atlas score``: score, write, print one summary line."""
    import typer

    metrics = score_workload(workload, unsafe_sandbox=unsafe_sandbox)
    accuracy, loose = metrics.get("accuracy"), metrics.get("accuracy_flexible")
    shown = f"accuracy {accuracy:.4f} (flexible {loose:.4f}), " if accuracy is not None else ""
    ran_out = (metrics.get("exhausted") or {}).get("count")
    extra = f", {ran_out} exhausted while thinking" if ran_out else ""
    typer.echo(
        f"score {workload}: {metrics['n']} records, {shown}{metrics['failed']} failed{extra}"
    )
    if (metrics.get("sandbox") or {}).get("unsafe"):
        typer.echo(
            f"score {workload}: warning: code_exec ran in the basic sandbox (--unsafe-sandbox): "
            "these figures are marked unsafe",
            err=True,
        )
