"""One writer per journal (issue 24): two ``atlas infer`` processes on one workload — the second
stops with the holder's pid, the server gets each request once, the journal has no duplicate; a
lock left by a killed run is taken over."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from infer_helpers import eval_row, write_dataset, write_params
from stub_server import StubServer

ATLAS = str(Path(sys.executable).with_name("atlas"))


def _start(project: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [ATLAS, "infer", "w"], cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def _wait_for(condition: object, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _journaled(project: Path) -> int:
    """Lines durably in the journal (it is written and fsynced by a thread, a little after)."""
    path = project / "results" / "w" / "responses.jsonl"
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _journal_keys(project: Path) -> list[str]:
    text = (project / "results" / "w" / "responses.jsonl").read_text()
    return [json.loads(line)["key"] for line in text.splitlines()]


def test_second_writer_is_refused_with_the_holders_pid(project: Path, stub: StubServer) -> None:
    stub.config.delay_s = 0.15
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(12)])
    write_params(project, stub.url, run={"concurrency": 1})
    first = _start(project)
    _wait_for(lambda: stub.stats.requests >= 1)
    second = _start(project)
    out, err = second.communicate(timeout=120)
    assert second.returncode == 2
    assert err == (
        "atlas: error: results/w/responses.jsonl is being written by another atlas process "
        f"(pid {first.pid}, `atlas infer w`, since {err.split('since ')[1].split(')')[0]}); wait "
        "for it to finish or stop it: two writers would send and write everything twice "
        "(lock: .atlas/locks/infer-w.lock)\n"
    )
    first.communicate(timeout=120)
    assert first.returncode == 0
    assert stub.stats.requests == 12  # each item sent once
    keys = _journal_keys(project)
    assert len(keys) == len(set(keys)) == 12


def test_lock_of_a_killed_run_is_taken_over(project: Path, stub: StubServer) -> None:
    stub.config.hang_after = 5  # the run is busy when it is killed
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(12)])
    write_params(project, stub.url, run={"concurrency": 1, "timeout_s": 60})
    killed = _start(project)
    # killed only once the five answers are on disk: a SIGKILL before the journal's writer thread
    # wrote them would (rightly) make the next run send them again, and the count below vary
    _wait_for(lambda: stub.stats.requests >= 6 and _journaled(project) == 5)
    os.kill(killed.pid, signal.SIGKILL)
    killed.communicate(timeout=60)
    lock = json.loads((project / ".atlas" / "locks" / "infer-w.lock").read_text())
    assert lock["pid"] == killed.pid
    stub.config.hang_after = None
    again = _start(project)
    _, err = again.communicate(timeout=120)
    assert again.returncode == 0, err
    assert (
        f"note: results/w/responses.jsonl: taking over the lock left by pid {killed.pid}, which "
        "is no longer running (killed?)"
    ) in err
    keys = _journal_keys(project)
    assert len(keys) == len(set(keys)) == 12
    assert stub.stats.requests == 6 + 7  # 5 answered + 1 in flight when killed, then the 7 left
