"""Issue 33: ``model.api`` and the Responses-API request. A chat run plans exactly the bodies
and keys it always did (existing journals keep their keys); a Responses run sends the same
request in the Responses API's words to ``/v1/responses`` under a run key of its own."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from infer_helpers import eval_row, write_dataset, write_params
from responses_stub import ResponsesExtras, ResponsesStub
from stub_server import StubConfig

from stages.cli import main
from stages.inference.dry_run import input_tokens
from stages.inference.plan import plan_workload
from stages.judge.send import Request, judge_plan
from stages.params import ModelParams, RunParams
from stages.protocol.responses_api import input_items, responses_body
from stages.serving.sessions import turn_body
from stages.serving.trace import Trace, TraceEntry, trace_items

TOOL = {"type": "function", "function": {"name": "get_weather", "description": "Forecast.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}  # fmt: skip
CHAT = {
    "model": "m", "temperature": 0.0, "top_p": 1.0, "max_tokens": 7, "seed": 3, "stream": True,
    "stream_options": {"include_usage": True}, "tools": [TOOL], "tool_choice": "auto",
    "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}],
}  # fmt: skip
CHAT_KEY = "e3fe011190e0daad0d94eafe83f27fe6ff17d6ecb76e0cf9d3ee585e73c77a90"
CHAT_RUN_KEY = "39bf78e19e73e6cb2058cf3d6f3c2556757a192c37d1bbf797fc4957917e66c9"
"""The request key of ``q-0001`` and the run key house35 (before the Responses API) planned
for :func:`_plan`'s chat run."""


def test_chat_body_becomes_the_responses_body() -> None:
    assert responses_body(CHAT) == {
        "model": "m", "temperature": 0.0, "top_p": 1.0, "max_output_tokens": 7, "stream": True,
        "store": False, "tool_choice": "auto",
        "tools": [{"type": "function", "name": "get_weather", "description": "Forecast.",
                   "parameters": TOOL["function"]["parameters"], "strict": False}],
        "input": [{"type": "message", "role": "system", "content": "Be brief."},
                  {"type": "message", "role": "user", "content": "Hi"}],
    }  # fmt: skip


def test_image_parts_and_tool_turns_translate() -> None:
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "Time?"},
                                     {"type": "image_url", "image_url": {"url": "data:x"}}]},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
         "function": {"name": "clock", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "12:00"},
        {"role": "assistant", "content": [{"type": "text", "text": "Noon."}]},
    ]  # fmt: skip
    assert input_items(messages) == [
        {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Time?"},
            {"type": "input_image", "image_url": "data:x", "detail": "auto"}]},
        {"type": "function_call", "call_id": "c1", "name": "clock", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "12:00"},
        {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Noon."}]},
    ]  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["system", "user", "assistant"]), st.text(max_size=20)),
        min_size=1, max_size=6,
    )
)  # fmt: skip
def test_every_text_turn_keeps_its_role_text_and_place(turns: list[tuple[str, str]]) -> None:
    messages = [{"role": role, "content": text} for role, text in turns]
    items = input_items(messages)
    assert [(i["type"], i["role"], i["content"]) for i in items] == [
        ("message", role, text) for role, text in turns
    ]


def test_a_strict_chat_tool_stays_strict() -> None:
    strict = {"type": "function", "function": {**TOOL["function"], "strict": True}}
    assert responses_body({**CHAT, "tools": [strict]})["tools"][0]["strict"] is True


def _plan(project: Path, api: str | None, repeats: int = 1) -> Any:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(1, 3)])
    model = {} if api is None else {"api": api}
    decoding = {"temperature": 0.7, "repeats": repeats} if repeats > 1 else {}
    write_params(project, "http://127.0.0.1:9/v1", model=model, decoding=decoding)
    return plan_workload("w")


def test_chat_runs_keep_their_keys(project: Path) -> None:
    """What house35 planned for a chat run, byte for byte: ``model.api: chat`` changes nothing."""
    for api in (None, "chat"):
        plan = _plan(project, api)
        first = plan.items[0]
        assert "api" not in plan.decoding
        body = json.loads(first.body)
        assert "messages" in body and body["seed"] == 0
        expected = hashlib.sha256(json.dumps(
            ["stub-model", "r1", plan.decoding, body, 0], sort_keys=True, separators=(",", ":"),
            ensure_ascii=False).encode()).hexdigest()  # fmt: skip
        assert first.key == expected == CHAT_KEY
        assert plan.run_key == CHAT_RUN_KEY


def test_responses_runs_have_keys_of_their_own(project: Path) -> None:
    chat = _plan(project, "chat")
    responses = _plan(project, "responses")
    assert responses.decoding == {**chat.decoding, "api": "responses"}
    assert responses.run_key != chat.run_key
    assert not chat.keys & responses.keys
    for mine, theirs in zip(responses.items, chat.items, strict=True):
        assert json.loads(mine.body) == responses_body(json.loads(theirs.body))
        assert mine.seed is None


