"""Issue 33: a Responses-API answer — event stream or JSON body — read into the same ``Answer``
the chat reader builds: text, tool calls, finish reason in chat's words, usage under chat's
names, token arrival times; reasoning kept apart; error and failed events refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from responses_stub import ResponsesExtras, ResponsesStub
from stub_server import StubConfig

from stages.protocol.responses_answer import chat_usage, parse_response
from stages.protocol.responses_stream import ResponsesReader
from stages.protocol.sse import Answer, InvalidResponse, StreamReader

CALL = {"name": "get_weather", "arguments": {"city": "Lima", "date": "2031-06-07"}}
BODY = {"model": "m", "input": [{"type": "message", "role": "user", "content": "x" * 40}]}


def _stream(reply: str = "Answer: 42", call: Any = None, **extras: Any) -> bytes:
    """The stub's documented event stream for one answer, as the bytes on the wire."""
    stub = ResponsesStub(StubConfig(chunks=3), ResponsesExtras(**extras))
    events = stub._events(BODY, reply, call)
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


def _read(data: bytes, cuts: list[int] | None = None) -> tuple[Answer, ResponsesReader]:
    reader = ResponsesReader()
    edges = [0, *sorted(cuts or []), len(data)]
    for n, (a, b) in enumerate(zip(edges, edges[1:], strict=False)):
        reader.feed(data[a:b], float(n))
    return reader.finish(), reader


def test_text_answer_reads_as_a_chat_answer() -> None:
    answer, _ = _read(_stream("Answer: 42"))
    assert answer.output == "Answer: 42"
    assert answer.tool_calls is None
    assert answer.finish_reason == "stop"
    assert answer.stream_end == "done" and answer.complete
    assert answer.usage == {
        "prompt_tokens": 10, "prompt_tokens_details": {"cached_tokens": 0},
        "completion_tokens": 2, "completion_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 12,
    }  # fmt: skip
    assert answer.model == "m"
    assert len(answer.token_times) == 3  # three text deltas, nothing else is an answer token


def test_function_call_reads_as_a_chat_tool_call() -> None:
    answer, _ = _read(_stream(call=CALL))
    arguments = json.dumps(CALL["arguments"])
    assert answer.tool_calls == [
        {"id": "call_0", "type": "function",
         "function": {"name": "get_weather", "arguments": arguments}}
    ]  # fmt: skip
    assert answer.output == ""
    assert answer.finish_reason == "tool_calls"
    assert len(answer.token_times) == 3  # the item with its name, then two argument deltas


def test_incomplete_for_max_output_tokens_is_length() -> None:
    answer, _ = _read(_stream("Answer: 4", incomplete=True))
    assert (answer.output, answer.finish_reason) == ("Answer: 4", "length")


@pytest.mark.parametrize(("limit", "reason"), [(None, "stop"), (3, "stop"), (2, "length")])
def test_completed_at_the_token_limit_ran_out(limit: int | None, reason: str) -> None:
    """llama-server says ``completed`` for an answer cut at ``max_output_tokens`` (measured): a
    usage that reached the request's limit (2 output tokens here) is ``length``."""
    reader = ResponsesReader(limit=limit)
    reader.feed(_stream("Answer: 42"), 0.0)
    assert reader.finish().finish_reason == reason
    stub = ResponsesStub(StubConfig())
    body = json.dumps(stub._response(BODY, "Answer: 42", None, "final")).encode()
    assert parse_response(body, limit=limit).finish_reason == reason


def test_reasoning_is_kept_apart_from_the_answer() -> None:
    data = _stream("Answer: 42", reasoning="Six times seven is 42.")
    events = [e + b"\n\n" for e in data.split(b"\n\n") if e]
    reader = ResponsesReader()
    for n, event in enumerate(events):  # event n arrives at n seconds
        reader.feed(event, float(n))
    answer = reader.finish()
    assert answer.output == "Answer: 42"
    assert (reader.reasoning, answer.reasoning, answer.reasoning_channel) == (
        "Six times seven is 42.", "Six times seven is 42.", "reasoning",
    )  # fmt: skip
    data_lines = [next(x for x in e.split(b"\n") if x.startswith(b"data:")) for e in events]
    at = {json.loads(d[5:])["type"]: n for n, d in reversed(list(enumerate(data_lines)))}
    # two clocks, as a chat stream's (issue 33): TTFT at the first reasoning delta, TTFA at the
    # first answer delta; every token is in token_times, the reasoning ones also apart
    assert (answer.first_token_at, answer.first_answer_at) == (
        at["response.reasoning_text.delta"], at["response.output_text.delta"],
    )  # fmt: skip
    assert (len(reader.reasoning_times), len(answer.token_times)) == (3, 6)


