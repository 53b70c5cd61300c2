"""Serving metric definitions (issue 14). Stated here once; docs/serving.md#definitions
summarises them for readers.

They follow vLLM's ``benchmark_serving`` (``calculate_metrics`` and its request functions) wherever
it has a convention. All times are seconds, from the client's clock (``time.perf_counter``).

- **TTFT**, time to first token: from the send of a request to the arrival of the first streamed
  delta that carries a token of any channel: reasoning, content or a tool call (a role-only delta
  is not a token). **TTFA**, time to first answer token: the same to the first delta of the
  answer channel (content or a tool call outside a leading think block; issue 33). For a model
  that does not think they are equal. A piece of the
  answer arrives when the client's connection receives its bytes (the project's HTTP client
  stamps it there, before it waits in the event loop behind other answers; issue 23).
- **E2E** (``latency_s``), end-to-end latency: from the send to the end of the answer (the last
  chunk read).
- **Output tokens**: ``usage.completion_tokens`` when the server reports usage (every request
  asks for it: ``stream_options.include_usage``), else llama.cpp's own count of the tokens it
  generated (``timings.predicted_n``) when a proxy in between dropped the usage event, else the
  number of streamed deltas that carried a token (llama-cpp-python streams one token per delta
  and reports no usage on streams). Every figure says how many requests took which source.
- **TPOT**, time per output token after the first, per request: (E2E − TTFT) / (output tokens − 1),
  for requests with more than one output token. In SLO accounting a request with one token or
  none has TPOT 0, as in vLLM.
- **ITL**, inter-token latency: every gap between two successive token deltas of a request, pooled
  over all requests; the percentiles are those of the pool. Deltas that arrive in one network read
  share its timestamp, so their gap is 0: that is what the client saw.
- **Schedule lag** (load levels): actual send − scheduled send. In open-loop (rate) mode TTFT and
  E2E are also given from the scheduled send (``*_from_scheduled_s`` = lag + the figure): what a
  user arriving on schedule waits, queueing included (no coordinated omission). A retried request
  is timed from its last attempt, so its lag includes the failed attempts.
- **Percentiles**: p50, p90, p95, p99 by linear interpolation between order statistics (numpy's
  default), with the mean; everything rounded to 6 decimals.

Where this differs from vLLM: its client starts TTFT and ITL at any chunk that has ``choices``,
so a role-only first delta or a closing delta without content counts as a token; here only
deltas that carry a token count (on llama.cpp and vLLM servers the role arrives with the first
token, so TTFT agrees; ITL here has no trailing gap to the finish chunk).

Per channel (issue 33, :mod:`stages.protocol.reasoning_timing`): reasoning ITL pools the gaps
between successive reasoning deltas, answer ITL those between answer deltas; reasoning TPOT is
(last − first reasoning token) / (reasoning tokens − 1), answer TPOT (E2E − TTFA) / (answer
tokens − 1). The figures over all channels above are unchanged by it.

Journal records carry what these need: ``ttft_s``, ``latency_s``, ``usage`` and ``token_s`` (the
arrival of every token delta, seconds after the send), ``ttfa_s`` and for a model that thought
``reasoning_token_s``; load-level records add ``scheduled_s`` and
``sent_s`` on their level's clock. Records written before ``token_s`` existed have no gaps to pool
(their ITL falls back to per-request summaries, see :mod:`stages.serving.metrics`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from stages.protocol.reasoning_timing import Channels, channels_of

DIGITS = 6
QUANTILES = (50, 90, 95, 99)


def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear-interpolated ``q``-th percentile (0–100) of ``values``; None when empty."""
    return _percentile(sorted(values), q)


def _percentile(ordered: Sequence[float], q: float) -> float | None:
    if not ordered:
        return None
    rank = (len(ordered) - 1) * q / 100
    low, high = math.floor(rank), math.ceil(rank)
    value = ordered[low] + (ordered[high] - ordered[low]) * (rank - low)
    return round(value, DIGITS)


def distribution(values: Sequence[float]) -> dict[str, Any]:
    """``{n, mean, p50, p90, p95, p99}`` of ``values`` (None figures when there are none)."""
    mean = round(math.fsum(values) / len(values), DIGITS) if values else None
    ordered = sorted(values)
    return {"n": len(values), "mean": mean, **{f"p{q}": _percentile(ordered, q) for q in QUANTILES}}


def summary(gaps: Sequence[float]) -> dict[str, Any] | None:
    """``{n, mean, p50, p99, max}`` of inter-token gaps; None for fewer than one gap."""
    if not gaps:
        return None
    return {
        "n": len(gaps),
        "mean": round(sum(gaps) / len(gaps), 6),
        "p50": percentile(gaps, 50),
        "p99": percentile(gaps, 99),
        "max": round(max(gaps), 6),
    }


