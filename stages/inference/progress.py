"""Progress of a run on stderr: a rich bar on a terminal, plain periodic lines otherwise.

The bar shows done/total, the request rate, the failures so far, the time left and, on the
embedded engine, what it generates and the cores it gets (issue 32: a run on a busy machine
says so instead of failing); the plain form
(logs, CI, DVC) prints one line every ``PLAIN_EVERY_S`` seconds and one at the end. The rate is
requests per second from 1 req/s up, seconds per request below (a slow workload would otherwise
read ``0.0 req/s``). The time left (ETA) is the requests still to send divided by the rate so far.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

PLAIN_EVERY_S = 10.0


class Progress:
    """Counts finished requests; call :meth:`advance` once per request."""

    def __init__(
        self, label: str, total: int, skipped: int, note: Callable[[], str] | None = None
    ) -> None:
        self.label, self.total, self.skipped = label, total, skipped
        self.note = note
        """What the server says it is doing (the embedded engine's rate and CPU share)."""
        self.done = self.failed = 0
        self._started = time.monotonic()
        self._last_line = self._started
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> Progress:
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}  failed {task.fields[failed]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                TextColumn("{task.fields[note]}"),
                console=Console(stderr=True),
                transient=False,
            )
            self._bar.start()
            self._task = self._bar.add_task(
                self.label, total=self.total, rate=self.rate_text, failed=0, note=""
            )
        else:
            sys.stderr.write(
                f"{self.label}: {self.total} requests to send ({self.skipped} already done)\n"
            )
        return self

    @property
    def rate(self) -> float:
        elapsed = time.monotonic() - self._started
        return self.done / elapsed if elapsed > 0 else 0.0

    @property
    def rate_text(self) -> str:
        """The rate so far as shown: ``"12.5 req/s"`` from 1 req/s up, ``"30.0 s/req"`` below,
        ``"? req/s"`` before the first request finishes."""
        rate = self.rate
        if not self.done or rate <= 0:
            return "? req/s"
        return f"{rate:.1f} req/s" if rate >= 1 else f"{1 / rate:.1f} s/req"

    @property
    def eta(self) -> str:
        """Time left at the rate so far: ``"1 min 05 s"``, ``"12 s"``, or ``"?"`` before the first
        request finishes."""
        if self.done >= self.total:
            return "0 s"
        if not self.done or self.rate <= 0:
            return "?"
        seconds = round((self.total - self.done) / self.rate)
        if seconds < 60:
            return f"{seconds} s"
        minutes, seconds = divmod(seconds, 60)
        if minutes < 60:
            return f"{minutes} min {seconds:02d} s"
        hours, minutes = divmod(minutes, 60)
        return f"{hours} h {minutes:02d} min"

    def advance(self, failed: bool) -> None:
        self.done += 1
        self.failed += failed
        if self._bar is not None:
            self._bar.update(
                self._task, advance=1, rate=self.rate_text, failed=self.failed, note=self._note()
            )
        elif time.monotonic() - self._last_line >= PLAIN_EVERY_S:
            self._last_line = time.monotonic()
            self._line()

    def _note(self) -> str:
        return self.note() if self.note is not None else ""

    def _line(self) -> None:
        note = self._note()
        sys.stderr.write(
            f"{self.label}: {self.done}/{self.total} done, {self.rate_text}, "
            f"{self.failed} failed, ETA {self.eta}{f'; {note}' if note else ''}\n"
        )

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
        else:
            self._line()
