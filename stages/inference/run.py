"""``atlas infer WORKLOAD``: send what is not journaled yet, then write manifest and metrics.

What a rerun sends again (failures, drifted answers) is :mod:`stages.inference.rerun`'s rule; a
run with too many failures ends with exit code 3 (:mod:`stages.inference.failures`) after
writing everything. A pass runs ``concurrency`` workers over the items to send (a bounded pool:
never more in flight), one keep-alive HTTP/1.1 pool of that size per sending process
(:mod:`stages.inference.transport`), and requests spread over the endpoint's replicas. Every
finished request is journaled before the next is taken, so a killed run loses at most the
requests in flight.

Load levels (``workloads.<w>.load``, or ``run.sweep`` on perf workloads): after the main pass,
:mod:`stages.inference.load` sends each concurrency or rate level from its own journal under
``results/<w>/load/``. The main journal, which scoring reads, is never touched by them.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from stages.inference.client import send
from stages.inference.credentials import Streak, check_stopped, key_note
from stages.inference.definitions import Timings
from stages.inference.endpoint import Endpoint, open_endpoint
from stages.inference.failures import check_failed_share, first_kinds
from stages.inference.journal import Journal, latest, make_record
from stages.inference.manifest import build_manifest, now_iso, run_counts
from stages.inference.metrics import bucket_metrics, serving_metrics
from stages.inference.plan import Item, Plan, plan_workload
from stages.inference.progress import Progress
from stages.inference.rerun import RerunPolicy, Triage, sort_requests
from stages.inference.senders import Job, Share, run_shares, sender_count, split
from stages.inference.sending import (
    STAGGER_S,
    lean_gc,
    note_failover,
    request_headers,
    request_policy,
)
from stages.inference.sweep import run_load, serving_document
from stages.locks import exclusive
from stages.outputs import output_set

RESULTS_DIR = Path("results")
INTERVAL_SEED = 0
"""Seed of the main pass's bootstrap intervals (a rerun that sends nothing gives the same)."""
METRICS_DIR = Path("metrics")


@dataclass
class PassResult:
    records: list[dict[str, Any]]
    """The current record of every planned request that has one, in plan order."""
    fresh: list[dict[str, Any]]
    wall: float
    triage: Triage
    server: dict[str, Any] | None = None
    """What the server's ``/metrics`` say it did in this pass (None: nothing sent, or none)."""
    timings: Timings = field(default_factory=Timings)
    """The timings of the records journaled in this pass, computed as they came."""


def _pass_job(plan: Plan, endpoint: Endpoint, todo: list[Item], concurrency: int) -> Job:
    """What each sending process runs: its part of the ``concurrency`` workers, each taking the
    next item of the shared feed when its last one is done."""

    async def job(share: Share) -> None:
        from stages.inference.transport import make_client

        policy = request_policy(plan, endpoint)
        urls = endpoint.replicas()
        stream = plan.workload.stream
        workers = split(concurrency, share.count, share.index)
        client = make_client(
            workers,
            request_headers(endpoint),
            plan.run.connect_timeout_s,
            endpoint.urls,
            endpoint.embedded,
        )
        refused = Streak()

        async def worker(index: int) -> None:
            await asyncio.sleep(index * STAGGER_S)
            while not share.stopping.is_set() and (number := await share.feed.take()) is not None:
                item = todo[number]
                outcome = await send(client, urls, number, item.body, stream, policy)  # scrubbed
                fingerprint = outcome.answer.system_fingerprint if outcome.answer else None
                provenance = endpoint.provenance(outcome.url_index, fingerprint)
                record = make_record(
                    item.key, plan.run_key, item.row_id, item.repeat, outcome, item.seed, provenance
                )
                note_failover(record, outcome, endpoint.labels)
                share.sink.append(record)
                if refused.note(outcome.error):  # the key does not work: send no more
                    share.stopping.set()

        try:
            await asyncio.gather(*(worker(i) for i in range(min(workers, len(todo)))))
        finally:
            await client.aclose()

    return job


