"""Sending one load level after a workload's main pass (issues 14 and 23).

``workloads.<w>.load`` names a mode and its levels (``run.sweep`` on a ``perf`` workload is
shorthand for ``{mode: concurrency, levels: run.sweep}``). Each level is journaled in its own file,
``results/<w>/load/<mode>-<level>.jsonl``, in the response journal's format plus the level fields
of :mod:`stages.serving.openloop`; the main journal, which scoring reads, is never touched.
Entries cycle over the workload's planned items. The key of each request hashes the item's own
key, the load settings that shape the schedule, the level, the entry index and the turn, so a
rerun sends only what is missing and a changed setting starts afresh. Run r of a level's
``repeats`` adds r to the key (and to the arrival seed). A level stopped early as over-saturated
leaves a marker beside its journal, so a rerun does not send the rest of its schedule. The
levels of a workload, their search and their figures are :mod:`stages.serving.sweep`'s. Each
run's ``server`` block is the server's own ``/metrics`` account of it
(:mod:`stages.serving.server_metrics`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stages.inference.endpoint import Endpoint
from stages.inference.journal import Journal, canonical
from stages.inference.plan import Plan
from stages.inference.progress import Progress
from stages.inference.senders import Share, run_shares, sender_count, split
from stages.inference.sending import lean_gc, request_policy, sending_client
from stages.io import read_json, write_json
from stages.params import LoadParams
from stages.serving.arrivals import Slot, arrival_times, rate_schedule
from stages.serving.openloop import Entry, Sender, closed_loop, open_loop
from stages.serving.saturation import SaturationWatch
from stages.serving.server_metrics import watch_of

if TYPE_CHECKING:
    from stages.serving.trace import Trace

SCHEDULE_FIELDS = {
    "mode",
    "arrival",
    "seed",
    "requests",
    "duration_s",
    "warmup_requests",
    "warmup_s",
    "multi_turn",
    "think_time_s",
}


def load_spec(plan: Plan) -> LoadParams | None:
    """The workload's load levels, if any."""
    if plan.workload.load is not None:
        return plan.workload.load
    if plan.workload.perf and plan.run.sweep:
        return LoadParams(mode="concurrency", levels=plan.run.sweep)
    return None


def level_label(level: float) -> str:
    """``2.0`` -> ``"2"``, ``0.5`` -> ``"0.5"``: the key of a level in files and metrics."""
    return f"{level:g}"


def level_trace(load: LoadParams) -> Trace | None:
    """The trace of ``trace`` arrivals (read and checked once per run)."""
    if load.trace is None:
        return None
    from stages.serving.trace import read_trace

    return read_trace(load.trace)


def schedule_settings(load: LoadParams, trace: Trace | None) -> dict[str, Any]:
    """What shapes a level's schedule, as its request keys hash it. Settings added by issue 23
    enter only when set, so the keys of levels journaled before stay the same."""
    settings = load.model_dump(include=SCHEDULE_FIELDS)
    if load.cv is not None:
        settings["cv"] = load.cv
    if load.ramp is not None:
        settings["ramp"] = load.ramp.model_dump()
    if trace is not None:
        settings["trace_sha256"] = trace.sha256
    return settings


def entries(
    plan: Plan, load: LoadParams, level: float, trial: int = 0, trace: Trace | None = None
) -> list[Entry]:
    """Every entry of one level (run ``trial`` of its ``repeats``), warm-up first, each with the
    journal key of each turn. Run r draws its arrivals with ``seed + r``."""
    items = plan.items
    if load.mode == "rate":
        times = None
        if trace is not None:
            from stages.serving.trace import trace_times

            times = trace_times(trace, level)
        elif trial:
            times = arrival_times(level, load.arrival, load.seed + trial, load.cv, load.ramp)
        default = len(trace.entries) - load.warmup_requests if trace is not None else len(items)
        slots = rate_schedule(level, load, max(1, default), times)
    else:
        count = load.warmup_requests + (load.requests or len(items))
        slots = [Slot(i, i < load.warmup_requests, 0.0) for i in range(count)]
    if trace is not None:
        from stages.serving.trace import trace_items

        sent = trace_items(trace, items, len(slots))
    else:
        sent = [items[slot.index % len(items)] for slot in slots]
    turns = {row["id"]: tuple(row.get("turns") or ()) for row in plan.dataset.rows}
    settings = canonical(schedule_settings(load, trace)).decode()
    out = []
    for slot, item in zip(slots, sent, strict=True):
        followups = turns.get(item.row_id, ()) if load.multi_turn else ()
        parts: list[Any] = [item.key, settings, level_label(level), slot.index]
        prefix = canonical(parts + [trial] if trial else parts)[:-1]
        keys = tuple(
            hashlib.sha256(prefix + b"," + str(turn).encode() + b"]").hexdigest()
            for turn in range(1 + len(followups))
        )
        out.append(Entry(slot.index, slot.warmup, slot.offset_s, item, keys, followups))
    return out


