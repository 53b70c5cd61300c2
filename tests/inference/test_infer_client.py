"""The client against the loopback stub and httpx MockTransport: limits, retries, failures."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from infer_helpers import eval_row, write_dataset, write_params
from stub_server import StubConfig, StubServer

from stages.cli import main
from stages.inference import client
from stages.inference.client import Policy, send


def _records(project: Path, workload: str = "w") -> list[dict[str, Any]]:
    path = project / "results" / workload / "responses.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def _run(
    project: Path, url: str | list[str], rows: int = 1, code: int = 0, **params: Any
) -> list[dict[str, Any]]:
    """Run workload ``w`` expecting exit ``code`` (3: more failures than run.max_failed_share)."""
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(rows)])
    write_params(project, url, **params)
    assert main(["infer", "w"]) == code
    return _records(project)


@pytest.fixture
def delays(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The backoff delays the client chose (it then waits no time at all)."""
    chosen: list[float] = []
    real_sleep = asyncio.sleep

    async def record(seconds: float) -> None:
        chosen.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(client, "_sleep", record)
    return chosen


def test_concurrency_limit_is_held(project: Path, stub: StubServer) -> None:
    stub.config.delay_s = 0.05
    records = _run(project, stub.url, rows=24, run={"concurrency": 3})
    assert stub.stats.requests == 24 and len(records) == 24
    assert stub.stats.max_in_flight == 3


def test_429_with_retry_after_is_retried_after_that_delay(
    project: Path, stub: StubServer, delays: list[float]
) -> None:
    stub.config.fail_status, stub.config.fail_first, stub.config.retry_after = 429, 2, "7"
    [record] = _run(project, stub.url)
    assert stub.stats.requests == 3
    assert delays == [7.0, 7.0]
    assert record["attempts"] == 3 and record["error"] is None
    assert record["output"] == "Answer: 42"


def test_500_is_retried_with_growing_backoff(
    project: Path, stub: StubServer, delays: list[float]
) -> None:
    stub.config.fail_status, stub.config.fail_first = 500, 2
    [record] = _run(project, stub.url)
    assert record["attempts"] == 3 and record["error"] is None
    # base 0.01 s (fixture), doubled per attempt, jitter within x0.5..x1.5
    assert 0.005 <= delays[0] <= 0.015 and 0.01 <= delays[1] <= 0.03


def test_exhausted_retries_record_the_failure_and_the_run_goes_on(
    project: Path, stub: StubServer, delays: list[float]
) -> None:
    stub.config.fail_status, stub.config.fail_first = 503, 3
    records = _run(project, stub.url, rows=2, code=3, run={"concurrency": 1, "max_retries": 2})
    assert stub.stats.requests == 4  # 3 failed attempts for the first row, 1 for the second
    assert records[0]["error"] == {"kind": "http_5xx", "message": '503: {"error": {"message": '
                                   '"stub failure"}}'}  # fmt: skip
    assert records[0]["attempts"] == 3 and records[0]["output"] == ""
    assert records[1]["error"] is None and records[1]["attempts"] == 1


def test_timeout_is_recorded_as_failure_without_retry(project: Path, stub: StubServer) -> None:
    stub.config.hang_after = 0
    [record] = _run(project, stub.url, code=3, run={"timeout_s": 0.3})
    assert record["error"]["kind"] == "timeout"
    assert record["attempts"] == 1 and stub.stats.requests == 1
    assert record["latency_s"] is None and record["ttft_s"] is None


def test_torn_stream_is_retried_then_recorded(
    project: Path, stub: StubServer, delays: list[float]
) -> None:
    stub.config.torn_first = 1
    [record] = _run(project, stub.url)
    assert record["attempts"] == 2 and record["error"] is None
    assert record["output"] == "Answer: 42"


def test_stream_torn_every_time_is_recorded_as_stream_torn(
    project: Path, stub: StubServer, delays: list[float]
) -> None:
    stub.config.torn_first = 100
    [record] = _run(project, stub.url, code=3, run={"max_retries": 1})
    assert record["error"]["kind"] == "stream_torn"
    assert record["attempts"] == 2 and stub.stats.requests == 2


