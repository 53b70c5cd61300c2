"""``atlas infer WORKLOAD``: the DVC infer stage — ask, then measure, then write.

The main pass is :func:`stages.inference.run.run_pass` (asking and journaling), watched by the
server's ``/metrics`` (:mod:`stages.serving.server_metrics`). Then this module computes the pass's
serving figures (:mod:`stages.serving.metrics`), sends the load levels (``workloads.<w>.load``,
or ``run.sweep`` on perf workloads; :mod:`stages.serving.sweep`) each from its own journal under
``results/<w>/load/`` — the main journal, which scoring reads, is never touched by them — and
writes the manifest and ``metrics/<w>.serving.json`` as one output set. A run with too many
failures ends with exit code 3 (:mod:`stages.inference.failures`) after writing everything.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from stages.inference.credentials import check_stopped, key_note
from stages.inference.endpoint import open_endpoint
from stages.inference.failures import check_failed_share, first_kinds
from stages.inference.manifest import build_manifest, now_iso, run_counts
from stages.inference.plan import Plan, for_engine, plan_workload
from stages.inference.rerun import RerunPolicy
from stages.inference.run import (
    RESULTS_DIR,
    PassResult,
    journal_lock,
    run_pass,
    stalled_once_more,
    warn_other_models,
)
from stages.inference.tokenize import count_reasoning
from stages.locks import exclusive
from stages.outputs import output_set
from stages.serving.metrics import bucket_metrics, serving_metrics
from stages.serving.server_metrics import watch_of
from stages.serving.sweep import run_load, serving_document

INTERVAL_SEED = 0
"""Seed of the main pass's bootstrap intervals (a rerun that sends nothing gives the same)."""
METRICS_DIR = Path("metrics")


def _metrics(
    plan: Plan, main: PassResult, concurrency: int, previous: dict[str, Any] | None
) -> Any:
    """The main pass's figures; its intervals are ``previous``'s (the last serving document's)
    when they were computed from the same records."""
    from stages.serving.intervals import kept_or_computed

    records, known = main.records, main.timings
    metrics = serving_metrics(records, main.fresh, main.wall, concurrency, known)
    kept = ((previous or {}).get("main") or {}).get("intervals")
    metrics["intervals"] = kept_or_computed(
        [[known.of(r) for r in records]], None, INTERVAL_SEED, kept
    )
    if plan.workload.perf and plan.dataset.card.kind == "prompts":
        bucket_of = {row["id"]: row["bucket"] for row in plan.dataset.rows}
        approx_of = {row["id"]: int(row["approx_tokens"]) for row in plan.dataset.rows}
        metrics["buckets"] = bucket_metrics(records, bucket_of, approx_of)
    return metrics


