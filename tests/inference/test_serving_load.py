"""Load levels end to end against the loopback stub: open-loop queueing on a slow server,
warm-up exclusion, multi-turn sessions, and a killed level resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from infer_helpers import prompt_row, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main
from stages.serving.sessions import turn_body, turn_messages

ATLAS = [sys.executable, "-c", "from stages.cli import app; app()"]


def _lines(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.endswith("}")]


def _serving(project: Path) -> dict[str, Any]:
    return json.loads((project / "metrics" / "w.serving.json").read_text())


def _workload(**load: Any) -> dict[str, Any]:
    return {"dataset": "prompts-t-v1", "perf": True, "load": load}


def test_open_loop_on_a_slow_server_shows_the_queue_in_latency(
    project: Path, stub: StubServer
) -> None:
    """A single-slot server taking 50 ms a request: at 4 req/s nothing queues; at 40 req/s the
    schedule keeps sending every 25 ms, so request i waits about 25 ms x i more than the first."""
    write_dataset(project, "prompts-t-v1", "prompts", [prompt_row(i) for i in range(3)])
    stub.config.slots, stub.config.delay_s = 1, 0.05
    load = {
        "mode": "rate",
        "rates": [4, 40],
        "arrival": "constant",
        "requests": 12,
        "warmup_requests": 2,
    }
    write_params(project, stub.url, workloads={"w": {**_workload(**load), "slo": {"e2e_s": 0.1}}})
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 3 + 2 * 14
    serving = _serving(project)
    assert sorted(serving) == ["definitions", "knee", "main", "rate", "run_key"]
    slow, fast = serving["rate"]["4"], serving["rate"]["40"]
    assert (slow["requests"], slow["warmup_excluded"], fast["requests"]) == (12, 2, 12)
    assert slow["latency_from_scheduled_s"]["p99"] < 0.1 <= fast["latency_from_scheduled_s"]["p50"]
    assert fast["schedule_lag_s"]["p99"] < 0.05  # the client kept the schedule ...
    journal = _lines(project / "results" / "w" / "load" / "rate-40.jsonl")
    measured = sorted((r for r in journal if r["phase"] == "measure"), key=lambda r: r["index"])
    waits = [r["sent_s"] - r["scheduled_s"] + r["latency_s"] for r in measured]
    assert waits[-1] - waits[0] > 0.2  # ... and the server's queue grew by ~25 ms a request
    assert all(b > a for a, b in zip(waits[:-1], waits[1:], strict=True))
    assert [r["index"] for r in journal if r["phase"] == "warmup"] == [0, 1]
    assert slow["goodput"]["share"] == 1.0 and fast["goodput"]["share"] < 0.5
    assert serving["knee"] == {"goodput_target": 0.9, "rate": 4.0, "slo": {"e2e_s": 0.1}}
    assert main(["infer", "w"]) == 0  # nothing left to send; the same figures from the journals
    assert stub.stats.requests == 31 and _serving(project) == serving


def test_turn_messages_carry_the_models_own_answers() -> None:
    first = [{"role": "system", "content": "S"}, {"role": "user", "content": "U0"}]
    assert turn_messages(first, ["U1", "U2"], [], 0) == first
    assert turn_messages(first, ["U1", "U2"], ["A0", "A1"], 2) == [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "U0"},
        {"role": "assistant", "content": "A0"},
        {"role": "user", "content": "U1"},
        {"role": "assistant", "content": "A1"},
        {"role": "user", "content": "U2"},
    ]
    body = b'{"messages":[{"content":"U0","role":"user"}],"model":"m","stream":true}'
    assert turn_body(body, ["U1"], ["A0"], 0) is body
    assert turn_body(body, ["U1"], ["A0"], 1) == (
        b'{"messages":[{"content":"U0","role":"user"},{"content":"A0","role":"assistant"},'
        b'{"content":"U1","role":"user"}],"model":"m","stream":true}'
    )


def test_multi_turn_sessions_send_each_answer_back(project: Path, stub: StubServer) -> None:
    rows = [prompt_row(i, turns=[f"Shorter, {i}?", f"Why {i}?"]) for i in range(2)]
    write_dataset(project, "prompts-t-v1", "prompts", rows)
    stub.config.reply = "Answer: 42"
    load = {"mode": "concurrency", "levels": [1], "multi_turn": True, "think_time_s": 0.05}
    write_params(project, stub.url, workloads={"w": _workload(**load)})
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 2 + 2 * 3
    third = stub.stats.bodies[2 + 2]  # session 0, turn 2 (the main pass sent 2 first turns)
    assert [m["content"] for m in third["messages"]] == [
        "Say something about item 0.",
        "Answer: 42",
        "Shorter, 0?",
        "Answer: 42",
        "Why 0?",
    ]
    assert [m["role"] for m in third["messages"]] == ["user", "assistant"] * 2 + ["user"]
    journal = _lines(project / "results" / "w" / "load" / "concurrency-1.jsonl")
    assert [(r["session"], r["turn"]) for r in journal] == [
        (s, t) for s in (0, 1) for t in (0, 1, 2)
    ]
    for record, after in zip(journal[1:3], journal[0:2], strict=True):  # think time 50 ms
        assert abs(record["scheduled_s"] - after["done_s"] - 0.05) < 2e-6
    level = _serving(project)["concurrency"]["1"]
    assert level["requests"] == 6
    assert sorted(level["turns"]) == ["0", "1", "2"]
    assert [level["turns"][k]["ttft_s"]["n"] for k in ("0", "1", "2")] == [2, 2, 2]


def test_open_loop_sessions_start_on_schedule_and_follow_their_answers(
    project: Path, stub: StubServer
) -> None:
    rows = [prompt_row(i, turns=[f"More on {i}."]) for i in range(3)]
    write_dataset(project, "prompts-t-v1", "prompts", rows)
    load = {
        "mode": "rate",
        "rates": [20],
        "arrival": "constant",
        "multi_turn": True,
        "think_time_s": 0.02,
    }
    write_params(project, stub.url, workloads={"w": _workload(**load)})
    assert main(["infer", "w"]) == 0
    journal = _lines(project / "results" / "w" / "load" / "rate-20.jsonl")
    starts = sorted((r for r in journal if r["turn"] == 0), key=lambda r: r["session"])
    assert [r["scheduled_s"] for r in starts] == [0.0, 0.05, 0.1]  # sessions/s on the schedule
    for start in starts:
        (follow,) = [r for r in journal if r["session"] == start["session"] and r["turn"] == 1]
        assert abs(follow["scheduled_s"] - start["done_s"] - 0.02) < 2e-6
        assert follow["sent_s"] >= follow["scheduled_s"]
    level = _serving(project)["rate"]["20"]
    assert level["requests"] == 6 and sorted(level["turns"]) == ["0", "1"]


def test_killed_rate_level_resumes_with_a_new_segment(project: Path, stub: StubServer) -> None:
    write_dataset(project, "prompts-t-v1", "prompts", [prompt_row(i) for i in range(3)])
    load = {"mode": "rate", "rates": [20], "arrival": "constant", "requests": 8}
    write_params(project, stub.url, workloads={"w": _workload(**load)}, run={"timeout_s": 60})
    stub.config.hang_after = 3 + 5  # the main pass, then five answers; the rest hang
    level = project / "results" / "w" / "load" / "rate-20.jsonl"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    process = subprocess.Popen(
        [*ATLAS, "infer", "w"], cwd=project, env=env, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while (len(_lines(level)) < 5 or stub.stats.requests < 11) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    first = _lines(level)
    assert len(first) == 5 and {r["segment"] for r in first} == {0}
    stub.config.hang_after = None
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 11 + 3  # only the three unanswered requests again
    records = _lines(level)
    assert [r["segment"] for r in records] == [0] * 5 + [1] * 3
    assert sorted(r["index"] for r in records) == list(range(8))
    resumed = [r for r in records if r["segment"] == 1]
    # the schedule's spacing is kept from the first missing entry on (1/20 s)
    assert [round(r["scheduled_s"], 6) for r in resumed] == [0.0, 0.05, 0.1]
    figures = _serving(project)["rate"]["20"]
    assert (figures["requests"], figures["segments"], figures["requests_failed"]) == (8, 2, 0)
