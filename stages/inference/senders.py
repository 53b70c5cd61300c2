"""Several sending processes fed by one schedule, their records merged into one journal (issue 23).

One event loop reads and parses every streamed chunk of every request in flight; from about a
thousand requests a second (or a hundred-odd streams in flight) it is the client's own loop that
falls behind, not the server: answers wait in the loop's queue and TTFT reads late. So a pass or a
level may be sent by ``count`` processes, each with its own event loop and connection pool:

* the parent forks them after everything is planned (no re-import: a fork costs milliseconds) and
  stays the journal's only writer, holding the workload's lock (issue 24): each child writes its
  finished records, already encoded, to its own pipe, and the parent appends them to the journal
  as they come, so a record is journaled once, by one process;
* an open-loop level is one schedule on one clock (``time.perf_counter``, the system's monotonic
  clock, the same in every process): child ``k`` sends entries ``k, k + n, k + 2n, ...`` of it at
  their scheduled times;
* a closed loop takes its work from one shared pipe of item numbers, read four bytes at a time by
  every worker of every child (reads of a pipe are atomic), so each item is taken exactly once and
  a fast child takes more; the concurrency is split between the children.

Nothing is lost or sent twice when a process dies: a child killed mid-run loses only the requests
it had in flight (the others take the rest of the work) and the run ends with exit code 3 after
journaling everything else; a killed parent takes its children with it (``PR_SET_PDEATHSIG`` and
the end of the control pipe), and the next run sends what is not journaled. Children ignore
Ctrl-C: the parent stops them, keeping every record they had finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import selectors
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Coroutine, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from stages.errors import AtlasError
from stages.inference import eventloop
from stages.inference.journal import Journal, encode_line
from stages.inference.progress import Progress

START_MARGIN_S = 0.02
"""Forked children start their clock this far after the parent's fork, so every one is ready."""
_ITEM = 4
"""Bytes per item number in the closed loop's work pipe."""
_PIPE_BUF = 4096
"""Writes up to this size are atomic on a pipe: the work pipe always holds whole numbers."""
_TICK_S = 0.1


STREAMS_PER_SENDER = 64
"""Automatic sender count: one process per this many requests in flight (closed loop) ..."""
RATE_PER_SENDER = 1000.0
"""... or per this many requests a second offered (open loop), up to the cores this process
may use. Measured on 2 cores: one loop keeps 1,000 req/s within 1 % and 3 ms of lag p99, and
falls behind from about 128 streams in flight (``make bench``)."""
FEW_REQUESTS = 200
"""Fewer requests than this to send are sent by one process whatever the load: not worth a fork."""