def test_context_overflow_is_recorded_with_its_kind_and_not_retried(
    project: Path, stub: StubServer
) -> None:
    stub.config.overflow_chars = 5
    [record] = _run(project, stub.url)  # an overflow does not count towards max_failed_share
    assert record["error"] == {
        "kind": "context_overflow",
        "message": '400: {"error": {"message": "Requested tokens (14) exceed context window '
        'of 5"}}',
    }
    assert record["attempts"] == 1 and stub.stats.requests == 1


def test_streamed_tool_call_is_assembled(project: Path, stub: StubServer) -> None:
    tools = [{"type": "function", "function": {"name": "add", "parameters": {}}}]
    stub.config.tool_call = {"name": "add", "arguments": {"a": 1, "b": 2}}
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1, meta={"tools": tools})])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    [record] = _records(project)
    assert record["tool_calls"] == [
        {
            "id": "call_0",
            "type": "function",
            "function": {"name": "add", "arguments": '{"a": 1, "b": 2}'},
        }
    ]
    assert record["finish_reason"] == "tool_calls" and record["output"] == ""
    assert record["ttft_s"] is not None


def test_streamed_answer_has_usage_ttft_and_gaps(project: Path, stub: StubServer) -> None:
    stub.config.chunks, stub.config.reply = 3, "abcdef"
    [record] = _run(project, stub.url)
    assert record["output"] == "abcdef" and record["finish_reason"] == "stop"
    assert record["usage"] == {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}
    assert record["itl_s"]["n"] == 2
    assert 0 < record["ttft_s"] <= record["latency_s"]


def test_non_streamed_answer(project: Path, stub: StubServer) -> None:
    [record] = _run(project, stub.url, workloads={"w": {"dataset": "eval-t-v1", "stream": False}})
    assert record["output"] == "Answer: 42" and record["finish_reason"] == "stop"
    assert record["ttft_s"] is None and record["itl_s"] is None
    assert record["usage"]["completion_tokens"] == 2


def test_requests_are_spread_round_robin_over_urls(project: Path) -> None:
    with StubServer(StubConfig()) as one, StubServer(StubConfig()) as two:
        records = _run(project, [one.url, two.url], rows=10, run={"concurrency": 2})
        assert len(records) == 10
        assert (one.stats.requests, two.stats.requests) == (5, 5)


def _mock(handler: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


def _body(stream: bool) -> bytes:
    return json.dumps({"model": "m", "messages": [], "stream": stream, "max_tokens": 9}).encode()


def test_empty_stream_is_diagnosed_as_context_overflow() -> None:
    """llama-cpp-python streams nothing (200, empty body) when the prompt is too long."""
    seen: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body)
        if body["stream"]:
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=b"")
        message = "This model's maximum context length is 512 tokens. However, you requested 900"
        return httpx.Response(400, json={"error": {"message": message}})

    url = [httpx.URL("http://x/v1/chat/completions")]
    outcome = asyncio.run(send(_mock(handler), url, 0, _body(True), True, Policy(5, 3)))
    assert outcome.error is not None and outcome.error["kind"] == "context_overflow"
    assert outcome.attempts == 1
    assert [b["stream"] for b in seen] == [True, False] and seen[1]["max_tokens"] == 1


def test_retry_after_http_date_and_invalid_response() -> None:
    calls = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        if calls == 1:
            return httpx.Response(429, headers={"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"})
        return httpx.Response(200, content=b"not json")

    url = [httpx.URL("http://x/v1/chat/completions")]
    outcome = asyncio.run(send(_mock(handler), url, 0, _body(False), False, Policy(5, 3, 0.0)))
    assert outcome.error is not None and outcome.error["kind"] == "invalid_response"
    assert outcome.attempts == 2  # a date in the past means "retry now"; bad JSON is not retried


def test_llama_cpp_style_empty_stream_overflow_is_recorded_as_overflow(
    project: Path, stub: StubServer
) -> None:
    stub.config.overflow_chars, stub.config.overflow_empty_stream = 5, True
    [record] = _run(project, stub.url)
    assert record["error"]["kind"] == "context_overflow"
    assert record["error"]["message"].startswith(
        'empty stream; without streaming the server said 400: {"error": {"message": "Requested'
    )
    assert record["attempts"] == 1
    assert [b["stream"] for b in stub.stats.bodies] == [True, False]
    assert stub.stats.bodies[1]["max_tokens"] == 1