def stop_marker(path: Path, trial: int) -> Path:
    """Where a level (run ``trial``) stopped early says so: a rerun does not send the rest."""
    return path.with_name(f"{path.stem}.stopped-{trial}.json")


def _keys_digest(planned: list[Entry]) -> str:
    return hashlib.sha256("".join(k for e in planned for k in e.keys).encode()).hexdigest()


@dataclass
class LevelRun:
    """One run of one level: its records (sent now or before), why it stopped early, and what
    the server's ``/metrics`` say it did meanwhile (None when nothing was sent or no scrape)."""

    records: list[dict[str, Any]]
    stopped: dict[str, Any] | None = None
    server: dict[str, Any] | None = None
    measured: list[dict[str, Any]] | None = None
    """The measured entries (single-turn levels): ``{key, id, repeat}`` in schedule order, which
    scoring pairs across levels (:mod:`stages.scoring.load_levels`)."""


def run_level(
    plan: Plan,
    endpoint: Endpoint,
    load: LoadParams,
    level: float,
    path: Path,
    trial: int = 0,
    trace: Trace | None = None,
    watch: bool = False,
) -> LevelRun:
    """Send the level's missing requests (run ``trial``; ``watch``: stop early when the server
    is over-saturated) and return the run's records and figures."""
    journal = Journal(path)
    planned = entries(plan, load, level, trial, trace)
    keys = {key for entry in planned for key in entry.keys}
    marker = stop_marker(path, trial)
    run = LevelRun([], _read_stop(marker, planned))
    todo = [e for e in planned if not all(k in journal.keys for k in e.keys)]
    if todo and run.stopped is None:
        run = _send_level(plan, endpoint, load, level, journal, planned, todo, trial, watch)
        if run.stopped is not None:
            write_json(marker, {**run.stopped, "keys_sha256": _keys_digest(planned)})
    run.records = [r for r in journal.records if r["key"] in keys]
    if not load.multi_turn:
        run.measured = [
            {"key": e.keys[0], "id": e.item.row_id, "repeat": e.item.repeat}
            for e in planned
            if not e.warmup
        ]
    return run


def _read_stop(marker: Path, planned: list[Entry]) -> dict[str, Any] | None:
    if not marker.is_file():
        return None
    data = read_json(marker)
    if not isinstance(data, dict) or data.get("keys_sha256") != _keys_digest(planned):
        return None  # another schedule: the old stop says nothing about it
    return {k: v for k, v in data.items() if k != "keys_sha256"}


def _send_level(
    plan: Plan,
    endpoint: Endpoint,
    load: LoadParams,
    level: float,
    journal: Journal,
    planned: list[Entry],
    todo: list[Entry],
    trial: int,
    watch: bool,
) -> LevelRun:
    endpoint.ensure_started()  # the embedded server starts only when something is sent
    from stages.network.transport import preload

    preload()
    keys = {key for entry in planned for key in entry.keys}
    mine = [r for r in journal.records if r["key"] in keys]
    segment = 1 + max((int(r.get("segment", 0)) for r in mine), default=-1)
    label = f"{plan.name} @ {load.mode} {level_label(level)}"
    if load.repeats > 1:
        label += f" run {trial + 1}/{load.repeats}"
    requests = sum(len(e.keys) for e in planned)
    rate = level if load.mode == "rate" else None
    count = sender_count(
        plan.run.senders, endpoint.embedded, len(todo), None if rate else int(level), rate
    )
    finished = {r["key"]: r for r in mine}
    base = todo[0].offset_s

    async def job(share: Share) -> None:
        whole = load.max_in_flight if load.mode == "rate" else int(level)
        pool = split(whole, share.count, share.index)
        client = sending_client(plan, endpoint, pool)
        sender = Sender(
            client=client,
            urls=endpoint.replicas(),
            labels=endpoint.labels,
            stream=plan.workload.stream,
            policy=request_policy(plan, endpoint),
            sink=share.sink,
            run_key=plan.run_key,
            segment=segment,
            finished=finished,
            multi_turn=load.multi_turn,
            think_time_s=load.think_time_s,
            provenance=endpoint.provenance,
            trial=trial if load.repeats > 1 else None,
        )
        try:
            if load.mode == "rate":
                await open_loop(sender, todo[share.index :: share.count], base, share)
            else:
                await closed_loop(sender, todo, pool, share)
        finally:
            await client.aclose()

    saturation = None
    if watch and load.mode == "rate" and not load.multi_turn:
        saturation = SaturationWatch(sorted(e.offset_s - base for e in todo))
    server = watch_of(endpoint)
    with lean_gc():
        run_shares(
            count,
            job,
            journal,
            lambda: Progress(label, requests - len(mine), len(mine)),
            feed_size=len(todo),
            watch=saturation,
            during=server.during,
        )
    stopped = None
    if saturation is not None and saturation.stopped_at_s is not None:
        stopped = {"reason": "over-saturated", "after_s": saturation.stopped_at_s}
    return LevelRun([], stopped, server.result)
