"""Reading a Responses-API answer (``model.api: responses``, issue 33): its event stream or its
JSON body, into the same :class:`~stages.inference.sse.Answer` the chat reader builds, so the
journal, scoring and metrics do not depend on the protocol that asked.

Event names and shapes are OpenAI's ("Responses streaming events",
https://developers.openai.com/api/reference/resources/responses/streaming-events): every
``data:`` line is one JSON event whose ``type`` names it (the SSE ``event:`` line repeats it and
is not needed).

- ``response.output_text.delta``: answer text (``delta``); each is a token arrival, as a chat
  content delta is.
- ``response.output_item.added`` of a ``function_call`` item (its ``call_id`` and ``name``) and
  ``response.function_call_arguments.delta`` (argument text, by ``output_index``): a tool call,
  each a token arrival as chat's tool-call deltas are; ``...arguments.done`` and
  ``response.output_item.done`` carry the whole call, which then stands.
- ``response.reasoning_text.delta`` and ``response.reasoning_summary_text.delta``: the reasoning
  channel, kept apart (:attr:`ResponsesReader.reasoning`): as with a chat stream's reasoning
  fields, they are not answer tokens.
- ``response.completed`` / ``response.incomplete``: the final response — its ``usage``, its
  ``status`` and ``incomplete_details.reason`` (the finish reason) — and the end of the stream,
  which has no ``[DONE]``.
- ``error`` and ``response.failed`` (``response.error``): the answer failed
  (:class:`~stages.inference.sse.InvalidResponse`, as a chat stream's error event).

The finish reason is said in chat's words (``stop``; ``tool_calls`` when the output holds a
function call; ``length`` when the response is incomplete for ``max_output_tokens``, or says
``completed`` although its ``output_tokens`` reached the request's ``max_output_tokens``, as
llama-server does) and usage under chat's names (:func:`chat_usage`), so every reader of a record
reads both protocols alike.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from stages.inference.scrubber import excerpt
from stages.inference.sse import Answer, InvalidResponse

_INCOMPLETE = {"max_output_tokens": "length", "content_filter": "content_filter"}
_DETAILS = {
    "input_tokens_details": ("prompt_tokens_details", {"cached_tokens": "cached_tokens"}),
    "output_tokens_details": (
        "completion_tokens_details",
        {"reasoning_tokens": "reasoning_tokens"},
    ),
}
_COUNTS = {"input_tokens": "prompt_tokens", "output_tokens": "completion_tokens"}


def chat_usage(usage: Any) -> dict[str, Any] | None:
    """A Responses ``usage`` under chat-completions names: ``input_tokens`` is
    ``prompt_tokens``, ``output_tokens`` ``completion_tokens``, cached and reasoning tokens go
    to ``prompt_tokens_details`` and ``completion_tokens_details``; other keys stay as sent."""
    if not isinstance(usage, dict):
        return None
    out: dict[str, Any] = {}
    for key, value in usage.items():
        if key in _COUNTS:
            out[_COUNTS[key]] = value
        elif key in _DETAILS and isinstance(value, dict):
            name, fields = _DETAILS[key]
            out[name] = {fields.get(k, k): v for k, v in value.items()}
        else:
            out[key] = value
    return out


def finish_reason(response: dict[str, Any], calls: bool, limit: int | None = None) -> str | None:
    """The chat finish reason of a final response object. ``limit`` is the request's
    ``max_output_tokens``: a response said ``completed`` whose usage reached it ran out
    (llama-server 0c1e5709 never says ``incomplete``: measured, docs/running.md)."""
    status = response.get("status")
    used = (response.get("usage") or {}).get("output_tokens")
    if status == "completed" and limit is not None and isinstance(used, int) and used >= limit:
        return "length"
    if status == "completed":
        return "tool_calls" if calls else "stop"
    if status == "incomplete":
        reason = (response.get("incomplete_details") or {}).get("reason")
        return _INCOMPLETE.get(str(reason), str(reason) if reason else "length")
    return str(status) if status else None


def _output(response: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """The answer text and tool calls (chat shape) of a final response's ``output`` items."""
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    for item in response.get("output") or ():
        if not isinstance(item, dict):
            continue
        if item.get("type") == "message":
            for part in item.get("content") or ():
                if isinstance(part, dict) and part.get("type") == "output_text":
                    texts.append(str(part.get("text") or ""))
        elif item.get("type") == "function_call":
            calls.append(_call(item))
    return "".join(texts), calls


def _call(item: dict[str, Any]) -> dict[str, Any]:
    """A ``function_call`` item as a chat tool call."""
    function = {"name": item.get("name") or "", "arguments": item.get("arguments") or ""}
    return {"id": item.get("call_id"), "type": "function", "function": function}


def _failure(event: dict[str, Any], secrets: Sequence[str]) -> InvalidResponse:
    """The error an ``error`` or ``response.failed`` event reports."""
    error = event if event.get("type") == "error" else (event.get("response") or {}).get("error")
    shown = excerpt(json.dumps(error), 300, secrets, as_repr=False)
    return InvalidResponse(f"error event in stream ({event.get('type')}): {shown}")