def test_responses_repeats_send_no_seed(project: Path) -> None:
    """The Responses API has no seed: every repeat sends the same body, under its own key."""
    plan = _plan(project, "responses", repeats=3)
    assert plan.seeds == []
    bodies = {item.body for item in plan.items if item.row_id == "q-0001"}
    assert len(bodies) == 1 and b"seed" not in next(iter(bodies))
    assert len({item.key for item in plan.items}) == 6


def test_an_unknown_api_is_a_clear_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, "http://127.0.0.1:9/v1", model={"api": "response"})
    assert main(["infer", "w"]) == 2
    err = capsys.readouterr().err
    lines = (project / "params.yaml").read_text(encoding="utf-8").splitlines()
    line = lines.index("  api: response") + 1
    assert f"atlas: error: params.yaml:{line}: model.api: Input should be 'chat' or " in err
    assert "Traceback" not in err
    assert not (project / "results").exists()


def test_a_session_turn_grows_the_input_items() -> None:
    first = responses_body({"model": "m", "messages": [{"role": "user", "content": "A"}]})
    raw = json.dumps(first).encode()
    grown = json.loads(turn_body(raw, ["B"], ["a"], 1))
    assert grown["input"] == [
        {"type": "message", "role": "user", "content": "A"},
        {"type": "message", "role": "assistant", "content": "a"},
        {"type": "message", "role": "user", "content": "B"},
    ]
    assert "messages" not in grown


def test_requests_go_to_v1_responses(project: Path) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    with ResponsesStub(StubConfig(reply="Answer: 2")) as stub:
        write_params(project, stub.url, model={"api": "responses"})
        assert main(["infer", "w"]) == 0
        assert main(["score", "w"]) == 0
        assert len(stub.stats.bodies) == 1 and "input" in stub.stats.bodies[0]
    record = json.loads((project / "results/w/responses.jsonl").read_text())
    assert (record["output"], record["finish_reason"], record["error"]) == (
        "Answer: 2",
        "stop",
        None,
    )
    verdict = json.loads((project / "metrics/verdicts/w.jsonl").read_text())
    assert verdict["correct"] is True


@pytest.mark.parametrize(
    ("extras", "kind", "finish"),
    [
        (ResponsesExtras(failed="model crashed"), "invalid_response", None),
        (ResponsesExtras(incomplete=True), None, "length"),
        (ResponsesExtras(empty_streams=9), "stream_empty", None),
    ],
)
def test_how_a_responses_stream_ends_is_journaled(
    project: Path, extras: ResponsesExtras, kind: str | None, finish: str | None
) -> None:
    """``response.failed`` is an invalid response with the server's message; ``incomplete`` for
    ``max_output_tokens`` is ``length``; a stream without events is probed once without
    streaming (asking for 16 tokens, the Responses API's least) and stays ``stream_empty``."""
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    with ResponsesStub(StubConfig(reply="Answer: 2"), extras) as stub:
        write_params(project, stub.url, model={"api": "responses"}, run={"max_retries": 0})
        code = main(["infer", "w"])
        bodies = stub.stats.bodies
    record = json.loads((project / "results/w/responses.jsonl").read_text())
    assert (record["error"] or {}).get("kind") == kind
    assert record["finish_reason"] == finish
    assert code == (0 if kind is None else 3)
    if kind == "invalid_response":
        assert "model crashed" in record["error"]["message"]
    if kind == "stream_empty":
        probe = bodies[1]
        assert (probe["stream"], probe["max_output_tokens"], len(bodies)) == (False, 16, 2)
        assert "input" in probe and "stream_options" not in probe


def test_a_judge_may_speak_the_responses_api_too() -> None:
    """A judge block's ``api`` reaches its requests; a chat judge's are what they were."""
    request = Request("rk", "q-0001", 0, [{"role": "user", "content": "Grade it."}])
    plans = {}
    for api in ("chat", "responses"):
        judge = ModelParams(base_url="http://127.0.0.1:9/v1", name="j", revision="r", api=api)
        dataset = SimpleNamespace(id="eval-t-v1")
        plans[api], _ = judge_plan("w", judge, [request], 8, RunParams(), dataset)  # type: ignore[arg-type]
    chat, responses = plans["chat"].items[0], plans["responses"].items[0]
    assert json.loads(responses.body) == responses_body(json.loads(chat.body))
    assert (chat.seed, responses.seed) == (0, None)
    assert "api" not in plans["chat"].decoding
    assert plans["responses"].decoding["api"] == "responses"
    assert plans["responses"].run_key != plans["chat"].run_key


def test_dry_run_and_traces_read_a_responses_body_as_the_chat_one(project: Path) -> None:
    """The dry run's input-size heuristic and a trace's output limit see the same request."""
    chat, responses = _plan(project, "chat"), _plan(project, "responses")
    for mine, theirs in zip(responses.items, chat.items, strict=True):
        assert input_tokens(mine.body) == input_tokens(theirs.body) > 0
    trace = Trace("t.jsonl", "0" * 64, [TraceEntry(t=0.0, output_tokens=5)])
    (item,) = trace_items(trace, responses.items, 1)
    assert json.loads(item.body)["max_output_tokens"] == 5
    assert "max_tokens" not in json.loads(item.body)
