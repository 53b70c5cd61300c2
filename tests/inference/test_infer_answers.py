"""Issue 24: what answered is recorded, a clean stream without ``[DONE]`` is an answer, a dropped
keep-alive connection costs no retry, only a real context overflow is one, and the API key is
scrubbed before any server text is cut."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from infer_helpers import eval_row, write_dataset, write_params
from stub_server import OVERFLOW_MESSAGE, StubServer

from stages.cli import main
from stages.inference import client
from stages.inference.client import ERROR_BODY_CHARS, FIRST_BYTES, MESSAGE_CHARS, is_overflow
from stages.protocol.sse import InvalidResponse, StreamReader, parse_completion

KEY = "sk-live-7Qx2mZr9LpV4"


def _records(project: Path, workload: str = "w") -> list[dict[str, Any]]:
    text = (project / "results" / workload / "responses.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def test_the_answering_model_is_recorded_and_a_different_one_warned_about(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    stub.config.reply_model = "gpt-4o-mini-2024"
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    assert [r["model"] for r in _records(project)] == ["gpt-4o-mini-2024"] * 3
    assert (
        "w: warning: 3 of 3 answers name another model than the requested 'stub-model': "
        "'gpt-4o-mini-2024' (3); each record's `model` field says which answered"
    ) in capsys.readouterr().err


def test_the_same_model_gives_no_warning(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    assert [(r["model"], r["stream_end"]) for r in _records(project)] == [("stub-model", "done")]
    assert "warning" not in capsys.readouterr().err


def test_stream_ending_cleanly_without_done_is_an_answer_marked_eof(
    project: Path, stub: StubServer
) -> None:
    stub.config.no_done = True
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(4)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    records = _records(project)
    assert [(r["output"], r["error"], r["attempts"]) for r in records] == [
        ("Answer: 42", None, 1)
    ] * 4
    assert [(r["stream_end"], r["finish_reason"]) for r in records] == [("eof", None)] * 4
    assert stub.stats.requests == 4


def test_a_torn_stream_is_still_torn(project: Path, stub: StubServer) -> None:
    stub.config.torn_first = 1  # cut off after its first delta: the connection breaks
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    assert [(r["error"], r["attempts"]) for r in _records(project)] == [(None, 2)]


@pytest.mark.parametrize("concurrency", [1, 4])
def test_server_closing_each_connection_costs_no_retry(
    project: Path, stub: StubServer, concurrency: int
) -> None:
    stub.config.close_after_answer = True
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(12)])
    write_params(project, stub.url, run={"concurrency": concurrency, "max_retries": 0})
    assert main(["infer", "w"]) == 0
    records = _records(project)
    assert [(r["error"], r["attempts"]) for r in records] == [(None, 1)] * 12
    assert stub.stats.requests == 12  # every request reached the server exactly once


def test_a_new_connection_that_fails_is_a_connection_error() -> None:
    import asyncio

    from stages.network.transport import make_client

    async def go() -> Any:
        http = make_client(2, {})
        try:
            policy = client.Policy(timeout_s=5, max_retries=0)
            urls = [httpx.URL("http://127.0.0.1:9/v1/chat/completions")]
            return await client.send(http, urls, 0, b"{}", True, policy)
        finally:
            await http.aclose()

    outcome = asyncio.run(go())
    assert (outcome.error["kind"], outcome.attempts) == ("connection", 1)


def test_model_name_too_long_is_http_4xx_and_counts_towards_the_failed_share(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    stub.config.fail_status, stub.config.fail_first = 400, 100
    stub.config.error_body = "model name too long"
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 3
    assert [r["error"]["kind"] for r in _records(project)] == ["http_4xx"] * 3
    assert "w: 3 of 3 requests failed (http_4xx 3)" in capsys.readouterr().err


def test_a_real_overflow_still_does_not_count(project: Path, stub: StubServer) -> None:
    stub.config.overflow_chars = 5
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    assert [r["error"]["kind"] for r in _records(project)] == ["context_overflow"] * 3


@pytest.mark.parametrize(
    ("text", "max_tokens", "overflow"),
    [
        # llama.cpp server, with and without sizes
        ("request (9412 tokens) exceeds the available context size (8192 tokens), try "
         "increasing it", 64, True),
        ("request (100 tokens) exceeds the available context size (8192 tokens)", 64, False),
        ('{"error":{"type":"exceed_context_size_error","message":"..."}}', None, True),
        # llama-cpp-python: the prompt alone, so max_tokens counts
        (OVERFLOW_MESSAGE.format(n=8100, ctx=8192), 256, True),
        (OVERFLOW_MESSAGE.format(n=8100, ctx=8192), 64, False),
        # OpenAI and vLLM
        ("This model's maximum context length is 4096 tokens. However, you requested 5000 "
         "tokens (4000 in the messages, 1000 in the completion).", 1000, True),
        ('{"error": {"code": "context_length_exceeded", "message": "..."}}', None, True),
        ("Input prompt (2501 tokens) is too long and exceeds limit of 2048", None, True),
        ("The prompt (total length 9000) is too long to fit into the model (context length "
         "4096).", None, True),
        ("The decoder prompt (length 9000) is longer than the maximum model length of 8192.",
         None, True),
        # SGLang
        ("The input (10009 tokens) is longer than the model's context length (8192 tokens).",
         None, True),
        ("Requested token count exceeds the model's maximum context length of 8192 tokens. You "
         "requested a total of 9000 tokens: 8000 tokens from the input messages and 1000 tokens "
         "for the completion.", 1000, True),
        # not overflows
        ("model name too long", None, False),
        ("messages: too long a list of tools", None, False),
        ("context: invalid role", None, False),
        ("prompt is too long for the moderation endpoint", None, False),
    ],
)  # fmt: skip
def test_overflow_only_for_the_engines_own_messages(
    text: str, max_tokens: int | None, overflow: bool
) -> None:
    assert is_overflow(text, max_tokens) is overflow


def _leaked(text: str) -> bool:
    """Any 6 consecutive characters of the key in ``text``."""
    return any(KEY[i : i + 6] in text for i in range(len(KEY) - 5))


def test_key_at_every_offset_of_the_error_body_cut() -> None:
    for offset in range(ERROR_BODY_CHARS + len(KEY) + 2):
        body = ("x" * offset + f"Authorization: Bearer {KEY}" + "y" * 40).encode()
        for status in (400, 429, 503):
            failure = client._status_failure(status, body, httpx.Headers(), (KEY,), b"{}")
            assert not _leaked(str(failure)), (status, offset)
            assert len(str(failure)) <= ERROR_BODY_CHARS + 5


def test_key_at_every_offset_of_the_other_cuts() -> None:
    secrets = (KEY,)
    for offset in range(max(MESSAGE_CHARS, 300) + len(KEY) + 2):
        raw = ("x" * offset + KEY + "y" * 40).encode()
        assert not _leaked(client.excerpt(raw.decode(), MESSAGE_CHARS, secrets)), offset
        assert not _leaked(str(client._not_sse("text/html", raw[: FIRST_BYTES + 60], secrets)))
        with pytest.raises(InvalidResponse) as caught:
            parse_completion(raw, secrets)
        assert not _leaked(str(caught.value)), offset
        for event in (b"data: " + raw + b"\n", b'data: {"error": "' + raw + b'"}\n'):
            with pytest.raises(InvalidResponse) as caught:
                StreamReader(secrets).feed(event, 0.0)
            assert not _leaked(str(caught.value)), offset


def test_key_straddling_the_cut_never_reaches_the_journal(
    project: Path, stub: StubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ATLAS_TEST_KEY", KEY)
    prefix = '{"error": {"message": "'
    offsets = range(ERROR_BODY_CHARS - len(prefix) - len(KEY), ERROR_BODY_CHARS - len(prefix) + 1)
    rows = [eval_row(i) for i in range(len(offsets))]
    bodies = iter("x" * n + KEY for n in offsets)
    stub.config.fail_status, stub.config.fail_first = 400, len(rows)

    def echo(body: dict[str, Any]) -> None:  # each request gets the key at the next offset
        stub.config.error_body = next(bodies)

    stub.config.on_request = echo
    write_dataset(project, "eval-t-v1", "eval", rows)
    write_params(project, stub.url, run={"concurrency": 1})
    assert main(["infer", "w"]) == 3
    journal = (project / "results" / "w" / "responses.jsonl").read_text()
    assert not _leaked(journal)
    # the key is replaced before the cut, so a whole "***" shows wherever it started in time
    assert journal.count("***") == sum(len(prefix) + n + 3 <= ERROR_BODY_CHARS for n in offsets)


def test_a_key_echoed_in_an_answer_is_scrubbed(
    project: Path, stub: StubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ATLAS_TEST_KEY", KEY)
    stub.config.reply = f"your key is {KEY}"
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    assert [r["output"] for r in _records(project)] == ["your key is ***"]