def _fill(answer: Answer, response: dict[str, Any], calls: bool, limit: int | None) -> None:
    """What a final response object tells: usage, finish reason, model, timings."""
    answer.usage = chat_usage(response.get("usage")) or answer.usage
    answer.finish_reason = finish_reason(response, calls, limit)
    if answer.model is None and response.get("model"):
        answer.model = str(response["model"])
    if isinstance(response.get("timings"), dict):
        answer.timings = response["timings"]


class ResponsesReader:
    """Incremental reader of a Responses-API event stream building an :class:`Answer`; fed as
    :class:`~stages.inference.sse.StreamReader` is (raw chunks, each with its arrival time)."""

    def __init__(self, secrets: Sequence[str] = (), limit: int | None = None) -> None:
        self.answer = Answer()
        self._secrets = secrets
        self._limit = limit
        """The request's ``max_output_tokens`` (:func:`finish_reason`)."""
        self._buffer = b""
        self._parts: list[str] = []
        self._reasoning: list[str] = []
        self.reasoning_times: list[float] = []
        """When each reasoning delta arrived (the reasoning channel's own clock)."""
        self._calls: dict[int, dict[str, Any]] = {}
        self._final: dict[str, Any] | None = None
        self._now = 0.0

    @property
    def reasoning(self) -> str:
        """The reasoning text the stream carried (reasoning and summary deltas)."""
        return "".join(self._reasoning)

    def feed(self, chunk: bytes, now: float) -> None:
        self._now = now
        lines = (self._buffer + chunk).split(b"\n")
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
        if self._calls:
            answer.tool_calls = [self._calls[i] for i in sorted(self._calls)]
        if self._final is not None and not self._parts and not self._calls:
            text, calls = _output(self._final)  # a server that sent only the final response
            answer.output, answer.tool_calls = text, calls or None
        answer.stream_end = "done" if answer.done else "finish" if answer.finish_reason else None
        return answer.scrubbed(self._secrets)

    def _token(self, now: float) -> None:
        if self.answer.first_token_at is None:
            self.answer.first_token_at = now
        self.answer.token_times.append(now)

    def _event(self, payload: bytes, now: float) -> None:
        if payload == b"[DONE]":  # not in OpenAI's stream; some servers add it
            self.answer.done = True
            return
        if not payload:
            return
        try:
            event = json.loads(payload)
        except ValueError as exc:
            shown = excerpt(payload, 200, self._secrets, as_repr=True)
            raise InvalidResponse(f"undecodable SSE event: {shown}") from exc
        if not isinstance(event, dict):
            shown = excerpt(payload, 200, self._secrets, as_repr=True)
            raise InvalidResponse(f"SSE event is not an object: {shown}")
        kind = event.get("type")
        if kind in ("error", "response.failed"):
            raise _failure(event, self._secrets)
        answer = self.answer
        answer.events += 1
        if kind == "response.output_text.delta" and event.get("delta"):
            self._parts.append(str(event["delta"]))
            self._token(now)
        elif kind in ("response.reasoning_text.delta", "response.reasoning_summary_text.delta"):
            self._reasoning.append(str(event.get("delta") or ""))
            self.reasoning_times.append(now)
        elif kind == "response.output_item.added" and _is_call(event.get("item")):
            self._calls[int(event.get("output_index", len(self._calls)))] = _call(event["item"])
            self._token(now)
        elif kind == "response.function_call_arguments.delta":
            call = self._calls.setdefault(int(event.get("output_index", 0)), _call({}))
            call["function"]["arguments"] += str(event.get("delta") or "")
            self._token(now)
        elif kind == "response.function_call_arguments.done" and "arguments" in event:
            call = self._calls.setdefault(int(event.get("output_index", 0)), _call({}))
            call["function"]["arguments"] = str(event["arguments"])
        elif kind == "response.output_item.done" and _is_call(event.get("item")):
            self._calls[int(event.get("output_index", 0))] = _call(event["item"])
        elif kind in ("response.created", "response.in_progress"):
            model = (event.get("response") or {}).get("model")
            if answer.model is None and model:
                answer.model = str(model)
        elif kind in ("response.completed", "response.incomplete"):
            final = event.get("response") or {}
            self._final = final
            _fill(answer, final, bool(self._calls) or bool(_output(final)[1]), self._limit)
            answer.done = True


def _is_call(item: Any) -> bool:
    return isinstance(item, dict) and item.get("type") == "function_call"


def parse_response(body: bytes, secrets: Sequence[str] = (), limit: int | None = None) -> Answer:
    """A non-streamed Responses-API body (a ``response`` object) answering a request for at
    most ``limit`` output tokens."""
    try:
        obj = json.loads(body)
        output = obj["output"]
        if not isinstance(output, list):
            raise TypeError("output is not a list")
    except (ValueError, KeyError, TypeError) as exc:
        shown = excerpt(body, 300, secrets, as_repr=True)
        raise InvalidResponse(f"not a Responses-API response: {shown}") from exc
    if obj.get("status") == "failed" or obj.get("error"):
        raise _failure({"type": "response.failed", "response": obj}, secrets)
    text, calls = _output(obj)
    answer = Answer(output=text, tool_calls=calls or None, done=True, events=1)
    _fill(answer, obj, bool(calls), limit)
    return answer.scrubbed(secrets)
