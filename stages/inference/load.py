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

import asyncio
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
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Send the level's missing requests; returns the level's records of this run and what the
    server's ``/metrics`` say it did meanwhile (None when nothing was sent)."""
    from stages.inference.transport import make_client

    journal = Journal(path)
    planned = entries(plan, load, level)
    keys = {key for entry in planned for key in entry.keys}
    mine = [r for r in journal.records if r["key"] in keys]
    todo = [e for e in planned if not all(k in journal.keys for k in e.keys)]
    server = None
    if todo:
        endpoint.ensure_started()  # the embedded server starts only when something is sent
        segment = 1 + max((int(r.get("segment", 0)) for r in mine), default=-1)
        pool = int(level) if load.mode == "concurrency" else load.max_in_flight
        label = f"{plan.name} @ {load.mode} {level_label(level)}"
        requests = sum(len(e.keys) for e in planned)

        async def send_all() -> None:
            client = make_client(pool, request_headers(endpoint))
            sender = Sender(
                client=client,
                urls=chat_urls(endpoint),
                stream=plan.workload.stream,
                policy=request_policy(plan, endpoint),
                journal=journal,
                run_key=plan.run_key,
                segment=segment,
                finished={r["key"]: r for r in mine},
                progress=progress,
                multi_turn=load.multi_turn,
                think_time_s=load.think_time_s,
                provenance=endpoint.provenance,
            )
            try:
                if load.mode == "rate":
                    await open_loop(sender, todo)
                else:
                    await closed_loop(sender, todo, int(level))
            finally:
                await client.aclose()

        watch = endpoint.watch()
        with (
            lean_gc(),
            journal,
            Progress(label, requests - len(mine), len(mine)) as progress,
            watch.during(),
        ):
            asyncio.run(send_all())
        server = watch.result
    return [r for r in journal.records if r["key"] in keys], server


def run_load(
    plan: Plan, endpoint: Endpoint, out: Path, previous: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Every level of the workload's load spec: ``{mode: {level: figures}, "knee": ...}``. A
    level that sends nothing keeps the ``server`` block ``previous`` (the last serving document
    of the same run) has for it: scrapes cannot be redone from the journal."""
    load = load_spec(plan)
    if load is None:
        return {}
    levels = load.levels if load.mode == "concurrency" else load.rates
    slo = plan.workload.slo
    figures: dict[str, Any] = {}
    for level in sorted(levels or ()):
        path = out / "load" / f"{load.mode}-{level_label(level)}.jsonl"
        records, server = run_level(plan, endpoint, load, level, path)
        block = level_metrics(records, load, level, slo)
        if server is None and previous and previous.get("run_key") == plan.run_key:
            server = ((previous.get(load.mode) or {}).get(level_label(level)) or {}).get("server")
        block["server"] = server
        figures[level_label(level)] = block
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
