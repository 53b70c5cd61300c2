"""Which channel a streamed token belongs to: the model's reasoning or its answer (issue 33).

Engines send reasoning in one of three forms, and :mod:`stages.protocol.sse` reads all three:

- ``delta.reasoning_content`` (vLLM, SGLang, llama.cpp's server with ``--reasoning-format``):
  a field of its own beside ``content``;
- ``delta.reasoning`` (OpenRouter and others): the same under another name;
- ``<think>…</think>`` inside ``content`` (an engine that passes the model's text through).

The first two are named by the field; the third is found by :class:`ThinkTags`, which follows
the content as it arrives. A think block counts as reasoning only when it leads the answer
(after whitespace), which is the form reasoning models emit and the block extraction drops
first (:func:`stages.scoring.extract.strip_reasoning`). A tag may be split over deltas, so a
delta whose text could still be the start of ``<think>`` is held until the next one decides;
the delta that closes the block is reasoning unless text follows the tag in it.
"""

from __future__ import annotations

from collections.abc import Callable

OPEN, CLOSE = "<think>", "</think>"
REASONING, ANSWER = "reasoning", "answer"
#: Names of the reasoning forms, as records give them in ``reasoning_channel``.
FIELDS = ("reasoning_content", "reasoning")
TAGS = "think"

Emit = Callable[[str, float], None]


class ThinkTags:
    """Content deltas sorted into reasoning and answer tokens as they arrive (``emit`` is
    called with the channel and the arrival time of every token, in order)."""

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        self._thinking_now = False  # inside the leading block, before its closing tag
        self._head = ""  # content while undecided; after the opening tag, the text seen since
        self._held: list[float] = []
        self.thought = False
        """A leading think block was opened."""
        self.answering = False
        """The answer has begun: every further delta is an answer token."""

    def feed(self, text: str, now: float) -> None:
        if self.answering:
            self._emit(ANSWER, now)
        elif self._thinking_now:
            self._thinking(text, now)
        else:
            self._start(text, now)

    def _start(self, text: str, now: float) -> None:
        self._head += text
        lead = self._head.lstrip()
        if lead.startswith(OPEN):
            self.thought, self._thinking_now = True, True
            self._release(REASONING)
            rest, self._head = lead[len(OPEN) :], ""
            self._thinking(rest, now)
        elif OPEN.startswith(lead):  # whitespace, or a piece of the opening tag: wait
            self._held.append(now)
        else:
            self.answering = True
            self._release(ANSWER)
            self._emit(ANSWER, now)

    def _thinking(self, text: str, now: float) -> None:
        seen = self._head + text
        end = seen.find(CLOSE)
        if end < 0:
            self._head = seen[-(len(CLOSE) - 1) :]  # enough to find a tag split over deltas
            self._emit(REASONING, now)
            return
        self.answering, self._thinking_now, self._head = True, False, ""
        self._emit(ANSWER if seen[end + len(CLOSE) :] else REASONING, now)

    def _release(self, channel: str) -> None:
        for held in self._held:
            self._emit(channel, held)
        self._held = []

    def settle(self, channel: str) -> None:
        """A token of ``channel`` came outside the content (a reasoning field, a tool call):
        content deltas held before it are of the same channel, and are timed before it."""
        if self._held:
            self._release(channel)

    def close(self) -> None:
        """The stream ended: held deltas (whitespace, or the start of a tag never finished)
        are answer text."""
        self._release(ANSWER)


def leading_block(text: str) -> str | None:
    """The text of a leading think block (to its end, or the end of ``text`` when it is never
    closed); None when ``text`` does not open with one."""
    lead = text.lstrip()
    if not lead.startswith(OPEN):
        return None
    body = lead[len(OPEN) :]
    end = body.find(CLOSE)
    return body if end < 0 else body[:end]
