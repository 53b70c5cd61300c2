"""One pass of a workload: send what its journal lacks, journal every answer as it comes.

What a rerun sends again (failures, drifted answers) is :mod:`stages.inference.rerun`'s rule. A
pass runs ``concurrency`` workers over the items to send (a bounded pool: never more in flight),
one keep-alive HTTP/1.1 pool of that size per sending process (:mod:`stages.network.transport`),
and requests spread over the endpoint's replicas. Every finished request is journaled before the
next is taken, so a killed run loses at most the requests in flight.

This module asks and journals; it measures nothing about the server. ``atlas infer`` as a whole
(the pass, then its serving figures and load levels, manifest and failure share) is
:mod:`stages.serving.stage`; the judge and fresh instances call :func:`run_pass` directly.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections import Counter
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from stages.inference.client import send
from stages.inference.credentials import Streak
from stages.inference.definitions import Timings
from stages.inference.endpoint import Endpoint
from stages.inference.journal import Journal, latest, make_record
from stages.inference.plan import Item, Plan
from stages.inference.progress import Progress
from stages.inference.rerun import RerunPolicy, Triage, sort_requests
from stages.inference.senders import Job, Share, run_shares, sender_count, split
from stages.inference.sending import (
    STAGGER_S,
    lean_gc,
    note_failover,
    request_policy,
    sending_client,
)

RESULTS_DIR = Path("results")


class Watch(Protocol):
    """What a pass lets an observer of the server do: a note for the progress line, a context
    around the sending, and its ``result`` afterwards. The infer stage passes
    :class:`stages.serving.server_metrics.Watch`, which reads the server's ``/metrics``."""

    result: dict[str, Any] | None

    def note(self) -> str: ...

    def during(self) -> AbstractContextManager[None]: ...


class _Unwatched:
    """The observer of a pass nobody measures (the judge's, fresh instances'): sees nothing."""

    result: dict[str, Any] | None = None

    def note(self) -> str:
        return ""

    def during(self) -> AbstractContextManager[None]:
        return contextlib.nullcontext()


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
        policy = request_policy(plan, endpoint)
        urls = endpoint.replicas()
        stream = plan.workload.stream
        workers = split(concurrency, share.count, share.index)
        client = sending_client(plan, endpoint, workers)
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
    watch: Callable[[Endpoint], Watch] | None = None,
) -> PassResult:
    """Send what journal ``path`` lacks (or holds as failed or drifted) and return the records;
    ``watch`` makes the observer of the server meanwhile (:class:`Watch`), once the server runs."""
    journal = Journal(path)
    current = latest(journal.records, plan.keys)
    found = sort_requests(plan, endpoint, current, label, policy or RerunPolicy())
    todo = found.todo
    if todo:  # the HTTP stack loads (and the embedded server starts) only to send something
        from stages.network.transport import preload

        preload()

        endpoint.ensure_started()

    started = time.perf_counter()
    fresh: list[dict[str, Any]] = []
    server = None
    known = Timings()
    if todo:
        count = sender_count(plan.run.senders, endpoint.embedded, len(todo), concurrency)
        observer = watch(endpoint) if watch else _Unwatched()
        with lean_gc():
            fresh = run_shares(
                count,
                _pass_job(plan, endpoint, todo, concurrency),
                journal,
                lambda: Progress(label, len(todo), len(plan.items) - len(todo), observer.note),
                feed_size=len(todo),
                during=observer.during,
                on_record=known.add,
            )
        server = observer.result
    wall = time.perf_counter() - started
    current = latest(journal.records, plan.keys)
    records = [current[item.key] for item in plan.items if item.key in current]
    return PassResult(records, fresh, wall, found, server, known)


def warn_other_models(
    name: str, requested: str, records: list[dict[str, Any]], secrets: tuple[str, ...] = ()
) -> None:
    """One warning line when answers name another model than the one requested (a proxy or
    router answered with something else; each record's ``model`` says what). The names are
    scrubbed again: a journal an older version wrote may hold a key a server echoed."""
    from stages.network.scrubber import scrub

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


def journal_lock(name: str) -> str:
    """The lock every writer of ``results/<name>/`` holds (journals, manifest, serving metrics):
    one ``atlas infer`` per workload at a time (issue 24); each shard has its own."""
    return f"infer-{name}"


STALLED = frozenset({"stall"})


def stalled_once_more(
    plan: Plan,
    endpoint: Endpoint,
    out: Path,
    concurrency: int,
    label: str,
    main: PassResult,
    watch: Callable[[Endpoint], Watch] | None = None,
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
        RerunPolicy(only_kinds=STALLED), watch,
    )  # fmt: skip
    for record in again.fresh:
        main.timings.add(record)
    return replace(
        main, records=again.records, fresh=main.fresh + again.fresh, wall=main.wall + again.wall
    )
