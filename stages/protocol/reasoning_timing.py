"""A thinking request's two channels, from its journal record (issue 33).

A record of a model that thought carries ``reasoning_channel`` (the form the reasoning came in,
:mod:`stages.protocol.channels`), ``ttfa_s`` (the first answer token, null when none came),
``reasoning_token_s`` (the arrival of every reasoning delta, a subset of ``token_s``) and, for
the ``reasoning_content``/``reasoning`` forms, the ``reasoning`` text. The answer channel's
arrivals are ``token_s`` without the reasoning ones.

Reasoning tokens are counted, in this order of preference: the engine's own count
(``usage.completion_tokens_details.reasoning_tokens``); the engine's tokenizer on the reasoning
text (``reasoning_tokens`` put on the record by :mod:`stages.inference.tokenize`); else an
approximation — the number of reasoning deltas of a stream (engines stream one token a delta
when they are not batching deltas), or characters / 4 of the text of an answer that was not
streamed. Answer tokens are the engine's completion tokens minus the reasoning tokens when the
engine reported a usage (its completion tokens count both), else the answer deltas.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from stages.protocol.channels import TAGS, leading_block

#: Sources of a reasoning token count, as the figures name them.
SOURCES = ("usage", "tokenizer", "approximate")


@dataclass(frozen=True)
class Channels:
    """The reasoning and answer channels of one successful request that thought."""

    form: str | None
    """``reasoning_content``, ``reasoning``, ``think``; None when the engine reported reasoning
    tokens but sent no reasoning text (a hosted model that hides its thinking)."""
    ttfa_s: float | None
    """Send → first answer token; None when no answer token came."""
    latency_s: float | None
    reasoning_s: list[float] = field(default_factory=list)
    """Arrival of every reasoning token, seconds after the send."""
    answer_s: list[float] = field(default_factory=list)
    """Arrival of every answer token, seconds after the send."""
    reasoning_tokens: int | None = None
    reasoning_from: str | None = None
    """``usage``, ``tokenizer`` or ``approximate``: where ``reasoning_tokens`` came from."""
    answer_tokens: int | None = None

    @property
    def reasoning_gaps_s(self) -> list[float]:
        return _gaps(self.reasoning_s)

    @property
    def answer_gaps_s(self) -> list[float]:
        return _gaps(self.answer_s)

    @property
    def reasoning_tpot_s(self) -> float | None:
        """(last − first reasoning token) / (reasoning tokens − 1)."""
        n, times = self.reasoning_tokens or 0, self.reasoning_s
        return (times[-1] - times[0]) / (n - 1) if n > 1 and times else None

    @property
    def answer_tpot_s(self) -> float | None:
        """(E2E − TTFA) / (answer tokens − 1), as TPOT is for the whole answer."""
        n = self.answer_tokens or 0
        if self.ttfa_s is None or self.latency_s is None or n <= 1:
            return None
        return (self.latency_s - self.ttfa_s) / (n - 1)


def _gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in zip(times, times[1:], strict=False)]


def _reported(usage: dict[str, Any]) -> int | None:
    details = usage.get("completion_tokens_details")
    value = details.get("reasoning_tokens") if isinstance(details, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def reasoning_text(record: dict[str, Any]) -> str | None:
    """The reasoning text of a record, whichever form it came in (None: none)."""
    if record.get("reasoning_channel") == TAGS:
        return leading_block(record.get("output") or "")
    return record.get("reasoning") or None


def _count(record: dict[str, Any], reported: int | None) -> tuple[int | None, str | None]:
    if reported is not None:
        return reported, "usage"
    counted = record.get("reasoning_tokens")
    if isinstance(counted, int):
        return counted, "tokenizer"
    if record.get("reasoning_token_s"):
        return len(record["reasoning_token_s"]), "approximate"
    text = reasoning_text(record)
    return (math.ceil(len(text) / 4), "approximate") if text else (None, None)


def channels_of(
    record: dict[str, Any], output_tokens: int | None, tokens_from: str | None
) -> Channels | None:
    """The channels of a successful record; None for a model that did not think (no reasoning
    came and the engine reported no reasoning token)."""
    usage = record.get("usage")
    reported = _reported(usage) if isinstance(usage, dict) else None
    form = record.get("reasoning_channel")
    if form is None and not reported:
        return None
    reasoning = list(record.get("reasoning_token_s") or ())
    left = Counter(reasoning)
    answer = []
    for t in record.get("token_s") or ():
        if left[t] > 0:
            left[t] -= 1
        else:
            answer.append(t)
    count, source = _count(record, reported)
    if tokens_from == "usage" and output_tokens is not None and count is not None:
        answer_tokens: int | None = max(0, output_tokens - count)
    else:
        answer_tokens = len(answer) if record.get("token_s") is not None else None
    return Channels(
        form=form,
        ttfa_s=record.get("ttfa_s", record.get("ttft_s")),
        latency_s=record.get("latency_s"),
        reasoning_s=reasoning,
        answer_s=answer,
        reasoning_tokens=count,
        reasoning_from=source,
        answer_tokens=answer_tokens,
    )