def sender_count(
    setting: int | None,
    embedded: bool,
    requests: int,
    concurrency: int | None = None,
    rate: float | None = None,
) -> int:
    """How many processes send: ``run.senders`` when set, else one per ``STREAMS_PER_SENDER``
    in flight or ``RATE_PER_SENDER`` offered, up to the usable cores; always one for the embedded
    server (one slot: nothing to gain) and for fewer than ``FEW_REQUESTS`` requests."""
    if setting is not None:
        return max(1, min(setting, requests or 1))
    if embedded or requests < FEW_REQUESTS:
        return 1
    want = -(-concurrency // STREAMS_PER_SENDER) if concurrency else 1
    if rate is not None:
        want = max(want, int(-(-rate // RATE_PER_SENDER)))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(want, cores or 1))


def split(total: int, count: int, index: int) -> int:
    """Process ``index``'s part of ``total`` split as evenly as possible over ``count``."""
    return total // count + (index < total % count)


class SenderDied(AtlasError):
    """A sending process died mid-run; what it had in flight was not journaled."""

    exit_code = 3


class Sink(Protocol):
    def append(self, record: dict[str, Any]) -> None: ...


@dataclass
class Share:
    """What one sending process is given: its number, the shared work and where records go."""

    index: int
    count: int
    sink: Sink
    feed: Feed
    t0: float
    """The clock start of the pass or level (``time.perf_counter``, the same in every process)."""
    stopping: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the parent asks the senders to stop early (an over-saturated level)."""
    finished: Callable[[], int] = lambda: 0
    """Records finished so far by every process (for the saturation watch)."""


class Feed:
    """Closed-loop work: the next item number, or None when there is none left."""

    def __init__(self, total: int) -> None:
        self._next = iter(range(total))

    async def take(self) -> int | None:
        return next(self._next, None)


class PipeFeed(Feed):
    """Item numbers read from the work pipe shared by every child (four bytes each)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._waiters: list[asyncio.Future[None]] = []

    def _readable(self) -> None:
        asyncio.get_running_loop().remove_reader(self._fd)
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def take(self) -> int | None:
        while True:
            try:
                data = os.read(self._fd, _ITEM)
            except BlockingIOError:
                loop = asyncio.get_running_loop()
                if not self._waiters:
                    loop.add_reader(self._fd, self._readable)
                waiter = loop.create_future()
                self._waiters.append(waiter)
                await waiter
                continue
            return int.from_bytes(data, "little") if data else None


OnRecord = Callable[[dict[str, Any]], None]
"""Called with each record right after it is journaled (in the journal's process)."""


def _ignore(record: dict[str, Any]) -> None:
    pass


class LocalSink:
    """In one process: straight into the journal and the progress line."""

    def __init__(self, journal: Journal, progress: Progress, on_record: OnRecord) -> None:
        self.journal, self.progress, self.on_record = journal, progress, on_record
        self.fresh: list[dict[str, Any]] = []

    def append(self, record: dict[str, Any]) -> None:
        self.journal.append(record)
        self.fresh.append(record)
        self.progress.advance(record["error"] is not None)
        self.on_record(record)


class PipeSink:
    """In a child: encoded records go to the parent through a pipe, written by a thread so the
    event loop never waits for the parent."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._write, name="records", daemon=True)
        self._thread.start()

    def append(self, record: dict[str, Any]) -> None:
        self._queue.put(encode_line(record))

    def _write(self) -> None:
        while True:
            batch = [self._queue.get()]
            while batch[-1] is not None and not self._queue.empty():
                batch.append(self._queue.get())
            data = memoryview(b"".join(line for line in batch if line is not None))
            try:
                while data:
                    data = data[os.write(self._fd, data) :]
            except OSError:  # the parent is gone: nothing can be journaled any more
                os._exit(1)
            if batch[-1] is None:
                return

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join()


Job = Callable[[Share], Coroutine[Any, Any, None]]


def run_shares(
    count: int,
    job: Job,
    journal: Journal,
    progress: Callable[[], Progress],
    feed_size: int = 0,
    watch: Callable[[float, int], bool] | None = None,
    during: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext,
    on_record: OnRecord = _ignore,
) -> list[dict[str, Any]]:
    """Run ``job`` in ``count`` processes (1: in this one) and journal what they finish; returns
    the records journaled. ``feed_size`` items are handed out by the closed-loop feed; ``watch``
    is called about every 0.1 s with (seconds since the clock start, records finished) and stops
    the senders early when it returns True (what they have in flight is then not journaled);
    ``during`` is entered around the sending (after the fork: the server-metrics sampler's thread
    is the parent's alone); ``on_record`` is called with each record journaled."""
    if count <= 1:
        return _run_here(job, journal, progress, feed_size, watch, during, on_record)
    return _Parent(count, job, feed_size, watch, on_record).run(journal, progress, during)


def _run_here(
    job: Job,
    journal: Journal,
    progress: Callable[[], Progress],
    feed_size: int,
    watch: Callable[[float, int], bool] | None,
    during: Callable[[], AbstractContextManager[None]],
    on_record: OnRecord,
) -> list[dict[str, Any]]:
    with journal, progress() as shown, during():
        sink = LocalSink(journal, shown, on_record)

        async def main() -> None:
            share = Share(0, 1, sink, Feed(feed_size), time.perf_counter())
            share.finished = lambda: len(sink.fresh)
            watcher = asyncio.create_task(_watch(share, watch)) if watch else None
            try:
                await job(share)
            finally:
                if watcher is not None:
                    watcher.cancel()

        eventloop.run(main())
    return sink.fresh


async def _watch(share: Share, watch: Callable[[float, int], bool]) -> None:
    while not share.stopping.is_set():
        await asyncio.sleep(_TICK_S)
        if watch(time.perf_counter() - share.t0, share.finished()):
            share.stopping.set()


@dataclass
class _Child:
    pid: int
    records: int
    """Read end of the child's record pipe."""
    control: int
    """Write end of the child's control pipe (``s``: stop; closed: the parent is gone)."""
    buffer: bytearray = field(default_factory=bytearray)
    status: int | None = None


def _pipe(size: int = 1 << 20) -> tuple[int, int]:
    read, write = os.pipe()
    with contextlib.suppress(OSError, AttributeError):  # Linux: a larger buffer, fewer wake-ups
        import fcntl

        fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, size)
    return read, write


class _Parent:
    def __init__(
        self,
        count: int,
        job: Job,
        feed_size: int,
        watch: Callable[[float, int], bool] | None,
        on_record: OnRecord,
    ) -> None:
        self.count, self.job, self.feed_size, self.watch = count, job, feed_size, watch
        self.on_record = on_record
        self.children: list[_Child] = []
        self.fresh: list[dict[str, Any]] = []
        self.feed_fd: int | None = None
        self.t0 = 0.0

    def run(
        self,
        journal: Journal,
        progress: Callable[[], Progress],
        during: Callable[[], AbstractContextManager[None]],
    ) -> list[dict[str, Any]]:
        feed_read, feed_write = _pipe()
        os.set_blocking(feed_read, False)
        os.set_blocking(feed_write, False)
        sys.stdout.flush()
        sys.stderr.flush()
        t0 = self.t0 = time.perf_counter() + START_MARGIN_S + 0.005 * self.count
        try:
            for index in range(self.count):
                self._fork(index, t0, feed_read, feed_write)
        except BaseException:
            self._kill_all(signal.SIGKILL)
            raise
        finally:
            os.close(feed_read)
        try:
            with journal, progress() as shown, during():
                self._pump(journal, shown, feed_write)
        finally:
            self._kill_all(signal.SIGKILL)  # only after an error: every child is reaped by now
        dead = [c for c in self.children if c.status != 0]
        if dead:
            raise SenderDied(_death_message(dead, journal))
        return self.fresh

    def _fork(self, index: int, t0: float, feed_read: int, feed_write: int) -> None:
        records_read, records_write = _pipe()
        control_read, control_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            keep = {records_write, control_read, feed_read}
            for fd in [feed_write, records_read, control_write] + [
                fd for c in self.children for fd in (c.records, c.control)
            ]:
                if fd not in keep:
                    os.close(fd)
            _child(self.job, index, self.count, t0, records_write, control_read, feed_read)
        os.close(records_write)
        os.close(control_read)
        os.set_blocking(records_read, False)
        self.children.append(_Child(pid, records_read, control_write))

    def _pump(self, journal: Journal, progress: Progress, feed_write: int) -> None:
        """Hand out work and journal records until every child has ended. Interrupted (Ctrl-C,
        SIGTERM), it stops the children and still journals every record they had finished."""
        selector = selectors.DefaultSelector()
        for child in self.children:
            selector.register(child.records, selectors.EVENT_READ, child)
        pending = _work(self.feed_size)
        self.feed_fd = feed_write
        if self._feed(feed_write, pending):
            selector.register(feed_write, selectors.EVENT_WRITE, None)
        else:
            self._close_feed(selector, False)
        stopped = False
        interrupted: BaseException | None = None
        while any(c.status is None for c in self.children):
            try:
                self._step(selector, journal, progress, pending)
                now = time.perf_counter() - self.t0
                if not stopped and self.watch and self.watch(now, len(self.fresh)):
                    stopped = True
                    self._tell_all(b"s")
            except KeyboardInterrupt as exc:
                if interrupted is not None:
                    raise
                interrupted = exc
                self._kill_all(signal.SIGTERM, reap=False)  # their pipes still hold records
        self._close_feed(selector, True)
        for child in self.children:
            with contextlib.suppress(OSError):
                os.close(child.control)
        if interrupted is not None:
            raise interrupted

    def _step(
        self,
        selector: selectors.BaseSelector,
        journal: Journal,
        progress: Progress,
        pending: _Resend,
    ) -> None:
        for key, _ in selector.select(_TICK_S):
            child = key.data
            if child is None:
                if self.feed_fd is not None and not self._feed(self.feed_fd, pending):
                    self._close_feed(selector, True)
                continue
            if not self._read(child, journal, progress):
                selector.unregister(child.records)
                os.close(child.records)
                _, status = os.waitpid(child.pid, 0)
                child.status = os.waitstatus_to_exitcode(status)

    def _close_feed(self, selector: selectors.BaseSelector, registered: bool) -> None:
        """The end of the work pipe: children read the end of their work."""
        if self.feed_fd is None:
            return
        if registered:
            selector.unregister(self.feed_fd)
        os.close(self.feed_fd)
        self.feed_fd = None

    def _tell_all(self, message: bytes) -> None:
        for child in self.children:
            with contextlib.suppress(OSError):
                os.write(child.control, message)

    @staticmethod
    def _feed(fd: int, pending: _Resend) -> bool:
        """Write work while the pipe takes it; False once everything is written."""
        for chunk in pending:
            try:
                os.write(fd, chunk)
            except BlockingIOError:
                pending.send(chunk)
                return True
        return False

    def _read(self, child: _Child, journal: Journal, progress: Progress) -> bool:
        """Journal the child's complete lines; False at the end of its pipe."""
        try:
            data = os.read(child.records, 1 << 16)
        except BlockingIOError:
            return True
        if not data:
            return False
        child.buffer += data
        end = child.buffer.rfind(b"\n")
        if end < 0:
            return True
        lines = bytes(child.buffer[: end + 1])
        del child.buffer[: end + 1]
        for line in lines.splitlines(keepends=True):
            record = json.loads(line)
            journal.append(record, line)
            self.fresh.append(record)
            progress.advance(record["error"] is not None)
            self.on_record(record)
        return True

    def _kill_all(self, signum: int, reap: bool = True) -> None:
        """Signal every child still running; with ``reap``, wait for them (nothing more is
        journaled from them)."""
        for child in self.children:
            if child.status is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child.pid, signum)
        if not reap:
            return
        for child in self.children:
            if child.status is None:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(child.pid, 0)
                child.status = -signum


class _Resend:
    """An iterator of work chunks that can be given back the chunk the pipe did not take."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self._chunks = chunks
        self._back: bytes | None = None

    def __iter__(self) -> _Resend:
        return self

    def __next__(self) -> bytes:
        if self._back is not None:
            chunk, self._back = self._back, None
            return chunk
        return next(self._chunks)

    def send(self, chunk: bytes) -> None:
        self._back = chunk


def _work(total: int) -> _Resend:
    per_write = _PIPE_BUF // _ITEM

    def chunks() -> Iterator[bytes]:
        for start in range(0, total, per_write):
            stop = min(total, start + per_write)
            yield b"".join(i.to_bytes(_ITEM, "little") for i in range(start, stop))

    return _Resend(chunks())


def _death_message(dead: list[_Child], journal: Journal) -> str:
    def how(status: int) -> str:
        return f"killed by signal {-status}" if status < 0 else f"exit code {status}"

    ended = ", ".join(f"pid {c.pid} {how(c.status or 0)}" for c in dead)
    return (
        f"{journal.path}: {len(dead)} sending process(es) died mid-run ({ended}); every request "
        "they had finished is journaled, the ones they had in flight are not, and a rerun sends "
        "those"
    )


def _die_with_parent(parent: int) -> None:
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


def _child(
    job: Job, index: int, count: int, t0: float, records: int, control: int, feed: int
) -> None:
    """The body of a forked sender; ends the process, never returns."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if sys.platform.startswith("linux"):
            _die_with_parent(os.getppid())
        from stages import locks

        for handle in locks.held():  # only the parent holds the workload's lock
            os.close(handle.fileno())
        sink = PipeSink(records)

        async def main() -> None:
            share = Share(index, count, sink, PipeFeed(feed), t0)
            loop = asyncio.get_running_loop()

            def control_message() -> None:
                try:
                    data = os.read(control, 64)
                except BlockingIOError:
                    return
                if not data:  # the parent is gone: nothing we send could be journaled
                    os._exit(1)
                share.stopping.set()

            os.set_blocking(control, False)
            loop.add_reader(control, control_message)
            await job(share)

        eventloop.run(main())
        sink.close()
        code = 0
    except BaseException:
        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os._exit(code)
