"""Reading a chat-completions answer: SSE stream or plain JSON (issue 3, "The client").

A stream is fed raw byte chunks as they arrive with the arrival time of each chunk. A token is a
delta carrying content, a tool call or reasoning (a role-only first delta is not one); the
arrival of the first is the time to first token, inter-token gaps are the times between
successive ones. Several deltas that arrive in one read share its timestamp, which is what the
client really saw. The first ``system_fingerprint`` and the first ``model`` an event carries are
kept: what answered.

Reasoning (issue 33) is read in the three forms :mod:`stages.protocol.channels` names; each
token is also filed under its channel, so the first *answer* token has a time of its own. Text
of the ``reasoning_content``/``reasoning`` fields is kept apart (``Answer.reasoning``) and never
enters ``output``; think tags inside the content stay in ``output`` as the server sent them
(scoring drops them).

Secrets (issue 31): every string field of an answer — text, tool calls, ``usage``, ``timings``,
``system_fingerprint``, ``model`` — is scrubbed of every form of the secrets given to the reader
once the answer is assembled (:mod:`stages.network.scrubber`), so a key split over two events
is found whole; excerpts of what the server sent (in :class:`InvalidResponse` messages) are cut
only after they are scrubbed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from stages.network.scrubber import excerpt, scrubber
from stages.protocol.channels import ANSWER, FIELDS, REASONING, TAGS, ThinkTags, leading_block

_DECODE = json.JSONDecoder().decode


def _shown(data: bytes, limit: int, secrets: Sequence[str], as_repr: bool = True) -> str:
    """The first ``limit`` bytes of ``data`` (as ``repr``, or as text), secrets scrubbed before
    the cut."""
    return excerpt(data, limit, secrets, as_repr)


class InvalidResponse(Exception):
    """The server answered something that is not a chat completion."""


@dataclass
class Answer:
    """What the model produced, accumulated from a stream or read from one JSON body."""

    output: str = ""
    tool_calls: list[dict[str, Any]] | None = None
    finish_reason: str | None = None
    usage: dict[str, Any] | None = None
    timings: dict[str, Any] | None = None
    """llama.cpp's own per-request ``timings`` (prompt and predicted tokens and milliseconds,
    cached prompt tokens), sent with the last event of a stream or in the completion body."""
    first_token_at: float | None = None
    """Arrival of the first token of any channel, reasoning or answer."""
    token_times: list[float] = field(default_factory=list)
    """Arrival of every token delta, any channel."""
    first_answer_at: float | None = None
    """Arrival of the first answer token (content or tool call outside a think block)."""
    reasoning_times: list[float] = field(default_factory=list)
    """Arrival of every reasoning token delta (a subset of ``token_times``)."""
    reasoning: str = ""
    """Text of the ``reasoning_content``/``reasoning`` field (not of think tags in content)."""
    reasoning_channel: str | None = None
    """Where reasoning came: ``reasoning_content``, ``reasoning`` or ``think`` (tags in the
    content); None when the model did not think."""
    done: bool = False
    """``data: [DONE]`` was seen."""
    events: int = 0
    """Number of data events received (0 on an empty stream)."""
    system_fingerprint: str | None = None
    """The backend configuration the server says answered (OpenAI ``system_fingerprint``)."""
    model: str | None = None
    """The model the server says answered (the response's ``model`` field), None if unnamed."""
    stream_end: str | None = None
    """How a stream ended: ``done`` (``[DONE]``), ``finish`` (a finish reason, no ``[DONE]``),
    ``eof`` (the body ended after content with neither); None for a plain JSON answer."""

    def token(self, channel: str, now: float) -> None:
        """A token of ``channel`` arrived at ``now``."""
        if self.first_token_at is None:
            self.first_token_at = now
        self.token_times.append(now)
        if channel == ANSWER:
            if self.first_answer_at is None:
                self.first_answer_at = now
        else:
            self.reasoning_times.append(now)

    @property
    def thought_text(self) -> str | None:
        """The reasoning text, whichever form it came in; None when the model did not think."""
        if self.reasoning_channel == TAGS:
            return leading_block(self.output)
        return self.reasoning if self.reasoning_channel else None

    @property
    def complete(self) -> bool:
        """The stream ended properly: ``[DONE]`` or a finish reason."""
        return self.done or self.finish_reason is not None

    def scrubbed(self, secrets: Sequence[str]) -> Answer:
        """The answer with every form of ``secrets`` removed from every field the server sent."""
        clean = scrubber(secrets)
        if clean:
            self.output = clean(self.output)
            self.reasoning = clean(self.reasoning)
            self.tool_calls = clean.value(self.tool_calls)
            self.finish_reason = clean.value(self.finish_reason)
            self.usage, self.timings = clean.value(self.usage), clean.value(self.timings)
            self.system_fingerprint = clean.value(self.system_fingerprint)
            self.model = clean.value(self.model)
        return self


class DataLines:
    """The SSE framing both stream readers share (chat here, the Responses API's in
    :mod:`stages.protocol.responses_stream`): raw chunks in, each ``data:`` payload handed to
    :meth:`_event` with the arrival time of the chunk that completed it."""

    def __init__(self) -> None:
        self._buffer = b""
        self._now = 0.0

    def feed(self, chunk: bytes, now: float) -> None:
        self._now = now
        data = self._buffer + chunk if self._buffer else chunk
        lines = data.split(b"\n")
        self._buffer = lines.pop()
        for line in lines:
            if line.startswith(b"data:"):
                self._event(line[5:].strip(), now)

    def _flush(self) -> None:
        """A last ``data:`` line the body ended without a newline after."""
        if self._buffer.startswith(b"data:"):
            self._event(self._buffer[5:].strip(), self._now)
        self._buffer = b""

    def _event(self, payload: bytes, now: float) -> None:
        raise NotImplementedError


class StreamReader(DataLines):
    """Incremental SSE parser building an :class:`Answer`."""

    def __init__(self, secrets: Sequence[str] = ()) -> None:
        super().__init__()
        self.answer = Answer()
        self._secrets = secrets
        self._parts: list[str] = []
        self._thinking: list[str] = []
        self._tags = ThinkTags(self.answer.token)
        self._calls: dict[int, dict[str, Any]] = {}

    def finish(self) -> Answer:
        """Flush a last line without newline and assemble the text and tool calls."""
        self._flush()
        answer = self.answer
        answer.output = "".join(self._parts)
        answer.reasoning = "".join(self._thinking)
        self._tags.close()
        if answer.reasoning_channel is None and self._tags.thought:
            answer.reasoning_channel = TAGS
        answer.stream_end = "done" if answer.done else "finish" if answer.finish_reason else None
        if self._calls:
            answer.tool_calls = [self._calls[i] for i in sorted(self._calls)]
        return answer.scrubbed(self._secrets)

    def _event(self, payload: bytes, now: float) -> None:
        answer = self.answer
        if payload == b"[DONE]":
            answer.done = True
            return
        if not payload:
            return
        try:
            if payload[:1] == b"{" and payload[1:2] != b"\x00":
                # What json.loads does for such bytes (they can only be UTF-8), minus its
                # encoding sniffing and argument handling: ~40 % of its cost on small events.
                event = _DECODE(payload.decode("utf-8", "surrogatepass"))
            else:
                event = json.loads(payload)
        except ValueError as exc:
            shown = _shown(payload, 200, self._secrets)
            raise InvalidResponse(f"undecodable SSE event: {shown}") from exc
        if not isinstance(event, dict):
            raise InvalidResponse(
                f"SSE event is not an object: {_shown(payload, 200, self._secrets)}"
            )
        if event.get("error"):
            error = _shown(json.dumps(event["error"]).encode(), 300, self._secrets, as_repr=False)
            raise InvalidResponse(f"error event in stream: {error}")
        answer.events += 1
        if answer.system_fingerprint is None and event.get("system_fingerprint"):
            answer.system_fingerprint = str(event["system_fingerprint"])
        if answer.model is None and event.get("model"):
            answer.model = str(event["model"])
        if event.get("usage"):
            answer.usage = event["usage"]
        if isinstance(event.get("timings"), dict):
            answer.timings = event["timings"]
        for choice in event.get("choices") or ():
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            # membership first: most deltas carry content only, and this runs for every one
            thought = ("reasoning_content" in delta or "reasoning" in delta) and self._reasoning(
                delta
            )
            content = delta.get("content")
            calls = delta.get("tool_calls") or ()
            for call in calls:
                self._merge_call(call)
            if content and not calls:
                self._parts.append(content)
                if self._tags.answering:  # the common case, without a call more
                    answer.token(ANSWER, now)
                else:
                    self._tags.feed(content, now)
            elif calls or thought:  # a tool call is answer, whatever the text beside it
                if content:
                    self._parts.append(content)
                channel = ANSWER if calls else REASONING
                self._tags.settle(channel)  # held whitespace goes with what follows it
                answer.token(channel, now)
            if choice.get("finish_reason"):
                answer.finish_reason = choice["finish_reason"]

    def _reasoning(self, delta: dict[str, Any]) -> bool:
        """Keep a delta's reasoning text (either field); whether it carried any."""
        for name in FIELDS:
            text = delta.get(name)
            if isinstance(text, str) and text:
                self._thinking.append(text)
                self.answer.reasoning_channel = self.answer.reasoning_channel or name
                return True
        return False

    def _merge_call(self, delta: dict[str, Any]) -> None:
        """Tool calls arrive in pieces keyed by index: the name once, arguments in fragments."""
        index = delta.get("index", len(self._calls))
        call = self._calls.setdefault(
            index, {"id": None, "type": "function", "function": {"name": "", "arguments": ""}}
        )
        if delta.get("id"):
            call["id"] = delta["id"]
        function = delta.get("function") or {}
        call["function"]["name"] += function.get("name") or ""
        call["function"]["arguments"] += function.get("arguments") or ""


def parse_completion(body: bytes, secrets: Sequence[str] = ()) -> Answer:
    """A non-streamed ``chat.completion`` body."""
    try:
        obj = json.loads(body)
        message = obj["choices"][0]["message"]
        choice = obj["choices"][0]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise InvalidResponse(f"not a chat completion: {_shown(body, 300, secrets)}") from exc
    calls = message.get("tool_calls") or None
    fingerprint = obj.get("system_fingerprint")
    output = message.get("content") or ""
    field_name = next((f for f in FIELDS if isinstance(message.get(f), str) and message[f]), None)
    tags = TAGS if leading_block(output) is not None else None
    return Answer(
        output=output,
        reasoning=message[field_name] if field_name else "",
        reasoning_channel=field_name or tags,
        tool_calls=calls,
        finish_reason=choice.get("finish_reason"),
        usage=obj.get("usage"),
        timings=obj["timings"] if isinstance(obj.get("timings"), dict) else None,
        done=True,
        events=1,
        system_fingerprint=str(fingerprint) if fingerprint else None,
        model=str(obj["model"]) if obj.get("model") else None,
    ).scrubbed(secrets)
