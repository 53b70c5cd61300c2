"""Load levels after a workload's main pass, and the serving metrics file (issue 14).

``workloads.<w>.load`` names a mode and its levels (``run.sweep`` on a ``perf`` workload is
shorthand for ``{mode: concurrency, levels: run.sweep}``). Each level is journaled in its own file,
``results/<w>/load/<mode>-<level>.jsonl``, in the response journal's format plus the level fields
of :mod:`stages.inference.openloop`; the main journal, which scoring reads, is never touched.
Entries cycle over the workload's planned items. The key of each request hashes the item's own
key, the load settings that shape the schedule, the level, the entry index and the turn, so a
rerun sends only what is missing and a changed setting starts afresh.

``metrics/<w>.serving.json`` (shape in docs/formats.md#serving-metrics)::

    {"run_key": ..., "definitions": ..., "main": {today's figures of the main pass},
     "concurrency": {"<level>": {...}}, "rate": {"<rate>": {...}}, "knee": {...}}
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from stages.inference.arrivals import Slot, rate_schedule
from stages.inference.endpoint import Endpoint
from stages.inference.journal import Journal, canonical
from stages.inference.level_metrics import level_metrics
from stages.inference.openloop import Entry, Sender, closed_loop, open_loop
from stages.inference.plan import Plan
from stages.inference.progress import Progress
from stages.inference.senders import Share, run_shares, sender_count, split
from stages.inference.sending import chat_urls, lean_gc, request_headers, request_policy
from stages.inference.slo import knee
from stages.params import LoadParams

DEFINITIONS = (
    "vLLM benchmark_serving conventions: TTFT to the first token delta; TPOT = (E2E - TTFT) / "
    "(output tokens - 1); ITL = every gap between token deltas, pooled; E2E to the last chunk; "
    "output tokens from usage else streamed deltas; percentiles linear (numpy default); rate "
    "levels also from the scheduled send. See stages/inference/definitions.py."
)
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


def entries(plan: Plan, load: LoadParams, level: float) -> list[Entry]:
    """Every entry of one level, warm-up first, each with the journal key of each turn."""
    items = plan.items
    if load.mode == "rate":
        slots = rate_schedule(level, load, len(items))
    else:
        count = load.warmup_requests + (load.requests or len(items))
        slots = [Slot(i, i < load.warmup_requests, 0.0) for i in range(count)]
    turns = {row["id"]: tuple(row.get("turns") or ()) for row in plan.dataset.rows}
    settings = canonical(load.model_dump(include=SCHEDULE_FIELDS))
    out = []
    for slot in slots:
        item = items[slot.index % len(items)]
        followups = turns.get(item.row_id, ()) if load.multi_turn else ()
        prefix = canonical([item.key, settings.decode(), level_label(level), slot.index])[:-1]
        keys = tuple(
            hashlib.sha256(prefix + b"," + str(turn).encode() + b"]").hexdigest()
            for turn in range(1 + len(followups))
        )
        out.append(Entry(slot.index, slot.warmup, slot.offset_s, item, keys, followups))
    return out


def run_level(
    plan: Plan, endpoint: Endpoint, load: LoadParams, level: float, path: Path
) -> list[dict[str, Any]]:
    """Send the level's missing requests; returns the level's records of this run."""
    journal = Journal(path)
    planned = entries(plan, load, level)
    keys = {key for entry in planned for key in entry.keys}
    mine = [r for r in journal.records if r["key"] in keys]
    todo = [e for e in planned if not all(k in journal.keys for k in e.keys)]
    if todo:
        endpoint.ensure_started()  # the embedded server starts only when something is sent
        segment = 1 + max((int(r.get("segment", 0)) for r in mine), default=-1)
        label = f"{plan.name} @ {load.mode} {level_label(level)}"
        requests = sum(len(e.keys) for e in planned)
        rate = level if load.mode == "rate" else None
        count = sender_count(
            plan.run.senders, endpoint.embedded, len(todo), None if rate else int(level), rate
        )
        finished = {r["key"]: r for r in mine}

        async def job(share: Share) -> None:
            from stages.inference.transport import make_client

            if load.mode == "rate":
                pool = split(load.max_in_flight, share.count, share.index)
            else:
                pool = split(int(level), share.count, share.index)
            client = make_client(pool, request_headers(endpoint))
            sender = Sender(
                client=client,
                urls=chat_urls(endpoint),
                stream=plan.workload.stream,
                policy=request_policy(plan, endpoint),
                sink=share.sink,
                run_key=plan.run_key,
                segment=segment,
                finished=finished,
                multi_turn=load.multi_turn,
                think_time_s=load.think_time_s,
                provenance=endpoint.provenance,
            )
            try:
                if load.mode == "rate":
                    mine_entries = todo[share.index :: share.count]
                    await open_loop(sender, mine_entries, todo[0].offset_s, share)
                else:
                    await closed_loop(sender, todo, pool, share)
            finally:
                await client.aclose()

        with lean_gc():
            run_shares(
                count,
                job,
                journal,
                lambda: Progress(label, requests - len(mine), len(mine)),
                feed_size=len(todo),
            )
    return [r for r in journal.records if r["key"] in keys]


def run_load(plan: Plan, endpoint: Endpoint, out: Path) -> dict[str, Any]:
    """Every level of the workload's load spec: ``{mode: {level: figures}, "knee": ...}``."""
    load = load_spec(plan)
    if load is None:
        return {}
    levels = load.levels if load.mode == "concurrency" else load.rates
    slo = plan.workload.slo
    figures: dict[str, Any] = {}
    for level in sorted(levels or ()):
        path = out / "load" / f"{load.mode}-{level_label(level)}.jsonl"
        records = run_level(plan, endpoint, load, level, path)
        figures[level_label(level)] = level_metrics(records, load, level, slo)
    result: dict[str, Any] = {load.mode: figures}
    if load.mode == "rate" and slo is not None:
        shares = {float(k): v["goodput"]["share"] for k, v in figures.items()}
        slo_set = slo.model_dump(exclude_none=True)
        result["knee"] = {**knee(shares, load.goodput_target), "slo": slo_set}
    return result


def serving_document(main: dict[str, Any], levels: dict[str, Any]) -> dict[str, Any]:
    """``metrics/<w>.serving.json``: run key and definitions, then the main pass and levels."""
    main = dict(main)
    run_key = main.pop("run_key", None)
    return {"run_key": run_key, "definitions": DEFINITIONS, "main": main, **levels}
