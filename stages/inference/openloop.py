"""Sending one load level (issue 14): open loop on a schedule, or closed loop at a concurrency.

Open loop (``rate`` mode): one dispatcher sleeps until each entry's scheduled time and starts it as
its own task, whatever is still in flight, so a slow server builds a queue that the latencies
from the scheduled send show. The dispatcher never waits for answers; when the client itself falls
behind, the schedule lag (actual − scheduled send) shows it. Closed loop (``concurrency`` mode):
``concurrency`` workers each take the next entry when their last one is done; an entry's
scheduled time is the moment a worker took it.

An entry is a session: one request, or with ``multi_turn`` one request per turn, turn k+1 sent
``think_time_s`` after the answer to turn k (that is its scheduled time). Every finished request
is journaled at once with its level fields: ``phase`` (``warmup`` or ``measure``), ``index``,
``segment`` (which invocation sent it: a resumed level starts a new segment and a new clock),
``scheduled_s``, ``sent_s`` and ``done_s`` (seconds on the segment's clock), and for sessions
``session`` and ``turn``. A rerun sends only the turns not journaled, keeping the schedule's
spacing from the first missing entry on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from stages.inference.client import Policy, send
from stages.inference.journal import Journal, make_record
from stages.inference.plan import Item
from stages.inference.progress import Progress
from stages.inference.sending import STAGGER_S
from stages.inference.sessions import turn_body


@dataclass(frozen=True)
class Entry:
    """One scheduled session of a level (a single request unless multi-turn)."""

    index: int
    warmup: bool
    offset_s: float
    """Scheduled send of its first turn, from the level's start (0 in closed loop)."""
    item: Item
    keys: tuple[str, ...]
    """Journal key of each turn."""
    followups: tuple[str, ...] = ()
    """User turns after the first (multi-turn only)."""


@dataclass
class Sender:
    """What every request of one level shares."""

    client: httpx.AsyncClient
    urls: list[httpx.URL]
    stream: bool
    policy: Policy
    journal: Journal
    run_key: str
    segment: int
    finished: dict[str, dict[str, Any]]
    """Records journaled earlier, by key (a resumed session continues from them)."""
    progress: Progress
    multi_turn: bool = False
    think_time_s: float = 0.0
    provenance: Callable[[int, str | None], dict[str, Any]] = lambda index, fingerprint: {}
    """The endpoint's ``provenance`` of a record (URL number, system fingerprint)."""

    async def session(self, entry: Entry, scheduled: float, t0: float) -> None:
        """Send the entry's turns that are not journaled yet; ``scheduled`` is its first turn's
        scheduled time and ``t0`` the segment's clock start (both ``perf_counter`` values)."""
        answers: list[str] = []
        previous_end: float | None = None
        for turn, key in enumerate(entry.keys):
            done = self.finished.get(key)
            if done is not None:  # journaled by an earlier invocation
                if done.get("error") is not None:
                    return
                answers.append(done.get("output") or "")
                continue
            if turn:
                scheduled = time.perf_counter()
                if previous_end is not None:
                    scheduled = previous_end + self.think_time_s
                    await asyncio.sleep(max(0.0, scheduled - time.perf_counter()))
            body = turn_body(entry.item.body, list(entry.followups), answers, turn)
            outcome = await send(
                self.client, self.urls, entry.index, body, self.stream, self.policy
            )
            fingerprint = outcome.answer.system_fingerprint if outcome.answer else None
            provenance = self.provenance(outcome.url_index, fingerprint)
            record = make_record(
                key, self.run_key, entry.item.row_id, entry.item.repeat, outcome,
                entry.item.seed, provenance,
            )  # fmt: skip
            record.update(
                phase="warmup" if entry.warmup else "measure",
                index=entry.index,
                segment=self.segment,
                scheduled_s=round(scheduled - t0, 6),
                sent_s=round(outcome.started - t0, 6),
                done_s=round(outcome.ended - t0, 6),
            )
            if self.multi_turn:
                record.update(session=entry.index, turn=turn)
            self.journal.append(record)
            self.progress.advance(record["error"] is not None)
            if record["error"] is not None:
                return
            answers.append(record["output"])
            previous_end = outcome.ended


async def open_loop(sender: Sender, todo: list[Entry]) -> None:
    """Start each entry at its scheduled offset (the first pending one at 0) and wait for all."""
    base = todo[0].offset_s
    t0 = time.perf_counter()
    tasks = []
    for entry in todo:
        at = t0 + entry.offset_s - base
        delay = at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(sender.session(entry, at, t0)))
    await asyncio.gather(*tasks)


async def closed_loop(sender: Sender, todo: list[Entry], concurrency: int) -> None:
    """``concurrency`` workers, each taking the next entry when its last one is done."""
    work = iter(todo)
    t0 = time.perf_counter()

    async def worker(index: int) -> None:
        await asyncio.sleep(index * STAGGER_S)
        for entry in work:
            await sender.session(entry, time.perf_counter(), t0)

    await asyncio.gather(*(worker(i) for i in range(min(concurrency, len(todo)))))
