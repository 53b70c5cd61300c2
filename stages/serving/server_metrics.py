"""The server's own view of a pass: llama.cpp's Prometheus ``/metrics`` (issue 20).

The embedded server runs with ``--metrics``. Its counters are scraped right before and right
after each main pass and each load level, and the differences give what the server did in that
pass: prompt tokens it computed and the ones it took from its cache, tokens it generated, the
seconds it spent on each, decode calls, and slot occupancy. Its gauges (requests processing,
requests deferred) are sampled every :data:`SAMPLE_S` seconds while the pass runs, and at both
scrapes. Definitions
of every figure are in docs/serving.md ("Server metrics"). A server without ``/metrics``, or
without llama.cpp's names, gives null.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stages.network.policy import ControlError, control_get

if TYPE_CHECKING:
    from stages.inference.endpoint import Endpoint

SAMPLE_S = 0.5
NOTE_WINDOW_S = 10.0
BUSY = 0.7
"""Below this share of its threads' cores, the engine is said to be on a busy machine."""
PREFIX = "llamacpp:"
_COUNTERS = (
    "prompt_tokens_total", "prompt_tokens_cached_total", "prompt_seconds_total",
    "tokens_predicted_total", "tokens_predicted_seconds_total", "n_decode_total",
)  # fmt: skip


def parse(text: str) -> dict[str, float]:
    """``llamacpp:<name> <value>`` lines of a Prometheus text page -> ``{name: value}``."""
    values: dict[str, float] = {}
    for line in text.splitlines():
        if not line.startswith(PREFIX):
            continue
        name, _, value = line[len(PREFIX) :].partition(" ")
        with contextlib.suppress(ValueError):
            values[name.split("{", 1)[0]] = float(value.split()[0])
    return values


def scrape(root: str, timeout: float = 5.0, direct: bool = False) -> dict[str, float] | None:
    """The server's metrics now, or None when it has none, or its answer is not HTTP
    (the project's network policy: :mod:`stages.network.policy`; ``direct``: the embedded
    server, no proxy)."""
    try:
        response = control_get(f"{root}/metrics", {}, timeout, direct=direct)
    except ControlError:
        return None
    if response.status_code != 200:
        return None
    return parse(response.content.decode("utf-8", "replace")) or None


def _delta(after: dict[str, float], before: dict[str, float], name: str) -> float:
    return after.get(name, 0.0) - before.get(name, 0.0)


def _gauge(samples: list[float]) -> dict[str, Any]:
    return {
        "max": max(samples) if samples else None,
        "mean": round(sum(samples) / len(samples), 3) if samples else None,
    }


