""" "Exhausted while thinking" (issue 33): a finished answer that ran out of its budget before
the model said anything but its reasoning. It is an outcome of its own, told apart from a wrong
answer (the model answered, badly) and from a failed request (nothing usable came back).

The rule, decided here and nowhere else, on one journal record:

* a failed request (``error`` not null) is a failure, never exhausted;
* a record with a tool call answered (a tool call is its answer), never exhausted;
* otherwise it is exhausted when its *answer text* is empty — the content with every ``<think>``
  block dropped, an unterminated leading one included (extraction step 1,
  :func:`stages.scoring.extract.strip_reasoning`), then whitespace stripped — and either the
  engine stopped it for length (``finish_reason: "length"``) or the content's leading ``<think>``
  block was never closed (whatever the finish reason: some servers report ``stop`` when the
  thinking budget ran out).

Reasoning an engine sends in a channel of its own (``reasoning_content``) is not in ``output``:
an empty ``output`` stopped for length is exhausted. A truncated answer that did give text
(``<think>…</think>The answer is``, finish reason ``length``) is not exhausted: the scorer judges
what it said. A closed think block and nothing after it, finished with ``stop``, is a wrong
(empty) answer: the model chose to stop.

The reason is one of :data:`REASONS`: ``length`` (the finish reason says so), ``open_think``
(only the open think block says so) or ``length_open_think`` (both).

An exhausted record is never correct, under either reading. Accuracy keeps its denominator (every
binary record, as for failed requests): a revision that runs out more often must not look more
accurate for it. ``metrics/<w>.json`` counts the exhausted records apart (:func:`block`), so
that n = correct + wrong answers + failed + exhausted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from stages.scoring.extract import strip_reasoning, think_left_open
from stages.scoring.metrics import ScoredRecord

#: Version of the rule, shown in ``metrics/<w>.json`` beside the count.
RULE = "exhausted-1"
LENGTH, OPEN_THINK, BOTH = "length", "open_think", "length_open_think"
REASONS = (LENGTH, OPEN_THINK, BOTH)


def answer_text(output: str) -> str:
    """What is left of ``output`` once its thinking is removed, stripped of whitespace."""
    return strip_reasoning(output).strip()


def exhaustion(output: str, finish_reason: str | None, tool_calls: bool = False) -> str | None:
    """The reason a finished answer ran out while thinking (:data:`REASONS`), else None."""
    if tool_calls or answer_text(output):
        return None
    by_length = finish_reason == "length"
    left_open = think_left_open(output)
    if by_length and left_open:
        return BOTH
    return LENGTH if by_length else OPEN_THINK if left_open else None


def record_exhaustion(record: Mapping[str, Any] | None) -> str | None:
    """:func:`exhaustion` of one journal record; None for a failed request or no record."""
    if record is None or record.get("error"):
        return None
    output = record.get("output")
    finish = record.get("finish_reason")
    return exhaustion(
        output if isinstance(output, str) else "",
        finish if isinstance(finish, str) else None,
        bool(record.get("tool_calls")),
    )


def why(reason: str) -> str:
    """The one-line explanation a scored record carries."""
    said = {
        LENGTH: "finish_reason length",
        OPEN_THINK: "its <think> block never closed",
        BOTH: "finish_reason length inside an unclosed <think> block",
    }[reason]
    return f"exhausted while thinking: no answer text ({said})"


def block(records: Iterable[ScoredRecord]) -> dict[str, Any] | None:
    """``metrics/<w>.json`` ``exhausted``: ``{n, count, share, records: {record key: reason}}``
    over every record of the workload (each repeat, failed ones included); None when no record
    ran out, so that the metrics of a run that never did keep their bytes."""
    chosen = list(records)
    ran_out = {r.key: r.exhausted for r in chosen if r.exhausted is not None}
    if not ran_out:
        return None
    n = len(chosen)
    return {
        "n": n,
        "count": len(ran_out),
        "share": round(len(ran_out) / n, 6),
        "records": dict(sorted(ran_out.items())),
    }