def test_summary_deltas_are_reasoning_too() -> None:
    events = [
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "summary_index": 0,
         "item_id": "rs_0", "delta": "Short plan."},
        {"type": "response.output_text.delta", "output_index": 1, "content_index": 0,
         "item_id": "msg_0", "delta": "Hi"},
        {"type": "response.completed", "response": {"status": "completed", "output": []}},
    ]  # fmt: skip
    answer, reader = _read(b"".join(f"data: {json.dumps(e)}\n\n".encode() for e in events))
    assert (answer.output, reader.reasoning, answer.finish_reason) == ("Hi", "Short plan.", "stop")


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_cut_of_the_bytes_reads_the_same(data: st.DataObject) -> None:
    """Chunks split anywhere (inside an event, a UTF-8 character or a line end) change nothing."""
    call = data.draw(st.sampled_from([None, CALL]))
    raw = _stream("Réponse : 42 ✓", call)
    cuts = data.draw(st.lists(st.integers(1, len(raw) - 1), max_size=8, unique=True))
    whole, _ = _read(raw)
    split, _ = _read(raw, cuts)
    for name in ("output", "tool_calls", "finish_reason", "usage", "stream_end", "events"):
        assert getattr(split, name) == getattr(whole, name), name
    assert len(split.token_times) == len(whole.token_times)


def test_the_json_body_reads_as_the_stream_does() -> None:
    stub = ResponsesStub(StubConfig())
    for call in (None, CALL):
        body = json.dumps(stub._response(BODY, "Answer: 42", call, "final")).encode()
        plain = parse_response(body)
        streamed, _ = _read(_stream("Answer: 42", call))
        for name in ("output", "tool_calls", "finish_reason", "usage", "model"):
            assert getattr(plain, name) == getattr(streamed, name), (call, name)
        assert plain.stream_end is None and plain.complete


def test_the_same_answer_in_chat_and_responses_streams_is_the_same_answer() -> None:
    """The chat reader on a chat stream and this reader on the Responses stream agree."""
    chunks = [
        {"choices": [{"index": 0, "delta": {"role": "assistant"}}], "model": "m"},
        {"choices": [{"index": 0, "delta": {"content": "Answer"}}], "model": "m"},
        {"choices": [{"index": 0, "delta": {"content": ": 42"}, "finish_reason": "stop"}]},
        {"choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 2,
                                  "total_tokens": 12}},
    ]  # fmt: skip
    chat = StreamReader()
    chat.feed(b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in chunks), 0.0)
    chat.feed(b"data: [DONE]\n\n", 0.0)
    theirs = chat.finish()
    mine, _ = _read(_stream("Answer: 42"))
    for name in ("output", "tool_calls", "finish_reason", "model", "complete", "stream_end"):
        assert getattr(mine, name) == getattr(theirs, name), name
    assert {k: mine.usage[k] for k in theirs.usage} == theirs.usage  # type: ignore[index]


@pytest.mark.parametrize(
    "event",
    [
        {"type": "error", "code": "server_error", "message": "overloaded sk-secret", "param": None},
        {"type": "response.failed", "response": {"status": "failed", "output": [],
         "error": {"code": "server_error", "message": "overloaded sk-secret"}}},
    ],
)  # fmt: skip
def test_error_and_failed_events_are_refused_with_their_message(event: dict[str, Any]) -> None:
    reader = ResponsesReader(secrets=("sk-secret",))
    with pytest.raises(InvalidResponse, match="overloaded") as caught:
        reader.feed(f"data: {json.dumps(event)}\n\n".encode(), 0.0)
    assert "sk-secret" not in str(caught.value)


def test_a_failed_stream_from_the_stub_is_refused() -> None:
    with pytest.raises(InvalidResponse, match="it broke"):
        _read(_stream(failed="it broke"))


@pytest.mark.parametrize("body", [b"<html>", b'{"choices": []}', b'{"output": "text"}', b"[1, 2]"])
def test_a_body_that_is_no_response_object_is_invalid(body: bytes) -> None:
    with pytest.raises(InvalidResponse, match="not a Responses-API response"):
        parse_response(body)


def test_usage_keeps_unknown_keys_and_none_stays_none() -> None:
    assert chat_usage({"input_tokens": 3, "output_tokens": 4, "cost": 0.1}) == {
        "prompt_tokens": 3, "completion_tokens": 4, "cost": 0.1,
    }  # fmt: skip
    assert chat_usage(None) is None


def test_a_response_object_keeps_its_reasoning_items_apart() -> None:
    """Not streamed: ``reasoning`` output items (content, else summary) are the reasoning, as a
    chat message's ``reasoning_content`` is; the answer is the message's text alone."""
    for item, text in [
        ({"type": "reasoning", "content": [{"type": "reasoning_text", "text": "6*7"}],
          "summary": [{"type": "summary_text", "text": "multiply"}]}, "6*7"),
        ({"type": "reasoning", "summary": [{"type": "summary_text", "text": "multiply"}]},
         "multiply"),
    ]:  # fmt: skip
        message = {"type": "message", "role": "assistant",
                   "content": [{"type": "output_text", "text": "42"}]}  # fmt: skip
        body = json.dumps({"status": "completed", "output": [item, message]}).encode()
        answer = parse_response(body)
        assert (answer.output, answer.reasoning, answer.reasoning_channel) == (
            "42",
            text,
            "reasoning",
        )
