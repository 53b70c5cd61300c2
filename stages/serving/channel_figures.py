"""The two clocks and the two channels of a pass or a load level (issue 33).

Added to a pass's (or level's) figures only when at least one of its successful requests
thought, so the figures of a model that does not think stay exactly what they were (its TTFA is
its TTFT, and every token is an answer token). Definitions: :mod:`stages.inference.definitions`
and :mod:`stages.protocol.reasoning_timing`; docs/serving.md#reasoning-and-answer-channels.

- ``ttfa_s`` (and for load levels ``ttfa_from_scheduled_s``): time to the first answer token over
  the successful requests that had one, beside ``ttft_s``, the first token of any channel;
- ``channels.requests_thinking``: successful requests with a reasoning channel;
- ``channels.reasoning``: ITL pooled over reasoning gaps, TPOT per thinking request, and
  ``tokens`` (``total``, and how many requests took each source: ``from_usage``,
  ``from_tokenizer``, ``approximate``);
- ``channels.answer``: ITL pooled over answer gaps and TPOT per request, over every successful
  request (one that did not think has only answer tokens), and ``tokens.total``.
"""

from __future__ import annotations

from typing import Any

from stages.inference.definitions import Timing, distribution


def _present(values: Any) -> list[float]:
    return [v for v in values if v is not None]


def _answer_gaps(t: Timing) -> list[float]:
    return t.gaps_s if t.channels is None else t.channels.answer_gaps_s


def _answer_tpot(t: Timing) -> float | None:
    return t.tpot_s if t.channels is None else t.channels.answer_tpot_s


def _answer_tokens(t: Timing) -> int:
    if t.channels is None:
        return t.output_tokens or 0
    return t.channels.answer_tokens or 0


def channel_figures(timings: list[Timing], scheduled: bool = False) -> dict[str, Any]:
    """``{ttfa_s, [ttfa_from_scheduled_s], channels}`` of the successful requests; ``{}`` when
    none of them thought."""
    ok = [t for t in timings if t.ok]
    thinking = [t.channels for t in ok if t.channels is not None]
    if not thinking:
        return {}
    out: dict[str, Any] = {"ttfa_s": distribution(_present(t.ttfa_s for t in ok))}
    if scheduled:
        out["ttfa_from_scheduled_s"] = distribution(_present(t.ttfa_from_scheduled_s for t in ok))
    sources = [c.reasoning_from for c in thinking]
    out["channels"] = {
        "requests_thinking": len(thinking),
        "reasoning": {
            "itl_s": distribution([g for c in thinking for g in c.reasoning_gaps_s]),
            "tpot_s": distribution(_present(c.reasoning_tpot_s for c in thinking)),
            "tokens": {
                "total": sum(c.reasoning_tokens or 0 for c in thinking),
                "from_usage": sources.count("usage"),
                "from_tokenizer": sources.count("tokenizer"),
                "approximate": sources.count("approximate"),
            },
        },
        "answer": {
            "itl_s": distribution([g for t in ok for g in _answer_gaps(t)]),
            "tpot_s": distribution(_present(_answer_tpot(t) for t in ok)),
            "tokens": {"total": sum(_answer_tokens(t) for t in ok)},
        },
    }
    return out
