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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from stages.inference.client import Client, Policy, send
from stages.inference.journal import make_record
from stages.inference.plan import Item
from stages.inference.senders import Share, Sink
from stages.inference.sending import STAGGER_S, note_failover
from stages.serving.sessions import turn_body

if TYPE_CHECKING:
    from stages.inference.replicas import Replicas


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

    client: Client
    urls: Replicas | list[str]
    stream: bool
    policy: Policy
    sink: Sink
    """Where finished records go (the journal, or the parent process that journals them)."""
    run_key: str
    segment: int
    finished: dict[str, dict[str, Any]]
    """Records journaled earlier, by key (a resumed session continues from them)."""
    multi_turn: bool = False
    think_time_s: float = 0.0
    provenance: Callable[[int, str | None], dict[str, Any]] = lambda index, fingerprint: {}
    """The endpoint's ``provenance`` of a record (URL number, system fingerprint)."""
    labels: list[str] = field(default_factory=list)
    """Each replica as records name it (for ``failover``)."""
    trial: int | None = None
    """Which run of the level's ``repeats`` this is (recorded when there are several)."""

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
                    await sleep_until(scheduled)
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
            note_failover(record, outcome, self.labels)
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
            if self.trial is not None:
                record["trial"] = self.trial
            self.sink.append(record)
            if record["error"] is not None:
                return
            answers.append(record["output"])
            previous_end = outcome.ended


TIMER_SLACK_S = 0.001
"""How much longer than asked a send sleeps on uvloop, whose timers count whole milliseconds
from the loop's clock of the current iteration: asked for 0.3 ms, one fires at the next
iteration. Re-sleeping what is left then spun through the loop until the send's time (about 26
wake-ups a send at 2,000 req/s a process, most of the client's CPU at 4,000 req/s); sleeping a
millisecond longer wakes once, and a send goes out at most about a millisecond late (the
schedule lag says by how much). asyncio's own timers keep the time asked for: no slack."""


def _slack() -> float:
    loop = type(asyncio.get_running_loop())
    return TIMER_SLACK_S if loop.__module__.startswith("uvloop") else 0.0


async def sleep_until(at: float) -> None:
    """Sleep until ``time.perf_counter()`` reaches ``at``: never less (a request must not go out
    before its scheduled time), and on uvloop with one wake-up as a rule (:data:`TIMER_SLACK_S`);
    a timer that still fired early is slept again."""
    slack = _slack()
    while (left := at - time.perf_counter()) > 0:
        await asyncio.sleep(left + slack)


async def open_loop(sender: Sender, mine: list[Entry], base: float, share: Share) -> None:
    """Start each of this process's entries at its scheduled offset (``base``, the first pending
    entry's offset, is at the clock start ``share.t0``) and wait for all. Stops dispatching when
    the level is stopped early; what is in flight then is cancelled, not journaled."""
    t0 = share.t0
    tasks = []
    for entry in mine:
        at = t0 + entry.offset_s - base
        if at > time.perf_counter():
            if share.stopping.is_set():
                break
            await sleep_until(at)
        if share.stopping.is_set():
            break
        tasks.append(asyncio.create_task(sender.session(entry, at, t0)))
    if share.stopping.is_set():
        for task in tasks:
            task.cancel()
    await asyncio.gather(*tasks, return_exceptions=share.stopping.is_set())


async def closed_loop(sender: Sender, todo: list[Entry], workers: int, share: Share) -> None:
    """``workers`` workers, each taking the next entry (of every process's shared feed) when its
    last one is done."""

    async def worker(index: int) -> None:
        await asyncio.sleep(index * STAGGER_S)
        while (number := await share.feed.take()) is not None:
            await sender.session(todo[number], time.perf_counter(), share.t0)

    await asyncio.gather(*(worker(i) for i in range(min(workers, len(todo)))))