def run_pass(
    plan: Plan,
    endpoint: Endpoint,
    path: Path,
    concurrency: int,
    label: str,
    policy: RerunPolicy | None = None,
) -> PassResult:
    """Send what journal ``path`` lacks (or holds as failed or drifted) and return the records."""
    journal = Journal(path)
    current = latest(journal.records, plan.keys)
    found = sort_requests(plan, endpoint, current, label, policy or RerunPolicy())
    todo = found.todo
    if todo:  # the HTTP stack loads (and the embedded server starts) only to send something
        from stages.inference.transport import preload

        preload()

        endpoint.ensure_started()

    started = time.perf_counter()
    fresh: list[dict[str, Any]] = []
    server = None
    known = Timings()
    if todo:
        count = sender_count(plan.run.senders, endpoint.embedded, len(todo), concurrency)
        watch = endpoint.watch()
        with lean_gc():
            fresh = run_shares(
                count,
                _pass_job(plan, endpoint, todo, concurrency),
                journal,
                lambda: Progress(label, len(todo), len(plan.items) - len(todo), watch.note),
                feed_size=len(todo),
                during=watch.during,
                on_record=known.add,
            )
        server = watch.result
    wall = time.perf_counter() - started
    current = latest(journal.records, plan.keys)
    records = [current[item.key] for item in plan.items if item.key in current]
    return PassResult(records, fresh, wall, found, server, known)


def _metrics(
    plan: Plan, main: PassResult, concurrency: int, previous: dict[str, Any] | None
) -> Any:
    """The main pass's figures; its intervals are ``previous``'s (the last serving document's)
    when they were computed from the same records."""
    from stages.inference.intervals import kept_or_computed

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


def warn_other_models(
    name: str, requested: str, records: list[dict[str, Any]], secrets: tuple[str, ...] = ()
) -> None:
    """One warning line when answers name another model than the one requested (a proxy or
    router answered with something else; each record's ``model`` says what). The names are
    scrubbed again: a journal an older version wrote may hold a key a server echoed."""
    from stages.inference.scrubber import scrub

    named = Counter(
        scrub(str(r["model"]), secrets)
        for r in records
        if r.get("model") and r["model"] != requested
    )
    if named:
        others = ", ".join(f"{model!r} ({n})" for model, n in sorted(named.items()))
        sys.stderr.write(
            f"{name}: warning: {sum(named.values())} of {len(records)} answers name another "
            f"model than the requested {requested!r}: {others}; each record's `model` field "
            "says which answered\n"
        )


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


def journal_lock(name: str) -> str:
    """The lock every writer of ``results/<name>/`` holds (journals, manifest, serving metrics):
    one ``atlas infer`` per workload at a time (issue 24); each shard has its own."""
    return f"infer-{name}"


STALLED = frozenset({"stall"})


def _stalled_once_more(
    plan: Plan, endpoint: Endpoint, out: Path, concurrency: int, label: str, main: PassResult
) -> PassResult:
    """On the embedded engine, requests that stalled in this pass are sent once more after the
    others are done (issue 32): a stall beside a busy machine's other work is not the model's
    answer. Elsewhere a stall stays a failure, which the next run sends again."""
    if not endpoint.embedded:
        return main
    stalled = [r for r in main.fresh if (r.get("error") or {}).get("kind") in STALLED]
    if not stalled:
        return main
    sys.stderr.write(f"{label}: {len(stalled)} stalled, sending them once more\n")
    again = run_pass(
        plan, endpoint, out / "responses.jsonl", concurrency, f"{label} (stalled, once more)",
        RerunPolicy(only_kinds=STALLED),
    )  # fmt: skip
    for record in again.fresh:
        main.timings.add(record)
    return replace(
        main, records=again.records, fresh=main.fresh + again.fresh, wall=main.wall + again.wall
    )


def _infer(
    name: str, plan: Plan, policy: RerunPolicy, out: Path, shard: tuple[int, int] | None
) -> dict[str, Any]:
    from stages.inference.embedded import sigterm_as_interrupt

    started_at = now_iso()
    mine = plan
    label = name
    serving_path = METRICS_DIR / f"{name}.serving.json"
    if shard is not None:
        from stages.inference.shards import shard_name, shard_plan

        mine, label = shard_plan(plan, shard), f"{name} shard {shard[0]}/{shard[1]}"
        serving_path = out / "serving.json"
    with sigterm_as_interrupt(), open_endpoint(plan.model, plan.slots) as endpoint:
        concurrency = plan.concurrency
        main = run_pass(mine, endpoint, out / "responses.jsonl", concurrency, label, policy)
        check_stopped(label, len(main.triage.todo), main.fresh)
        main = _stalled_once_more(mine, endpoint, out, concurrency, label, main)
        previous = _previous_document(serving_path)
        metrics = _metrics(mine, main, concurrency, previous)
        metrics["run_key"] = plan.run_key
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
