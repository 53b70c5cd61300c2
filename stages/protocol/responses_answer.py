"""A Responses-API ``response`` object read as a chat answer (``model.api: responses``, issue
33): the final object of a stream (``response.completed``) or a whole non-streamed body, into the
:class:`~stages.protocol.sse.Answer` the chat reader builds.

Fields as OpenAI's reference describes the object
(https://developers.openai.com/api/reference/resources/responses/methods/create): ``output``
items (``message`` items with ``output_text`` parts, ``function_call`` items), ``status`` with
``incomplete_details.reason``, ``usage`` and ``error``. The finish reason is said in chat's words
(``stop``; ``tool_calls`` when the output holds a function call; ``length`` when the response is
incomplete for ``max_output_tokens``, or says ``completed`` although its ``output_tokens`` reached
the request's ``max_output_tokens``, as llama-server does) and usage under chat's names
(:func:`chat_usage`), so every reader of a record reads both protocols alike.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from stages.network.scrubber import excerpt
from stages.protocol.sse import Answer, InvalidResponse

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


def output_of(response: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
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
            calls.append(chat_call(item))
    return "".join(texts), calls


def chat_call(item: dict[str, Any]) -> dict[str, Any]:
    """A ``function_call`` item as a chat tool call."""
    function = {"name": item.get("name") or "", "arguments": item.get("arguments") or ""}
    return {"id": item.get("call_id"), "type": "function", "function": function}


def failure(event: dict[str, Any], secrets: Sequence[str]) -> InvalidResponse:
    """The error an ``error`` or ``response.failed`` event reports."""
    error = event if event.get("type") == "error" else (event.get("response") or {}).get("error")
    shown = excerpt(json.dumps(error), 300, secrets, as_repr=False)
    return InvalidResponse(f"error event in stream ({event.get('type')}): {shown}")


def fill(answer: Answer, response: dict[str, Any], calls: bool, limit: int | None) -> None:
    """What a final response object tells: usage, finish reason, model, timings."""
    answer.usage = chat_usage(response.get("usage")) or answer.usage
    answer.finish_reason = finish_reason(response, calls, limit)
    if answer.model is None and response.get("model"):
        answer.model = str(response["model"])
    if isinstance(response.get("timings"), dict):
        answer.timings = response["timings"]


def reasoning_of(response: dict[str, Any]) -> str:
    """The text of a response's ``reasoning`` output items: their ``reasoning_text`` content, else
    their ``summary_text`` summary (what a stream sends as reasoning deltas)."""
    parts: list[str] = []
    for item in response.get("output") or []:
        if not isinstance(item, dict) or item.get("type") != "reasoning":
            continue
        pieces = [c for c in item.get("content") or [] if isinstance(c, dict)]
        pieces = pieces or [s for s in item.get("summary") or [] if isinstance(s, dict)]
        parts.extend(str(piece.get("text") or "") for piece in pieces)
    return "".join(parts)


def is_call(item: Any) -> bool:
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
        raise failure({"type": "response.failed", "response": obj}, secrets)
    text, calls = output_of(obj)
    answer = Answer(output=text, tool_calls=calls or None, done=True, events=1)
    if reasoning := reasoning_of(obj):  # kept apart from the answer, as a chat message's is
        answer.reasoning, answer.reasoning_channel = reasoning, "reasoning"
    fill(answer, obj, bool(calls), limit)
    return answer.scrubbed(secrets)
