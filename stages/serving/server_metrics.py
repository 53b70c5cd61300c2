"""The server's own view of a pass: its Prometheus ``/metrics`` (issues 20, 33).

The page is scraped right before and right after each main pass and each load level, and its
gauges every :data:`SAMPLE_S` seconds while the pass runs; the differences of the counters give
what the server did in that pass. Any of four engines' pages is read
(:mod:`stages.serving.prometheus_page` parses, :mod:`stages.serving.engine_metrics` maps vLLM,
SGLang, TGI and llama.cpp names to one set of figures: requests running and waiting, KV-cache
usage, prompt and generated tokens, the pass's prefix-cache hit rate). llama.cpp's page gives more
(prompt tokens computed and cached, the seconds spent on each, decode calls, slot occupancy):
those figures of issue 20 keep their names and values. The page is read with the endpoint's API
key, sent only to the endpoint's own origin and never on through a redirect (the network policy,
:mod:`stages.network.policy`). Definitions of every figure are in docs/serving.md ("Server
metrics"). A server without ``/metrics``, or with none of the four engines' names, gives null.
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
from stages.serving.engine_metrics import dialect_of, engine_figures, gauge_summary
from stages.serving.prometheus_page import Page, PageError, read_page

if TYPE_CHECKING:
    from stages.inference.endpoint import Endpoint

SAMPLE_S = 0.5
NOTE_WINDOW_S = 10.0
BUSY = 0.7
"""Below this share of its threads' cores, the engine is said to be on a busy machine."""
PREFIX = "llamacpp:"
_COUNTERS = (
    "prompt_tokens", "prompt_tokens_cached", "prompt_seconds", "tokens_predicted",
    "tokens_predicted_seconds", "n_decode",
)  # fmt: skip
"""llama.cpp's counters (``_total`` dropped, as :func:`read_page` names them)."""


def parse(text: str) -> Page | None:
    """A Prometheus text page as :func:`read_page` reads it, or None when it is not one."""
    try:
        return read_page(text)
    except PageError:
        return None


def scrape(
    root: str, timeout: float = 5.0, direct: bool = False, headers: dict[str, str] | None = None
) -> Page | None:
    """The server's metrics now, or None when it has none, refuses them, uses none of the four
    engines' names, or its answer is not HTTP (the project's network policy:
    :mod:`stages.network.policy`; ``direct``: the embedded server, no proxy; ``headers``: the
    endpoint's, its API key)."""
    try:
        response = control_get(f"{root}/metrics", headers or {}, timeout, direct=direct)
    except ControlError:
        return None
    if response.status_code != 200:
        return None
    page = parse(response.content.decode("utf-8", "replace"))
    return page if page and dialect_of(page) is not None else None  # no engine's page


def _llama(page: Page, name: str, default: float = 0.0) -> float:
    return page.get(PREFIX + name, default)


def _delta(after: Page, before: Page, name: str) -> float:
    return _llama(after, name) - _llama(before, name)


def llama_figures(
    before: Page, after: Page, samples: list[Page], wall_s: float, n_ctx: int | None
) -> dict[str, Any]:
    """llama.cpp's own figures of one pass (issue 20) from the two scrapes and the samples."""
    d = {name: _delta(after, before, name) for name in _COUNTERS}
    prompt, cached = d["prompt_tokens"], d["prompt_tokens_cached"]
    decodes = d["n_decode"]
    busy_before = _llama(before, "n_busy_slots_per_decode") * _llama(before, "n_decode")
    busy_after = _llama(after, "n_busy_slots_per_decode") * _llama(after, "n_decode")
    peak = after.get(PREFIX + "n_tokens_max")

    def rate(count: float, seconds: float) -> float | None:
        return round(count / seconds, 3) if seconds > 0 else None

    return {
        "prompt_tokens": int(prompt),
        "prompt_tokens_cached": int(cached),
        "tokens_predicted": int(d["tokens_predicted"]),
        "prompt_tokens_per_s": rate(prompt, wall_s),
        "predicted_tokens_per_s": rate(d["tokens_predicted"], wall_s),
        "prompt_tokens_per_busy_s": rate(prompt, d["prompt_seconds"]),
        "predicted_tokens_per_busy_s": rate(d["tokens_predicted"], d["tokens_predicted_seconds"]),
        "prompt_cache_hit_share": round(cached / (prompt + cached), 4) if prompt + cached else None,
        "decode_calls": int(decodes),
        "busy_slots_per_decode": round((busy_after - busy_before) / decodes, 3)
        if decodes
        else None,
        "requests_processing": gauge_summary([_llama(s, "requests_processing") for s in samples]),
        "requests_deferred": gauge_summary([_llama(s, "requests_deferred") for s in samples]),
        "sequence_tokens_max": int(peak) if peak is not None else None,
        "sequence_share_of_slot_max": round(peak / n_ctx, 4) if peak and n_ctx else None,
    }


def figures(
    before: Page, after: Page, samples: list[Page], wall_s: float, n_ctx: int | None
) -> dict[str, Any]:
    """The ``server`` block of one pass: llama.cpp's own figures (its pages only), then the
    figures every engine has (:func:`~stages.serving.engine_metrics.engine_figures`)."""
    common = engine_figures(before, after, samples)
    block = {}
    if common.get("metrics_dialect") == "llamacpp":
        block = llama_figures(before, after, samples, wall_s, n_ctx)
    return {**block, "wall_s": round(wall_s, 3), **common}


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
        headers: dict[str, str] | None = None,
    ) -> None:
        self.root, self.n_ctx, self.pid, self.threads = root, n_ctx, pid, threads
        self.direct = direct
        """The embedded engine's own server: scraped with no proxy between."""
        self.headers = headers or {}
        """The endpoint's headers (its API key) for ``root``'s origin."""
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
                and (values := scrape(self.root, 2.0, self.direct, self.headers)) is not None
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
        tokens = _delta(last, self._before, "tokens_predicted") / elapsed
        cores = (recent[-1][1] - recent[0][1]) / span
        busy = " (a busy machine: other work holds the rest)" if cores < BUSY * self.threads else ""
        return f"engine {tokens:.0f} tokens/s on {cores:.1f} of {self.threads} cores{busy}"

    def _without_times(self) -> list[dict[str, float]]:
        return [{k: v for k, v in sample.items() if k != "_at"} for sample in self._samples]

    @contextlib.contextmanager
    def during(self) -> Iterator[None]:
        before = scrape(self.root, direct=self.direct, headers=self.headers) if self.root else None
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
            after = None
            if before is not None and self.root:
                after = scrape(self.root, direct=self.direct, headers=self.headers)
            if before is not None and after is not None:
                samples = [before, *(self._without_times()), after]
                self.result = figures(before, after, samples, wall, self.n_ctx)


def watch_of(endpoint: Endpoint) -> Watch:
    """A :class:`Watch` of ``endpoint``'s ``/metrics`` (one URL only: figures of several servers
    would not add up), read with the endpoint's key; with the embedded engine's process and
    threads for the progress note."""
    root = endpoint.urls[0].rstrip("/").removesuffix("/v1") if len(endpoint.urls) == 1 else None
    if endpoint.engine is None:
        headers = endpoint.control_headers(f"{root}/metrics") if root else {}
        return Watch(root, None, headers=headers)
    pid = endpoint.pids[0] if len(endpoint.pids) == 1 else None
    threads = int(endpoint.engine.get("n_threads") or 0)
    return Watch(root, endpoint.engine["n_ctx"], pid, threads, direct=True)
