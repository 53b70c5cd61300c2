"""Reading a chat-completions answer: SSE stream or plain JSON (issue 3, "The client").

A stream is fed raw byte chunks as they arrive with the arrival time of each chunk. Time to first
token is the arrival of the first delta carrying content or a tool call (a role-only first delta
is not a token); inter-token gaps are the times between successive such deltas. Several deltas
that arrive in one read share its timestamp, which is what the client really saw. The first
``system_fingerprint`` and the first ``model`` an event carries are kept: what answered.

Secrets (issue 31): every string field of an answer — text, tool calls, ``usage``, ``timings``,
``system_fingerprint``, ``model`` — is scrubbed of every form of the secrets given to the reader
once the answer is assembled (:mod:`stages.inference.scrubber`), so a key split over two events
is found whole; excerpts of what the server sent (in :class:`InvalidResponse` messages) are cut
only after they are scrubbed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from stages.inference.scrubber import excerpt, scrubber

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
    token_times: list[float] = field(default_factory=list)
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

    @property
    def complete(self) -> bool:
        """The stream ended properly: ``[DONE]`` or a finish reason."""
        return self.done or self.finish_reason is not None

    def scrubbed(self, secrets: Sequence[str]) -> Answer:
        """The answer with every form of ``secrets`` removed from every field the server sent."""
        clean = scrubber(secrets)
        if clean:
            self.output = clean(self.output)
            self.tool_calls = clean.value(self.tool_calls)
            self.finish_reason = clean.value(self.finish_reason)
            self.usage, self.timings = clean.value(self.usage), clean.value(self.timings)
            self.system_fingerprint = clean.value(self.system_fingerprint)
            self.model = clean.value(self.model)
        return self


class StreamReader:
    """Incremental SSE parser building an :class:`Answer`."""

    def __init__(self, secrets: Sequence[str] = ()) -> None:
        self.answer = Answer()
        self._secrets = secrets
        self._buffer = b""
        self._parts: list[str] = []
        self._calls: dict[int, dict[str, Any]] = {}
        self._now = 0.0

    def feed(self, chunk: bytes, now: float) -> None:
        self._now = now
        data = self._buffer + chunk if self._buffer else chunk
        lines = data.split(b"\n")
        self._buffer = lines.pop()
        for line in lines:
            if line.startswith(b"data:"):
                self._event(line[5:].strip(), now)

    def finish(self) -> Answer:
        """Flush a last line without newline and assemble the text and tool calls."""
        if self._buffer.startswith(b"data:"):
            self._event(self._buffer[5:].strip(), self._now)
        self._buffer = b""
        answer = self.answer
        answer.output = "".join(self._parts)
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
            token = False
            content = delta.get("content")
            if content:
                self._parts.append(content)
                token = True
            for call in delta.get("tool_calls") or ():
                self._merge_call(call)
                token = True
            if token:
                if answer.first_token_at is None:
                    answer.first_token_at = now
                answer.token_times.append(now)
            if choice.get("finish_reason"):
                answer.finish_reason = choice["finish_reason"]

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
    return Answer(
        output=message.get("content") or "",
        tool_calls=calls,
        finish_reason=choice.get("finish_reason"),
        usage=obj.get("usage"),
        timings=obj["timings"] if isinstance(obj.get("timings"), dict) else None,
        done=True,
        events=1,
        system_fingerprint=str(fingerprint) if fingerprint else None,
        model=str(obj["model"]) if obj.get("model") else None,
    ).scrubbed(secrets)
