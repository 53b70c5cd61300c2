"""A loopback stub of OpenAI's Responses API (issue 33), built on :class:`StubServer`.

``POST /v1/responses`` answers with what :class:`StubConfig` says the chat stub would answer
(``reply`` or ``reply_fn``, a tool call from ``tool_call_fn`` or ``tool_call`` when the request
offers tools, ``chunks`` text deltas, ``delay_s`` before the first event), in the Responses API's
own words: a ``response`` object when not streamed; when streamed, the documented events
(https://developers.openai.com/api/reference/resources/responses/streaming-events) with their
``event:`` lines and ``sequence_number``, in the order OpenAI sends them —
``response.created``, ``response.in_progress``, per output item ``response.output_item.added``,
its content (``response.content_part.added``, ``response.output_text.delta``...,
``response.output_text.done``, ``response.content_part.done``; or
``response.function_call_arguments.delta``... and ``.done``), ``response.output_item.done``,
then ``response.completed`` with ``usage``. Every other route is the chat stub's.

Extra behaviours (:class:`ResponsesExtras`): a reasoning item before the answer (its text sent as
``response.reasoning_text.delta`` events), an answer cut short (``response.incomplete``, reason
``max_output_tokens``), a failure (``response.failed``) and streams without any event.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from stub_server import StubConfig, StubServer, _chunked, _split


@dataclass
class ResponsesExtras:
    """What the Responses stub adds to :class:`StubConfig`."""

    reasoning: str | None = None
    """Reasoning text sent before the answer, as ``chunks`` reasoning deltas."""
    incomplete: bool = False
    """End as ``incomplete`` with reason ``max_output_tokens`` (the answer cut short)."""
    failed: str | None = None
    """End with ``response.failed`` carrying this error message (after the created event)."""
    empty_streams: int = 0
    """How many streams end without a single event (a server failing inside its generator)."""


def last_user_text(body: dict[str, Any]) -> str:
    """The text of the last user turn, from a chat body's ``messages`` or a Responses ``input``."""
    turns = body.get("messages") or body.get("input") or []
    for turn in reversed(turns):
        if turn.get("role") == "user":
            content = turn.get("content")
            if isinstance(content, list):
                return "".join(str(p.get("text", "")) for p in content)
            return str(content)
    return ""


def prompt_chars(body: dict[str, Any]) -> int:
    """Characters of all turns' content, as the chat stub's usage counts them."""
    turns = body.get("messages") or body.get("input") or []
    return sum(len(str(t.get("content", ""))) for t in turns)


