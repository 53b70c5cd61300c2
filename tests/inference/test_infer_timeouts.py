"""Timeouts with meaning (issue 32): a connect limit, a first-byte limit, a stall limit and a
total deadline, each named in the failure it ends; a slow stream is never cut; on the embedded
engine a stalled request is sent once more after the others."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stages.cli import main
from stages.inference.endpoint import Endpoint
from stages.serving import stage as run_module
from tests.inference.infer_helpers import eval_row, write_dataset, write_params
from tests.stub_server import StubServer


def _run(project: Path, url: str, code: int, rows: int = 1, **run: Any) -> list[dict[str, Any]]:
    from stages.io import iter_jsonl

    write_dataset(project, "eval-t-v1", "eval", [eval_row(i + 1) for i in range(rows)])
    write_params(project, url, run={"max_retries": 0, **run})
    assert main(["infer", "w"]) == code
    return [r for _, r in iter_jsonl(project / "results" / "w" / "responses.jsonl")]


def test_no_first_byte_is_its_own_failure(project: Path, stub: StubServer) -> None:
    stub.config.delay_s = 3
    [record] = _run(project, stub.url, 3, timeout_s=30, first_byte_timeout_s=0.4)
    assert record["error"] == {
        "kind": "first_byte_timeout", "message": "no byte of an answer within 0.4 s"
    }  # fmt: skip
    assert record["attempts"] == 1


def test_a_slow_stream_is_never_cut(project: Path, stub: StubServer) -> None:
    # 8 deltas 0.3 s apart: 2.1 s in all, longer than the stall limit, each gap shorter
    stub.config.chunks, stub.config.gap_s = 8, 0.3
    [record] = _run(project, stub.url, 0, timeout_s=30, stall_timeout_s=1.0)
    assert record["error"] is None and record["output"] == "Answer: 42"
    assert record["latency_s"] > 1.0


def test_a_stream_that_stops_is_a_stall(project: Path, stub: StubServer) -> None:
    stub.config.chunks, stub.config.stall_first = 4, 1
    [record] = _run(project, stub.url, 3, timeout_s=30, stall_timeout_s=0.5)
    assert record["error"] == {"kind": "stall", "message": "the answer stopped: no byte for 0.5 s"}
    assert stub.stats.requests == 1  # a stall is not retried at once


@pytest.mark.parametrize("comment_every_s", [None, 0.3])
def test_a_long_prompt_being_read_is_not_a_stall(
    project: Path, stub: StubServer, comment_every_s: float | None
) -> None:
    """llama-server sends a stream's head at once, then reads the prompt (longgen's 7k tokens:
    57-72 s quiet, 104 s beside a CPU hog, longer than the 60 s stall limit) with an SSE
    comment every 30 s or none at all: the first-event limit applies until the first event."""
    stub.config.head_first_s, stub.config.comment_every_s = 1.5, comment_every_s
    [record] = _run(
        project, stub.url, 0, timeout_s=30, first_byte_timeout_s=10, stall_timeout_s=0.5
    )
    assert record["error"] is None and record["output"] == "Answer: 42"
    assert record["ttft_s"] > 1.5


def test_comments_without_an_event_end_at_the_first_event_limit(
    project: Path, stub: StubServer
) -> None:
    stub.config.head_first_s, stub.config.comment_every_s = 5, 0.2
    [record] = _run(
        project, stub.url, 3, timeout_s=30, first_byte_timeout_s=1.0, stall_timeout_s=0.5
    )
    assert record["error"] == {
        "kind": "first_byte_timeout", "message": "no byte of an answer within 1 s"
    }  # fmt: skip


def test_the_total_deadline_is_the_last_resort(project: Path, stub: StubServer) -> None:
    stub.config.chunks, stub.config.gap_s = 12, 0.2  # still streaming at the deadline
    [record] = _run(project, stub.url, 3, timeout_s=1.0, stall_timeout_s=5)
    assert record["error"] == {"kind": "timeout", "message": "no complete answer within 1 s"}


@contextlib.contextmanager
def _full_backlog() -> Iterator[int]:
    """A listening port whose accept queue is full: a new connection's SYN is dropped, so
    connecting hangs as it does towards a host that never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(0)
    port = server.getsockname()[1]
    fillers = []
    for _ in range(4):
        filler = socket.socket()
        filler.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            filler.connect(("127.0.0.1", port))
        fillers.append(filler)
    try:
        yield port
    finally:
        for filler in fillers:
            filler.close()
        server.close()


def test_a_connection_that_never_opens_is_a_connect_failure() -> None:
    """(A run's preflight already stops at such an endpoint: "unreachable"; the limit guards
    every later connection of the pool.)"""
    from stages.network.transport import WireError, make_client

    async def connect(port: int) -> str:
        client = make_client(1, {}, connect_timeout_s=0.5)
        try:
            await client.wire.post(f"http://127.0.0.1:{port}/v1/chat/completions", {}, b"{}")
        except WireError as exc:
            return str(exc)
        finally:
            await client.aclose()
        return "connected"

    with _full_backlog() as port:
        message = asyncio.run(connect(port))
    assert message == f"ConnectTimeout: no connection to 127.0.0.1:{port} within 0.5 s"


def test_the_embedded_engine_sends_a_stalled_request_once_more(
    project: Path, stub: StubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first answer stalls; the second pass, after the other two are done, completes it."""

    @contextlib.contextmanager
    def embedded_like(model: Any, slots: Any) -> Iterator[Endpoint]:
        yield Endpoint([stub.url], {}, ["embedded:stub.gguf"], [None], starter=lambda: stub.url)

    monkeypatch.setattr(run_module, "open_endpoint", embedded_like)
    stub.config.chunks, stub.config.stall_first = 4, 1
    journal = _run(project, stub.url, 0, rows=3, concurrency=1, stall_timeout_s=0.5)
    assert [r["error"]["kind"] if r["error"] else None for r in journal] == [
        "stall",
        None,
        None,
        None,
    ]  # fmt: skip (the journal keeps both: the one sent last is the record)
    assert journal[0]["id"] == journal[3]["id"]
    assert stub.stats.requests == 4  # three, then the stalled one once more, last
    assert [body["messages"][-1]["content"] for body in stub.stats.bodies][-1] == (
        stub.stats.bodies[0]["messages"][-1]["content"]
    )
