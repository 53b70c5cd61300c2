"""Reading a Responses-API event stream (``model.api: responses``, issue 33) into the same
:class:`~stages.protocol.sse.Answer` the chat reader builds, so the journal, scoring and
metrics do not depend on the protocol that asked.

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
  (:class:`~stages.protocol.sse.InvalidResponse`, as a chat stream's error event).

The final response object is read by :mod:`stages.protocol.responses_answer` (finish reason in
chat's words, usage under chat's names), which also reads a non-streamed body.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from stages.network.scrubber import excerpt
from stages.protocol.channels import ANSWER, REASONING
from stages.protocol.responses_answer import chat_call, failure, fill, is_call, output_of
from stages.protocol.sse import Answer, DataLines, InvalidResponse


class ResponsesReader(DataLines):
    """Incremental reader of a Responses-API event stream building an :class:`Answer`; fed as
    :class:`~stages.protocol.sse.StreamReader` is (raw chunks, each with its arrival time)."""

    def __init__(self, secrets: Sequence[str] = (), limit: int | None = None) -> None:
        super().__init__()
        self.answer = Answer()
        self._secrets = secrets
        self._limit = limit
        """The request's ``max_output_tokens`` (:func:`.responses_answer.finish_reason`)."""
        self._parts: list[str] = []
        self._reasoning: list[str] = []
        self._calls: dict[int, dict[str, Any]] = {}
        self._final: dict[str, Any] | None = None

    @property
    def reasoning_times(self) -> list[float]:
        """When each reasoning delta arrived (the reasoning channel's own clock)."""
        return self.answer.reasoning_times

    @property
    def reasoning(self) -> str:
        """The reasoning text the stream carried (reasoning and summary deltas)."""
        return "".join(self._reasoning)

    def finish(self) -> Answer:
        """Flush a last line without newline and assemble the text and tool calls."""
        self._flush()
        answer = self.answer
        answer.output = "".join(self._parts)
        if self._reasoning:  # the Responses API's reasoning items: never part of the answer
            answer.reasoning = "".join(self._reasoning)
            answer.reasoning_channel = answer.reasoning_channel or "reasoning"
        if self._calls:
            answer.tool_calls = [self._calls[i] for i in sorted(self._calls)]
        if self._final is not None and not self._parts and not self._calls:
            text, calls = output_of(self._final)  # a server that sent only the final response
            answer.output, answer.tool_calls = text, calls or None
        answer.stream_end = "done" if answer.done else "finish" if answer.finish_reason else None
        return answer.scrubbed(self._secrets)

    def _token(self, now: float, reasoning: bool = False) -> None:
        """A token arrived, of the reasoning or the answer channel: TTFT is the first of either,
        TTFA the first answer token (:meth:`Answer.token`, as a chat stream files them)."""
        self.answer.token(REASONING if reasoning else ANSWER, now)

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
            raise failure(event, self._secrets)
        answer = self.answer
        answer.events += 1
        if kind == "response.output_text.delta" and event.get("delta"):
            self._parts.append(str(event["delta"]))
            self._token(now)
        elif kind in ("response.reasoning_text.delta", "response.reasoning_summary_text.delta"):
            self._reasoning.append(str(event.get("delta") or ""))
            self._token(now, reasoning=True)
        elif kind == "response.output_item.added" and is_call(event.get("item")):
            self._calls[int(event.get("output_index", len(self._calls)))] = chat_call(event["item"])
            self._token(now)
        elif kind == "response.function_call_arguments.delta":
            call = self._calls.setdefault(int(event.get("output_index", 0)), chat_call({}))
            call["function"]["arguments"] += str(event.get("delta") or "")
            self._token(now)
        elif kind == "response.function_call_arguments.done" and "arguments" in event:
            call = self._calls.setdefault(int(event.get("output_index", 0)), chat_call({}))
            call["function"]["arguments"] = str(event["arguments"])
        elif kind == "response.output_item.done" and is_call(event.get("item")):
            self._calls[int(event.get("output_index", 0))] = chat_call(event["item"])
        elif kind in ("response.created", "response.in_progress"):
            model = (event.get("response") or {}).get("model")
            if answer.model is None and model:
                answer.model = str(model)
        elif kind in ("response.completed", "response.incomplete"):
            final = event.get("response") or {}
            self._final = final
            fill(answer, final, bool(self._calls) or bool(output_of(final)[1]), self._limit)
            answer.done = True
