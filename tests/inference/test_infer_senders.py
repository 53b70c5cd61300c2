"""Several sending processes, one journal (issue 23): every item taken once and journaled once by
the parent, an open-loop schedule kept across processes, and a kill of any process — a sender or
the parent — loses only what was in flight: no duplicate, no loss once rerun."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from infer_helpers import eval_row, prompt_row, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main

ATLAS = str(Path(sys.executable).with_name("atlas"))


def _journal(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.endswith("}")]


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_for(condition: Any, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_two_senders_take_every_item_once_and_the_parent_journals_it(
    project: Path, stub: StubServer
) -> None:
    stub.config.delay_s = 0.02
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(300)])
    write_params(project, stub.url, run={"concurrency": 8, "senders": 2})
    assert main(["infer", "w"]) == 0
    records = _journal(project / "results" / "w" / "responses.jsonl")
    assert len(records) == 300 and len({r["key"] for r in records}) == 300
    assert (
        Counter(b["messages"][-1]["content"] for b in stub.stats.bodies).most_common(1)[0][1] == 1
    )
    assert stub.stats.requests == 300 and stub.stats.max_in_flight <= 8
    assert all(r["error"] is None and r["output"] == "Answer: 42" for r in records)
    assert main(["infer", "w"]) == 0 and stub.stats.requests == 300  # nothing left to send


def test_an_open_loop_schedule_is_kept_across_two_senders(project: Path, stub: StubServer) -> None:
    write_dataset(project, "prompts-t-v1", "prompts", [prompt_row(i) for i in range(10)])
    load = {"mode": "rate", "rates": [200], "arrival": "constant", "requests": 240}
    workload = {"dataset": "prompts-t-v1", "perf": True, "load": load}
    write_params(project, stub.url, run={"senders": 2}, workloads={"w": workload})
    assert main(["infer", "w"]) == 0
    level = _journal(project / "results" / "w" / "load" / "rate-200.jsonl")
    assert sorted(r["index"] for r in level) == list(range(240))
    assert sorted(r["scheduled_s"] for r in level) == [round(i / 200, 6) for i in range(240)]
    assert len({r["key"] for r in level}) == 240
    figures = json.loads((project / "metrics" / "w.serving.json").read_text())["rate"]["200"]
    assert figures["requests"] == 240 and figures["segments"] == 1


def _start(project: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [ATLAS, "infer", "w"], cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def _killed_mid_run(project: Path, stub: StubServer, victim: str) -> tuple[int, str, list[int]]:
    stub.config.delay_s = 0.1
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(240)])
    write_params(project, stub.url, run={"concurrency": 8, "senders": 2, "timeout_s": 30})
    run = _start(project)
    journal = project / "results" / "w" / "responses.jsonl"
    _wait_for(lambda: journal.exists() and len(_journal(journal)) >= 24)
    children = _children(run.pid)
    assert len(children) == 2
    os.kill(children[0] if victim == "sender" else run.pid, signal.SIGKILL)
    _, err = run.communicate(timeout=120)
    return run.returncode, err, children


def _rerun_completes(project: Path, stub: StubServer) -> None:
    again = _start(project)
    _, err = again.communicate(timeout=120)
    assert again.returncode == 0, err
    records = _journal(project / "results" / "w" / "responses.jsonl")
    keys = [r["key"] for r in records]
    assert len(keys) == len(set(keys)) == 240  # nothing lost, nothing twice
    assert all(r["error"] is None for r in records)
    # each item reached the server once, but for those a killed process had in flight
    sent = Counter(b["messages"][-1]["content"] for b in stub.stats.bodies)
    assert len(sent) == 240 and sum(sent.values()) - 240 <= 8


def test_a_sender_killed_mid_run_loses_only_its_requests_in_flight(
    project: Path, stub: StubServer
) -> None:
    code, err, _ = _killed_mid_run(project, stub, "sender")
    assert code == 3, err
    assert "1 sending process(es) died mid-run (pid " in err and "killed by signal 9" in err
    assert "a rerun sends those" in err
    records = _journal(project / "results" / "w" / "responses.jsonl")
    keys = [r["key"] for r in records]
    assert len(keys) == len(set(keys)) and 240 - 4 <= len(keys) < 240  # the other took the rest
    _rerun_completes(project, stub)


def test_a_killed_parent_takes_its_senders_with_it(project: Path, stub: StubServer) -> None:
    code, _, children = _killed_mid_run(project, stub, "parent")
    assert code == -signal.SIGKILL
    _wait_for(lambda: not any(_alive(pid) for pid in children), timeout_s=10)
    records = _journal(project / "results" / "w" / "responses.jsonl")
    assert len({r["key"] for r in records}) == len(records) < 240
    _rerun_completes(project, stub)


def test_the_sender_count_follows_the_load_up_to_the_cores(monkeypatch: Any) -> None:
    from stages.inference import senders

    monkeypatch.setattr(senders.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    count = senders.sender_count
    assert count(None, False, 2160, concurrency=32) == 1
    assert count(None, False, 2160, concurrency=128) == 2
    assert count(None, False, 20_000, concurrency=1024) == 4  # capped at the usable cores
    assert count(None, False, 5000, rate=2500) == 3
    assert count(None, True, 5000, concurrency=128) == 1  # the embedded server: one process
    assert count(None, False, 150, concurrency=128) == 1  # too few requests to fork for
    assert count(3, True, 5000) == 3 and count(8, False, 2) == 2  # run.senders, at most one each