class ResponsesStub(StubServer):
    """The chat stub, plus ``POST /v1/responses`` in the Responses API's words."""

    def __init__(self, config: StubConfig | None = None, extras: ResponsesExtras | None = None):
        super().__init__(config)
        self.extras = extras or ResponsesExtras()

    async def _answer(  # type: ignore[override]
        self, method: str, path: str, headers: dict[str, str], raw: bytes, writer: Any,
        received: float = 0.0, reader: asyncio.StreamReader | None = None,
    ) -> bool:  # fmt: skip
        if not (method == "POST" and path.endswith("/v1/responses")):
            return await super()._answer(method, path, headers, raw, writer, received, reader)
        body = json.loads(raw)
        config, stats = self.config, self.stats
        stats.requests += 1
        stats.bodies.append(body)
        stats.headers.append(headers)
        await asyncio.sleep(config.delay_s)
        call = None
        if body.get("tools"):
            call = config.tool_call_fn(body) if config.tool_call_fn else config.tool_call
        reply = config.reply_fn(body) if config.reply_fn is not None else config.reply
        if not body.get("stream"):
            self._send(writer, 200, self._response(body, reply, call, "final"))
            return True
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        if self.extras.empty_streams > 0:
            self.extras.empty_streams -= 1
            writer.write(b"0\r\n\r\n")
            await writer.drain()
            return True
        for event in self._events(body, reply, call):
            writer.write(
                _chunked(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
            )
            await writer.drain()
        writer.write(b"0\r\n\r\n")
        await writer.drain()
        return True

    def _items(self, reply: str, call: dict[str, Any] | None) -> list[dict[str, Any]]:
        """The finished output items of the answer."""
        items: list[dict[str, Any]] = []
        if self.extras.reasoning is not None:
            text = {"type": "reasoning_text", "text": self.extras.reasoning}
            items.append({"type": "reasoning", "id": "rs_0", "summary": [], "content": [text]})
        if call is not None:
            items.append(
                {"type": "function_call", "id": "fc_0", "call_id": "call_0", "name": call["name"],
                 "arguments": json.dumps(call["arguments"]), "status": "completed"}
            )  # fmt: skip
        else:
            part = {"type": "output_text", "text": reply, "annotations": []}
            items.append(
                {"type": "message", "id": "msg_0", "role": "assistant", "status": "completed",
                 "content": [part]}
            )  # fmt: skip
        return items

    def _response(
        self, body: dict[str, Any], reply: str, call: dict[str, Any] | None, stage: str
    ) -> dict[str, Any]:
        """The ``response`` object at ``stage``: ``created`` (nothing yet) or ``final``."""
        response: dict[str, Any] = {
            "id": "resp_0", "object": "response", "model": body.get("model"), "output": [],
            "status": "in_progress", "incomplete_details": None, "error": None,
        }  # fmt: skip
        if stage == "created":
            return response
        completion = max(1, len(reply) // 4)
        prompt = prompt_chars(body) // 4
        response["output"] = self._items(reply, call)
        response["usage"] = {
            "input_tokens": prompt, "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": completion, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": prompt + completion,
        }  # fmt: skip
        if self.extras.incomplete:
            response["status"] = "incomplete"
            response["incomplete_details"] = {"reason": "max_output_tokens"}
        else:
            response["status"] = "completed"
        return response

    def _events(
        self, body: dict[str, Any], reply: str, call: dict[str, Any] | None
    ) -> list[dict[str, Any]]:
        """Every event of the streamed answer, in order, numbered."""
        chunks = max(self.config.chunks, 1)
        created = self._response(body, reply, call, "created")
        events: list[dict[str, Any]] = [
            {"type": "response.created", "response": created},
            {"type": "response.in_progress", "response": created},
        ]
        if self.extras.failed is not None:
            failed = {**created, "status": "failed"}
            failed["error"] = {"code": "server_error", "message": self.extras.failed}
            events.append({"type": "response.failed", "response": failed})
            return _numbered(events)
        for index, item in enumerate(self._items(reply, call)):
            at = {"output_index": index, "item_id": item["id"]}
            events.append({"type": "response.output_item.added", "output_index": index,
                           "item": {**item, "status": "in_progress", **_empty(item)}})  # fmt: skip
            if item["type"] == "reasoning":
                text = item["content"][0]["text"]
                for piece in _split(text, chunks):
                    events.append({"type": "response.reasoning_text.delta", **at,
                                   "content_index": 0, "delta": piece})  # fmt: skip
            elif item["type"] == "function_call":
                args = item["arguments"]
                half = len(args) // 2
                for piece in (args[:half], args[half:]):
                    events.append(
                        {"type": "response.function_call_arguments.delta", **at, "delta": piece}
                    )
                events.append(
                    {"type": "response.function_call_arguments.done", **at, "arguments": args}
                )
            else:
                part = {"type": "output_text", "text": "", "annotations": []}
                where = {**at, "content_index": 0}
                events.append({"type": "response.content_part.added", **where, "part": part})
                for piece in _split(reply, chunks):
                    events.append({"type": "response.output_text.delta", **where, "delta": piece})
                events.append({"type": "response.output_text.done", **where, "text": reply})
                done = {**part, "text": reply}
                events.append({"type": "response.content_part.done", **where, "part": done})
            events.append({"type": "response.output_item.done", "output_index": index,
                           "item": item})  # fmt: skip
        final = self._response(body, reply, call, "final")
        kind = "response.incomplete" if final["status"] == "incomplete" else "response.completed"
        events.append({"type": kind, "response": final})
        return _numbered(events)


def _empty(item: dict[str, Any]) -> dict[str, Any]:
    """An output item's fields as ``output_item.added`` shows them: nothing generated yet."""
    if item["type"] == "function_call":
        return {"arguments": ""}
    return {"content": []}


def _numbered(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]
