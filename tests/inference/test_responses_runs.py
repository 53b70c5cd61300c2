"""Issue 33, "The OpenAI Responses API": a run of ``math``, ``tools`` and ``mix`` with
``model.api: responses`` against a stub speaking OpenAI's documented Responses events scores
exactly like the chat run that got the same answers (same verdicts item by item, same
accuracy), and its journal holds the same outputs, tool calls, finish reasons and token counts.

The answers depend on the item, so the verdicts are mixed: math right on even rows and wrong on
odd ones; tools the gold call, a call with the wrong arguments, or no call at all (rows whose
gold is "no call" answered in text or, wrongly, with a call)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from infer_helpers import REPO, prompt_row, write_dataset, write_params
from responses_stub import ResponsesStub, last_user_text
from stub_server import StubConfig, StubServer

from stages.cli import main

DATASETS = ("eval-math-v4", "eval-tools-v1", "prompts-mix-v1")
WORKLOADS = {
    "math": {"dataset": "eval-math-v4", "limit": 10, "max_tokens": 192},
    "tools": {"dataset": "eval-tools-v1", "limit": 12, "max_tokens": 192},
    "tools-plain": {"dataset": "eval-tools-v1", "limit": 12, "stream": False},
    "mix": {"dataset": "prompts-mix-v1", "limit": 8, "max_tokens": 64, "perf": True},
}


def _rows(dataset: str) -> list[dict[str, Any]]:
    path = REPO / "datasets" / dataset / "rows.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _question(row: dict[str, Any]) -> str:
    if row.get("prompt") is not None:
        return str(row["prompt"])
    return str([m for m in row["messages"] if m["role"] == "user"][-1]["content"])


MATH = {_question(row): (i, row["answer"]) for i, row in enumerate(_rows("eval-math-v4"))}
TOOLS = {_question(row): (i, row["answer"]["tool_call"]) for i, row in enumerate(_rows(
    "eval-tools-v1"))}  # fmt: skip


def _reply(body: dict[str, Any]) -> str:
    question = last_user_text(body)
    if question in MATH:
        index, gold = MATH[question]
        return f"Working.\nAnswer: {gold}" if index % 2 == 0 else "Answer: -1"
    return "Noted, nothing to call." if question in TOOLS else f"A short answer ({len(question)})."


def _call(body: dict[str, Any]) -> dict[str, Any] | None:
    index, gold = TOOLS[last_user_text(body)]
    if gold is None:  # right in text on even rows; a call nobody asked for on odd ones
        return None if index % 2 == 0 else {"name": "get_weather", "arguments": {"city": "X"}}
    if index % 3 == 0:
        return {"name": gold["name"], "arguments": gold["arguments"]}
    if index % 3 == 1:
        return {"name": gold["name"], "arguments": {"unrelated": 1}}
    return None


def _run(project: Path, url: str, api: str) -> None:
    (project / "datasets").mkdir(parents=True)
    for dataset in DATASETS:
        shutil.copytree(REPO / "datasets" / dataset, project / "datasets" / dataset)
    write_params(project, url, model={"api": api}, workloads=WORKLOADS)
    for workload in WORKLOADS:
        assert main(["infer", workload]) == 0, (api, workload)
        assert main(["score", workload]) == 0, (api, workload)


def _config() -> StubConfig:
    return StubConfig(reply_fn=_reply, tool_call_fn=_call, chunks=3)


def _verdicts(project: Path, workload: str) -> list[dict[str, Any]]:
    """Each item's verdict, without the keys that name the run."""
    path = project / "metrics" / "verdicts" / f"{workload}.jsonl"
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [{k: v for k, v in line.items() if k not in ("run_key", "key")} for line in lines]