def figures(
    before: dict[str, float],
    after: dict[str, float],
    samples: list[dict[str, float]],
    wall_s: float,
    n_ctx: int | None,
) -> dict[str, Any]:
    """The ``server`` block of one pass from the two scrapes and the gauge samples."""
    d = {name: _delta(after, before, name) for name in _COUNTERS}
    prompt, cached = d["prompt_tokens_total"], d["prompt_tokens_cached_total"]
    decodes = d["n_decode_total"]
    busy_before = before.get("n_busy_slots_per_decode", 0.0) * before.get("n_decode_total", 0.0)
    busy_after = after.get("n_busy_slots_per_decode", 0.0) * after.get("n_decode_total", 0.0)
    peak = after.get("n_tokens_max")

    def rate(count: float, seconds: float) -> float | None:
        return round(count / seconds, 3) if seconds > 0 else None

    return {
        "prompt_tokens": int(prompt),
        "prompt_tokens_cached": int(cached),
        "tokens_predicted": int(d["tokens_predicted_total"]),
        "prompt_tokens_per_s": rate(prompt, wall_s),
        "predicted_tokens_per_s": rate(d["tokens_predicted_total"], wall_s),
        "prompt_tokens_per_busy_s": rate(prompt, d["prompt_seconds_total"]),
        "predicted_tokens_per_busy_s": rate(
            d["tokens_predicted_total"], d["tokens_predicted_seconds_total"]
        ),
        "prompt_cache_hit_share": round(cached / (prompt + cached), 4) if prompt + cached else None,
        "decode_calls": int(decodes),
        "busy_slots_per_decode": round((busy_after - busy_before) / decodes, 3)
        if decodes
        else None,
        "requests_processing": _gauge([s.get("requests_processing", 0.0) for s in samples]),
        "requests_deferred": _gauge([s.get("requests_deferred", 0.0) for s in samples]),
        "sequence_tokens_max": int(peak) if peak is not None else None,
        "sequence_share_of_slot_max": round(peak / n_ctx, 4) if peak and n_ctx else None,
        "wall_s": round(wall_s, 3),
    }


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user and system) process ``pid`` has used, or None where /proc cannot say."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Watch:
    """Scrape before, sample gauges during, scrape after: ``result`` is the pass's block. With
    the embedded engine's ``pid`` and ``threads``, :meth:`note` says what the engine gets done
    and how much CPU it is given (issue 32: a busy machine shows on the progress line)."""

    def __init__(
        self,
        root: str | None,
        n_ctx: int | None,
        pid: int | None = None,
        threads: int = 0,
        direct: bool = False,
    ) -> None:
        self.root, self.n_ctx, self.pid, self.threads = root, n_ctx, pid, threads
        self.direct = direct
        """The embedded engine's own server: scraped with no proxy between."""
        self.result: dict[str, Any] | None = None
        self._samples: list[dict[str, float]] = []
        self._cpu: list[tuple[float, float]] = []
        self._before: dict[str, float] | None = None
        self._started = time.perf_counter()
        self._stop = threading.Event()

    def _sample(self) -> None:
        while not self._stop.wait(SAMPLE_S):
            if (
                self.root is not None
                and (values := scrape(self.root, 2.0, self.direct)) is not None
            ):
                values["_at"] = time.perf_counter()
                self._samples.append(values)
            if self.pid is not None and (used := cpu_seconds(self.pid)) is not None:
                self._cpu.append((time.perf_counter(), used))

    def note(self) -> str:
        """``engine 31 tokens/s on 0.9 of 2 cores (a busy machine)``, or "" before enough is
        known: tokens the engine generated per second of the pass so far, and the cores it got
        over the last :data:`NOTE_WINDOW_S` seconds."""
        if self._before is None or not self._samples or len(self._cpu) < 2 or not self.threads:
            return ""
        last = self._samples[-1]
        elapsed = last["_at"] - self._started
        recent = [c for c in self._cpu if c[0] >= self._cpu[-1][0] - NOTE_WINDOW_S]
        span = recent[-1][0] - recent[0][0]
        if elapsed <= 0 or span < NOTE_WINDOW_S / 2:
            return ""
        tokens = _delta(last, self._before, "tokens_predicted_total") / elapsed
        cores = (recent[-1][1] - recent[0][1]) / span
        busy = " (a busy machine: other work holds the rest)" if cores < BUSY * self.threads else ""
        return f"engine {tokens:.0f} tokens/s on {cores:.1f} of {self.threads} cores{busy}"

    def _without_times(self) -> list[dict[str, float]]:
        return [{k: v for k, v in sample.items() if k != "_at"} for sample in self._samples]

    @contextlib.contextmanager
    def during(self) -> Iterator[None]:
        before = scrape(self.root, direct=self.direct) if self.root else None
        self._before = before
        thread = threading.Thread(target=self._sample, name="metrics", daemon=True)
        started = self._started = time.perf_counter()
        if before is not None:
            thread.start()
        try:
            yield
        finally:
            wall = time.perf_counter() - started
            self._stop.set()
            if thread.is_alive():
                thread.join()
            after = (
                scrape(self.root, direct=self.direct) if before is not None and self.root else None
            )
            if before is not None and after is not None:
                samples = [before, *(self._without_times()), after]
                self.result = figures(before, after, samples, wall, self.n_ctx)


def watch_of(endpoint: Endpoint) -> Watch:
    """A :class:`Watch` of ``endpoint``'s ``/metrics`` (one URL only: figures of several servers
    would not add up); with the embedded engine's process and threads for the progress note."""
    root = endpoint.urls[0].rstrip("/").removesuffix("/v1") if len(endpoint.urls) == 1 else None
    if endpoint.engine is None:
        return Watch(root, None)
    pid = endpoint.pids[0] if len(endpoint.pids) == 1 else None
    threads = int(endpoint.engine.get("n_threads") or 0)
    return Watch(root, endpoint.engine["n_ctx"], pid, threads, direct=True)