@dataclass(frozen=True)
class Timing:
    """One finished request reduced to the defined figures."""

    ok: bool
    """The request succeeded (no ``error``)."""
    ttft_s: float | None = None
    latency_s: float | None = None
    output_tokens: int | None = None
    tokens_from: str | None = None
    """``usage``, ``timings`` or ``deltas``: where ``output_tokens`` came from."""
    gaps_s: list[float] = field(default_factory=list)
    """Every inter-token gap of the request, in order."""
    lag_s: float | None = None
    """Actual − scheduled send (load-level records only)."""
    channels: Channels | None = None
    """The reasoning and answer channels of a request that thought; None otherwise."""

    @property
    def ttfa_s(self) -> float | None:
        """Send → first answer token: TTFT for a model that did not think."""
        return self.ttft_s if self.channels is None else self.channels.ttfa_s

    @property
    def ttfa_from_scheduled_s(self) -> float | None:
        ttfa = self.ttfa_s
        return None if ttfa is None else ttfa + (self.lag_s or 0.0)

    @property
    def tpot_s(self) -> float | None:
        """(E2E − TTFT) / (output tokens − 1); None with one output token or fewer."""
        if self.ttft_s is None or self.latency_s is None or (self.output_tokens or 0) <= 1:
            return None
        return (self.latency_s - self.ttft_s) / (self.output_tokens - 1)  # type: ignore[operator]

    @property
    def ttft_from_scheduled_s(self) -> float | None:
        return None if self.ttft_s is None else self.ttft_s + (self.lag_s or 0.0)

    @property
    def latency_from_scheduled_s(self) -> float | None:
        return None if self.latency_s is None else self.latency_s + (self.lag_s or 0.0)


def timing(record: dict[str, Any]) -> Timing:
    """The defined figures of one journal record."""
    lag = None
    if record.get("scheduled_s") is not None and record.get("sent_s") is not None:
        lag = record["sent_s"] - record["scheduled_s"]
    if record.get("error") is not None:
        return Timing(ok=False, lag_s=lag)
    tokens = record.get("token_s")
    gaps = [b - a for a, b in zip(tokens, tokens[1:], strict=False)] if tokens else []
    usage = record.get("usage") or {}
    count: int | None
    predicted = (record.get("timings") or {}).get("predicted_n")
    if isinstance(usage.get("completion_tokens"), int):
        count, source = int(usage["completion_tokens"]), "usage"
    elif isinstance(predicted, int) and not isinstance(predicted, bool):
        count, source = predicted, "timings"  # the engine's count, the usage event lost
    elif tokens is not None:
        count, source = len(tokens), "deltas"
    elif record.get("ttft_s") is not None:  # journal from before token_s: the gap summary's n
        count, source = 1 + ((record.get("itl_s") or {}).get("n") or 0), "deltas"
    else:
        count, source = None, None
    return Timing(
        ok=True,
        ttft_s=record.get("ttft_s"),
        latency_s=record.get("latency_s"),
        output_tokens=count,
        tokens_from=source,
        gaps_s=gaps,
        lag_s=lag,
        channels=channels_of(record, count, source),
    )


class Timings:
    """Each record's :func:`timing`, computed once. A run computes them as records are journaled
    (while its senders wait on the server), so the figures after the pass do not walk every
    record again; a record not seen yet is computed when asked for. Each entry keeps its record,
    so the ``id`` it is filed under cannot be reused by another object."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[dict[str, Any], Timing]] = {}

    def add(self, record: dict[str, Any]) -> None:
        self._by_id[id(record)] = (record, timing(record))

    def of(self, record: dict[str, Any]) -> Timing:
        entry = self._by_id.get(id(record))
        if entry is not None and entry[0] is record:
            return entry[1]
        found = timing(record)
        self._by_id[id(record)] = (record, found)
        return found


def _present(values: Iterable[float | None]) -> list[float]:
    return [v for v in values if v is not None]


def latency_figures(timings: list[Timing], scheduled: bool = False) -> dict[str, Any]:
    """TTFT, TPOT, pooled ITL and E2E distributions of the successful requests; with
    ``scheduled``, also TTFT/E2E from the scheduled send and the schedule lag."""
    ok = [t for t in timings if t.ok]
    out = {
        "ttft_s": distribution(_present(t.ttft_s for t in ok)),
        "tpot_s": distribution(_present(t.tpot_s for t in ok)),
        "itl_s": distribution([gap for t in ok for gap in t.gaps_s]),
        "latency_s": distribution(_present(t.latency_s for t in ok)),
    }
    if scheduled:
        out["ttft_from_scheduled_s"] = distribution(_present(t.ttft_from_scheduled_s for t in ok))
        out["latency_from_scheduled_s"] = distribution(
            _present(t.latency_from_scheduled_s for t in ok)
        )
        lags = _present(t.lag_s for t in timings)
        peak = round(max(lags), DIGITS) if lags else None
        out["schedule_lag_s"] = {**distribution(lags), "max": peak}
    return out


def token_counts(timings: list[Timing]) -> dict[str, int]:
    """Total output tokens of the successful requests and how many requests took each source."""
    ok = [t for t in timings if t.ok]
    return {
        "total": sum(t.output_tokens or 0 for t in ok),
        "from_usage": sum(t.tokens_from == "usage" for t in ok),
        "from_timings": sum(t.tokens_from == "timings" for t in ok),
        "from_deltas": sum(t.tokens_from == "deltas" for t in ok),
    }