def _journal(project: Path, workload: str) -> list[dict[str, Any]]:
    """What each record says about the answer: the fields both protocols must agree on."""
    path = project / "results" / workload / "responses.jsonl"
    fields = ("id", "repeat", "output", "tool_calls", "finish_reason", "stream_end", "error")
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    out = []
    for record in sorted(records, key=lambda r: (r["id"], r["repeat"])):
        usage = record["usage"] or {}
        tokens = (usage.get("prompt_tokens"), usage.get("completion_tokens"))
        calls = [{**c, "id": None} for c in record["tool_calls"] or []]  # ids are the server's
        out.append({**{f: record[f] for f in fields}, "tool_calls": calls, "tokens": tokens})
    return out


@pytest.fixture
def runs(project: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    chat, responses = project / "chat", project / "responses"
    with StubServer(_config()) as stub:
        monkeypatch.chdir(chat.parent)
        chat.mkdir()
        monkeypatch.chdir(chat)
        _run(chat, stub.url, "chat")
    with ResponsesStub(_config()) as stub:
        responses.mkdir()
        monkeypatch.chdir(responses)
        _run(responses, stub.url, "responses")
        bodies = stub.stats.bodies
    assert bodies and all("input" in b and "messages" not in b for b in bodies)
    return chat, responses


def test_responses_run_scores_like_the_chat_run_of_the_same_answers(
    runs: tuple[Path, Path],
) -> None:
    chat, responses = runs
    for workload in WORKLOADS:
        assert _verdicts(responses, workload) == _verdicts(chat, workload), workload
        assert _journal(responses, workload) == _journal(chat, workload), workload
    for workload in ("math", "tools", "tools-plain"):
        mine = json.loads((responses / "metrics" / f"{workload}.json").read_text())
        theirs = json.loads((chat / "metrics" / f"{workload}.json").read_text())
        assert mine["accuracy"] == theirs["accuracy"]
    mine = json.loads((responses / "metrics" / "mix.json").read_text())
    assert (mine["n"], mine["failed"]) == (8, 0)


def test_the_answers_are_mixed_so_the_comparison_can_fail(runs: tuple[Path, Path]) -> None:
    """The verdicts the first test compares are neither all right nor all wrong."""
    _, responses = runs
    math = [line["correct"] for line in _verdicts(responses, "math")]
    tools = [line["correct"] for line in _verdicts(responses, "tools")]
    assert math == [True, False] * 5
    assert 0 < sum(tools) < len(tools)


def test_load_levels_and_sessions_speak_the_responses_api(project: Path) -> None:
    """Load levels go to ``/v1/responses`` too; a multi-turn session sends its earlier answers
    back as assistant input items, and every turn's record holds its answer."""
    rows = [prompt_row(i, turns=[f"Shorter, {i}?"]) for i in range(2)]
    write_dataset(project, "prompts-t-v1", "prompts", rows)
    load = {"mode": "concurrency", "levels": [1, 2], "multi_turn": True}
    workloads = {"w": {"dataset": "prompts-t-v1", "perf": True, "load": load}}
    with ResponsesStub(StubConfig(reply="Answer: 42")) as stub:
        write_params(project, stub.url, model={"api": "responses"}, workloads=workloads)
        assert main(["infer", "w"]) == 0
        bodies = stub.stats.bodies
    assert len(bodies) == 2 + 2 * 4  # the main pass, then two levels of two two-turn sessions
    second = [b for b in bodies if len(b["input"]) == 3]
    assert len(second) == 4
    assert second[0]["input"] == [
        {"type": "message", "role": "user", "content": "Say something about item 0."},
        {"type": "message", "role": "assistant", "content": "Answer: 42"},
        {"type": "message", "role": "user", "content": "Shorter, 0?"},
    ]
    for level in ("concurrency-1", "concurrency-2"):
        path = project / "results" / "w" / "load" / f"{level}.jsonl"
        records = [json.loads(line) for line in path.read_text().splitlines()]
        assert [(r["output"], r["finish_reason"], r["error"]) for r in records] == [
            ("Answer: 42", "stop", None)
        ] * 4
