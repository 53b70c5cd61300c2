"""Issue 31: what a run keeps of an answer and of its attempts. Seen on 485a9a0: streams that
ended in ``[DONE]`` with nothing in them journaled as answers (llama-cpp-python aborting a running
stream for a new request), no cap on an answer's size (150 MB to ``max_tokens: 192``), only the
last attempt's error kept ("Connection refused" for a server that died mid-stream), and an unset
or refused key retried as server errors without naming the variable."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from infer_helpers import eval_row, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main
from stages.inference import client
from stages.inference.client import Policy, send
from stages.inference.failures import TooManyFailures, check_failed_share
from stages.protocol.sse import StreamReader

# Names new with issue 31 are imported in the tests that use them, so that each test of this
# file runs (and fails for its own reason) on the code before it.
STOP_AFTER = 3
"""``credentials.STOP_AFTER``: refusals in a row after which a sending process stops."""

JOURNAL = Path("results") / "w" / "responses.jsonl"
UNSET = (
    "the environment variable ATLAS_TEST_KEY (model.api_key_env) is not set, so no API key was sent"
)
# What LiteLLM's proxy answers when its upstream key is missing (500) and to a wrong key (400)
LITELLM_UNSET = (
    "litellm.AuthenticationError: AuthenticationError: OpenAIException - The api_key client "
    "option must be set either by passing api_key to the client or by setting the "
    "OPENAI_API_KEY environment variable"
)
LITELLM_WRONG = "Authentication Error, Invalid proxy server token passed. Unable to find token"


def _records(project: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (project / JOURNAL).read_text().splitlines()]


def _setup(project: Path, stub: StubServer, rows: int, **params: Any) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(rows)])
    write_params(project, stub.url, **params)


# -- empty streams ---------------------------------------------------------------------------


def test_a_stream_of_nothing_but_done_is_a_failure_that_a_rerun_sends_again(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    stub.config.empty_first = 8  # every try of the first run: a role delta, then [DONE]
    _setup(project, stub, 4, run={"concurrency": 1, "max_retries": 1})
    assert main(["infer", "w"]) == 3
    message = "stream ended ([DONE]) after 1 event without content, tool call or finish reason"
    empty = {"kind": "stream_empty", "message": message}
    assert [(r["output"], r["error"], r["attempts"], r["tries"]) for r in _records(project)] == [
        ("", empty, 2, [empty, empty])
    ] * 4
    assert (
        "w: 4 of 4 requests failed (stream_empty 4), more than the 0.05 tolerated; every request "
        "failed with streams that ended without an answer: does the server abort a running "
        "request when a new one comes (llama-cpp-python does by default)? Lower run.concurrency."
    ) in capsys.readouterr().err
    assert main(["infer", "w"]) == 0  # the rerun sends all four again, and they answer
    assert stub.stats.requests == 12
    assert [r["output"] for r in _records(project)[4:]] == ["Answer: 42"] * 4


def test_an_empty_stream_is_retried_and_its_try_kept(project: Path, stub: StubServer) -> None:
    stub.config.empty_first = 1
    _setup(project, stub, 1)
    assert main(["infer", "w"]) == 0
    [record] = _records(project)
    assert (record["output"], record["error"], record["attempts"]) == ("Answer: 42", None, 2)
    assert [t["kind"] for t in record["tries"]] == ["stream_empty"]


def test_empty_answers_an_older_run_journaled_are_sent_again(
    project: Path, stub: StubServer
) -> None:
    _setup(project, stub, 3)
    assert main(["infer", "w"]) == 0
    lines = _records(project)
    for record in lines[:2]:  # what 485a9a0 journaled for an aborted stream
        record.update(output="", finish_reason=None, stream_end="done", usage=None)
    (project / JOURNAL).write_text("".join(json.dumps(r) + "\n" for r in lines))
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 5
    again = _records(project)[3:]
    assert sorted((r["id"], r["output"]) for r in again) == [
        ("q-0000", "Answer: 42"),
        ("q-0001", "Answer: 42"),
    ]


def _finish(events: list[dict[str, Any]], done: bool) -> client.Answer:
    reader = StreamReader()
    for event in events:
        reader.feed(b"data: " + json.dumps(event).encode() + b"\n\n", 1.0)
    if done:
        reader.feed(b"data: [DONE]\n\n", 1.0)
    return client._finish_stream(reader)


def _choice(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


@pytest.mark.parametrize("done", [True, False])
def test_what_ends_a_stream_without_an_answer(done: bool) -> None:
    with pytest.raises(client._Failure) as caught:
        _finish([_choice({"role": "assistant"}), _choice({"content": ""})], done)
    assert caught.value.kind == "stream_empty" and not caught.value.empty
    end = "[DONE]" if done else "the end of the body"
    assert str(caught.value) == (
        f"stream ended ({end}) after 2 events without content, tool call or finish reason"
    )
    # a finish reason without content is the model's (empty) answer, not a broken stream
    answer = _finish([_choice({"role": "assistant"}), _choice({}, "stop")], done)
    assert (answer.output, answer.finish_reason) == ("", "stop")


# -- the answer-size cap ---------------------------------------------------------------------

CAP = 256 << 10


@pytest.mark.parametrize("stream", [True, False])
def test_an_endless_answer_stops_at_max_answer_bytes(
    project: Path, stub: StubServer, stream: bool
) -> None:
    stub.config.endless = True  # without the cap, the run would read until timeout_s
    workloads = {"w": {"dataset": "eval-t-v1", "stream": stream}}
    _setup(project, stub, 1, run={"max_answer_bytes": CAP, "timeout_s": 20}, workloads=workloads)
    assert main(["infer", "w"]) == 3
    [record] = _records(project)
    assert record["error"] == {
        "kind": "answer_too_large",
        "message": f"the answer passed run.max_answer_bytes ({CAP} bytes); not read on",
    }
    assert record["attempts"] == 1 and stub.stats.requests == 1  # not retried


@pytest.mark.parametrize("stream", [True, False])
def test_an_endless_answer_stops_on_httpx_too(stub: StubServer, stream: bool) -> None:
    stub.config.endless = True
    body = json.dumps({"model": "m", "messages": [], "stream": stream}).encode()

    async def go() -> client.Outcome:
        async with httpx.AsyncClient(trust_env=False) as http:
            url = [f"{stub.url}/chat/completions"]
            return await send(http, url, 0, body, stream, Policy(20, 0, max_answer_bytes=CAP))

    outcome = asyncio.run(go())
    assert outcome.error is not None and outcome.error["kind"] == "answer_too_large"


def _mock(content: bytes, status: int = 200, stream: bool = False) -> httpx.AsyncClient:
    kind = "text/event-stream" if stream else "application/json"
    response = httpx.Response(status, headers={"content-type": kind}, content=content)
    return httpx.AsyncClient(transport=httpx.MockTransport(lambda request: response))


def _answer_bytes(stream: bool) -> bytes:
    if not stream:
        message = {"content": "hi"}
        return json.dumps(
            {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
        ).encode()
    events = [_choice({"content": "hi"}), _choice({}, "stop")]
    return b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events) + (
        b"data: [DONE]\n\n"
    )


@given(
    stream=st.booleans(),
    cuts=st.lists(st.integers(0, 200), max_size=6),
    over=st.integers(-40, 40),
)
def test_the_cap_admits_exactly_its_bytes_however_they_arrive(
    stream: bool, cuts: list[int], over: int
) -> None:
    content = _answer_bytes(stream)
    edges = sorted({0, len(content), *(min(c, len(content)) for c in cuts)})
    pieces = [content[a:b] for a, b in zip(edges, edges[1:], strict=False)]

    async def arriving() -> Any:
        for piece in pieces:
            yield piece

    kind = "text/event-stream" if stream else "application/json"
    response = httpx.Response(200, headers={"content-type": kind}, content=arriving())
    http = httpx.AsyncClient(transport=httpx.MockTransport(lambda request: response))
    body = json.dumps({"model": "m", "messages": [], "stream": stream}).encode()
    limit = len(content) + over
    policy = Policy(5, 0, max_answer_bytes=limit)
    outcome = asyncio.run(send(http, ["http://x/v1/chat/completions"], 0, body, stream, policy))
    if len(content) > limit:
        assert outcome.error is not None and outcome.error["kind"] == "answer_too_large"
    else:
        assert outcome.error is None and outcome.answer is not None
        assert outcome.answer.output == "hi"


def test_a_huge_error_body_is_cut_not_a_size_failure() -> None:
    http = _mock(b"x" * (1 << 20), status=400)
    policy = Policy(5, 0, max_answer_bytes=2048)
    outcome = asyncio.run(send(http, ["http://x/v1/chat/completions"], 0, b"{}", False, policy))
    assert outcome.error == {"kind": "http_4xx", "message": "400: " + "x" * 500}


def test_the_default_cap_follows_max_tokens() -> None:
    from stages.inference.sending import max_answer_bytes

    assert max_answer_bytes(None, 192) == (1 << 20) + 192 * (16 << 10)  # 4 MiB
    assert max_answer_bytes(None, None) == 64 << 20
    assert max_answer_bytes(5000, 192) == 5000


# -- every try kept --------------------------------------------------------------------------


def test_a_server_that_dies_mid_stream_reads_as_that_not_as_refused(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    def die(body: dict[str, Any]) -> None:  # the listener goes; the stream in hand breaks off
        assert stub._server is not None
        stub._server.close()

    stub.config.on_request, stub.config.torn_first = die, 100
    _setup(project, stub, 1, run={"max_retries": 2})
    assert main(["infer", "w"]) == 3
    [record] = _records(project)
    tries = record["tries"]
    assert [t["kind"] for t in tries] == ["stream_torn", "connection", "connection"]
    assert tries[0]["message"].startswith("ReadError: connection broke mid-response")
    assert record["error"]["kind"] == "connection" and record["attempts"] == 3
    assert record["error"]["message"].endswith(
        f" (after 3 tries; the first failed with stream_torn: {tries[0]['message']})"
    )
    assert stub.stats.requests == 1
    assert (
        "every request failed with connection errors: is the endpoint up? Their first tries failed "
        "otherwise (stream_torn 1): streams that broke off: is the server or a proxy restarting? "
        "A rerun sends only the failed requests again"
    ) in capsys.readouterr().err


def test_a_success_after_a_torn_stream_keeps_that_try(project: Path, stub: StubServer) -> None:
    stub.config.torn_first = 1
    _setup(project, stub, 1)
    assert main(["infer", "w"]) == 0
    [record] = _records(project)
    assert (record["error"], record["attempts"]) == (None, 2)
    assert [t["kind"] for t in record["tries"]] == ["stream_torn"]


def test_first_kinds_of_old_and_new_records() -> None:
    from stages.inference.failures import first_kinds

    old = {"error": {"kind": "connection", "message": "refused"}}  # before issue 31: no tries
    same = {**old, "tries": [{"kind": "connection", "message": "refused"}] * 2}
    torn = {**old, "tries": [{"kind": "stream_torn", "message": "broke"}, old["error"]]}
    assert first_kinds([old, same, torn, torn, {"error": None}]) == {"stream_torn": 2}
    with pytest.raises(TooManyFailures, match=r"\(connection 3\).*otherwise \(stream_torn 2\)"):
        check_failed_share("w", {"connection": 3}, 3, 0.0, first_kinds([old, torn, torn]))


# -- a refused or missing key ----------------------------------------------------------------


@pytest.mark.parametrize("senders", [1, 2])
def test_litellm_without_its_key_stops_the_run_naming_the_variable(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str], senders: int
) -> None:
    stub.config.fail_status, stub.config.fail_first = 500, 1000
    stub.config.error_body = LITELLM_UNSET
    run = {"concurrency": senders, "senders": senders}
    _setup(project, stub, 40, run=run)
    assert main(["infer", "w"]) == 3
    sent = STOP_AFTER * senders  # each sending process stops after its own streak
    assert stub.stats.requests == sent  # not retried, and not 40 x 4 attempts
    records = _records(project)
    body = json.dumps({"error": {"message": LITELLM_UNSET}})
    message = f"{UNSET}: 500: {body}"
    assert [r["error"] for r in records] == [{"kind": "auth", "message": message}] * sent
    assert (
        f"atlas: error: w: stopped after {sent} of 40 requests, {sent} of them refused: "
        f"{message}. Nothing more was sent; fix the key and run again"
    ) in capsys.readouterr().err
    assert not (project / "results" / "w" / "manifest.json").exists()


def test_a_wrong_key_refused_with_400_is_named(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    key = "sk-wrong-0c9d4e"
    monkeypatch.setenv("ATLAS_TEST_KEY", key)
    stub.config.fail_status, stub.config.fail_first = 400, 1000
    stub.config.error_body = LITELLM_WRONG
    _setup(project, stub, 10, run={"concurrency": 1})
    assert main(["infer", "w"]) == 3
    assert stub.stats.requests == STOP_AFTER
    err = capsys.readouterr().err
    assert (
        "w: stopped after 3 of 10 requests, 3 of them refused: the API key in ATLAS_TEST_KEY "
        "(model.api_key_env) was refused: 400: "
    ) in err
    assert key not in err and {h["authorization"] for h in stub.stats.headers} == {f"Bearer {key}"}


def test_refusals_of_every_request_name_the_variable_in_the_summary(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    stub.config.fail_status, stub.config.fail_first = 401, 1000
    _setup(project, stub, 2)  # fewer than the streak: everything is sent
    assert main(["infer", "w"]) == 3
    assert stub.stats.requests == 2
    assert (
        "w: 2 of 2 requests failed (auth 2), more than the 0.05 tolerated; every request failed "
        "with refused credentials (HTTP 401/403, or an error naming the key or authentication); "
        f"{UNSET}. A rerun sends only the failed requests again"
    ) in capsys.readouterr().err


@pytest.mark.parametrize(
    ("status", "message"), [(401, "Unauthorized"), (500, LITELLM_UNSET), (400, LITELLM_WRONG)]
)
def test_the_preflight_names_the_unset_variable(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str], status: int, message: str
) -> None:
    stub.config.models_error = (status, message)
    _setup(project, stub, 3)
    assert main(["infer", "w"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"atlas: error: endpoint {stub.url} rejected the credentials (HTTP {status}); {UNSET}"
    )
    assert stub.stats.requests == 0


REFUSALS = [
    LITELLM_UNSET,
    LITELLM_WRONG,
    "Incorrect API key provided: sk-abc***. You can find your API key at ...",  # OpenAI
    '{"type":"authentication_error","message":"invalid x-api-key"}',  # Anthropic
    "Missing Authorization header",
    "Invalid credentials",
    "Bearer token rejected",
]
OTHER_ERRORS = [
    "stub failure",
    "model name too long",
    "max_tokens must be at least 1",
    "KeyError: 'messages'",
    "token limit exceeded",
    "bad key ***",
    "Requested tokens (900) exceed context window of 512",
    "",
]


@given(status=st.integers(400, 599), body=st.sampled_from(REFUSALS))
def test_an_error_naming_authentication_is_a_refusal_whatever_its_status(
    status: int, body: str
) -> None:
    from stages.inference.credentials import STOP_AFTER as streak
    from stages.inference.credentials import is_refusal

    assert is_refusal(status, body) is (status != 429)
    assert streak == STOP_AFTER


@given(status=st.integers(400, 599), body=st.sampled_from(OTHER_ERRORS))
def test_other_errors_are_refusals_only_as_401_or_403(status: int, body: str) -> None:
    from stages.inference.credentials import is_refusal

    assert is_refusal(status, body) is (status in (401, 403))