def _previous_document(path: Path) -> dict[str, Any] | None:
    """The serving document a former run wrote (None: none, or unreadable: nothing is kept)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) else None


def _keep_wall_clock_rates(metrics: dict[str, Any], previous_path: Path) -> None:
    """A rerun that sent nothing has no wall clock of its own: keep the rates measured when the
    same run (same ``run_key``, same number of records) actually sent its requests, rather than
    writing nulls. Figures of another run are never carried over."""
    if not previous_path.is_file():
        return
    previous = json.loads(previous_path.read_text(encoding="utf-8"))
    if previous.get("run_key") != metrics["run_key"] or not metrics["requests"]:
        return
    previous = previous.get("main", previous)  # issue 14: the main pass's figures moved here
    if previous.get("requests") != metrics["requests"]:
        return
    metrics["requests_per_s"] = previous.get("requests_per_s")
    aggregate = (previous.get("output_tokens_per_s") or {}).get("aggregate")
    metrics["output_tokens_per_s"]["aggregate"] = aggregate
    metrics["server"] = previous.get("server")


def infer_workload(
    name: str,
    policy: RerunPolicy | None = None,
    limit: int | None = None,
    shard: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """Run workload ``name`` from the project root (``shard``: its part I of N, see
    :mod:`stages.inference.shards`); returns the counts written to the manifest. Raises
    :class:`~stages.inference.failures.TooManyFailures` (after writing everything) when more
    requests failed than the workload tolerates, and :class:`~stages.locks.Locked` when another
    process is running the workload (or the shard)."""
    policy = policy or RerunPolicy()
    plan = plan_workload(name, limit=limit)
    lock, out = journal_lock(name), RESULTS_DIR / name
    if shard is not None:
        from stages.inference.shards import shard_dir, shard_lock

        lock, out = shard_lock(name, shard), shard_dir(RESULTS_DIR, name, shard)
    with exclusive(lock, str(out / "responses.jsonl")):
        return _infer(name, plan, policy, out, shard)


def _infer(
    name: str, plan: Plan, policy: RerunPolicy, out: Path, shard: tuple[int, int] | None
) -> dict[str, Any]:
    from stages.engine.embedded import sigterm_as_interrupt
    from stages.inference.shards import shard_name, shard_plan

    started_at = now_iso()
    label = name
    serving_path = METRICS_DIR / f"{name}.serving.json"
    if shard is not None:
        label = f"{name} shard {shard[0]}/{shard[1]}"
        serving_path = out / "serving.json"
    with sigterm_as_interrupt(), open_endpoint(plan.model, plan.slots) as endpoint:
        plan = for_engine(plan, endpoint.kind)  # the engine's own neutral knobs (engines.py)
        mine = plan if shard is None else shard_plan(plan, shard)
        concurrency = plan.concurrency
        main = run_pass(
            mine, endpoint, out / "responses.jsonl", concurrency, label, policy, watch_of
        )
        check_stopped(label, len(main.triage.todo), main.fresh)
        main = stalled_once_more(mine, endpoint, out, concurrency, label, main, watch_of)
        for record in count_reasoning(endpoint, main.records, plan.model.name):
            main.timings.add(record)  # issue 33: the engine's tokenizer counted its reasoning
        previous = _previous_document(serving_path)
        metrics = _metrics(mine, main, concurrency, previous)
        metrics["run_key"] = plan.run_key
        metrics["endpoint"] = endpoint.description  # what a dry run's estimate may borrow
        metrics["slots"] = plan.slots if plan.model.is_embedded else None
        metrics["server"] = main.server
        if not main.fresh:
            _keep_wall_clock_rates(metrics, serving_path)
        levels = run_load(plan, endpoint, out, shard, previous)  # issue 14: concurrency/rate levels
    counts = run_counts(
        mine, main.records, len(main.fresh), main.triage, metrics["failures_by_kind"]
    )
    manifest = build_manifest(mine, endpoint, main.records, main.triage, started_at, counts)
    if shard is not None:
        manifest["shard"] = {"index": shard[0], "count": shard[1], "name": shard_name(shard)}
    set_name = f"infer-{name}-outputs" if shard is None else f"infer-{name}-{shard_name(shard)}"
    with output_set(set_name, f"the manifest and serving metrics of {label}") as set_:
        set_.write_json(out / "manifest.json", manifest)
        set_.write_json(serving_path, serving_document(metrics, levels))
    secrets = (endpoint.secret,) if endpoint.secret else ()
    warn_other_models(name, plan.model.name, main.records, secrets)
    again = counts["resent_failed"] + counts["resent_drifted"]
    sys.stderr.write(
        f"{label}: {counts['requests']} requests ({counts['finished_before']} already done, "
        f"{counts['sent']} sent{f', {again} of them again' if again else ''}), "
        f"{counts['failed']} failed -> {out / 'responses.jsonl'}\n"
    )
    check_failed_share(
        label, counts["failed_by_kind"], counts["requests"], plan.max_failed_share,
        first_kinds(main.records), key_note(plan.model.api_key_env, endpoint.secret is not None),
    )  # fmt: skip
    return counts
