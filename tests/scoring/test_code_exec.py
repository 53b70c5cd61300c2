"""code_exec scorer and its sandbox: passing code passes; hostile code is contained and wrong.

Containment is proved for every isolation mode this machine offers (``bwrap`` needs bubblewrap,
``namespaces`` root and ``unshare``; a mode that is missing is skipped and says so), and the
guarantees of the ``basic`` fallback are tested for what it promises, no more.
"""

from __future__ import annotations

import os
import shutil
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from stages.scoring import code_exec
from stages.scoring.code_exec import extract_code, run_tests
from stages.scoring.sandbox import UID_BASE, Limits, available, isolation_mode

FAST = Limits(cpu_s=1, wall_s=3.0)
ROW = {"id": "c1", "answer": "add", "tests": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"}
BARRIERS = [
    pytest.param(mode, marks=pytest.mark.skipif(not available(mode), reason=f"no {mode} here"))
    for mode in ("bwrap", "namespaces")
]
ALL_MODES = [*BARRIERS, "basic"]


def _score(output: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(code_exec, "LIMITS", FAST)
    return code_exec.score(ROW, {"output": output, "error": None}, Path("."))


def _sandbox_processes(settle_s: float = 5.0) -> list[int]:
    """Processes of sandbox uids still alive once the namespace teardown had time to finish."""
    deadline = time.monotonic() + settle_s
    while (pids := _sandbox_pids()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return pids


def _sandbox_pids() -> list[int]:
    pids = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            uid_line = next(x for x in status.read_text().splitlines() if x.startswith("Uid:"))
        except (OSError, StopIteration):
            continue
        if int(uid_line.split()[1]) >= UID_BASE:
            pids.append(int(status.parent.name))
    return pids


def test_extract_code_prefers_block_defining_entry_point() -> None:
    output = (
        "<think>```python\ndef add(a, b): return 0\n```</think>Here:\n"
        "```python\ndef add(a, b):\n    return a + b\n```\nUsage:\n```python\nprint(add(1, 2))\n```"
    )
    assert extract_code(output, "add") == "def add(a, b):\n    return a + b\n"


def test_extract_code_raw_and_unclosed_fence() -> None:
    assert (
        extract_code("def add(a, b):\n    return a + b", "add")
        == "def add(a, b):\n    return a + b"
    )
    assert extract_code("```python\ndef add(a, b): ...", "add") == "def add(a, b): ..."


def test_best_available_barrier_is_used() -> None:
    expected = next((m for m in ("bwrap", "namespaces") if available(m)), "basic")
    assert isolation_mode() == expected
    if shutil.which("bwrap") is not None:
        assert expected == "bwrap"


def test_correct_solution_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = _score("```python\ndef add(a, b):\n    return a + b\n```", monkeypatch)
    assert (verdict.correct, verdict.why) == (True, "2 tests passed")
    assert verdict.extras["isolation"] == isolation_mode()


def test_failing_assert_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = _score("def add(a, b):\n    return a - b", monkeypatch)
    assert (verdict.correct, verdict.why) == (False, "test 1 of 2 failed: 'add(2, 3) == 5'")


def test_syntax_error_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = _score("def add(a, b) return a + b", monkeypatch)
    assert (verdict.correct, verdict.why) == (False, "the code raised SyntaxError before the tests")


def test_exit_before_tests_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = _score("import sys\nsys.exit(0)", monkeypatch)
    assert (verdict.correct, verdict.why) == (False, "exited before the tests completed")
    verdict = _score("import os\nos._exit(0)", monkeypatch)
    assert (verdict.correct, verdict.why) == (False, "its result report is malformed")


def test_main_block_does_not_run(monkeypatch: pytest.MonkeyPatch) -> None:
    code = "def add(a, b):\n    return a + b\nif __name__ == '__main__':\n    raise SystemExit(3)"
    assert _score(code, monkeypatch).correct is True


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_infinite_loop_hits_cpu_limit(isolation: str) -> None:
    result = run_tests("while True:\n    pass", "", Limits(cpu_s=1, wall_s=10.0), isolation)
    assert (result.passed, result.run.timed_out) == (False, False)
    assert result.why == "killed by signal SIGXCPU before reporting"


def test_sleeping_loop_hits_wall_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = _score("import time\nwhile True:\n    time.sleep(1)", monkeypatch)
    assert (verdict.correct, verdict.why) == (False, "killed after the 3 s wall-clock limit")


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_ten_gigabyte_allocation_fails(isolation: str) -> None:
    result = run_tests("x = bytearray(10 * 1024**3)", "", FAST, isolation)
    assert (result.passed, result.why) == (False, "the code raised MemoryError before the tests")


@pytest.mark.parametrize("isolation", BARRIERS)
def test_fork_bomb_contained_and_reaped(isolation: str) -> None:
    bomb = "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass"
    assert run_tests(bomb, "", FAST, isolation).passed is False
    assert _sandbox_processes() == []


@pytest.mark.parametrize("isolation", BARRIERS)
def test_setsid_child_does_not_outlive_the_run(isolation: str) -> None:
    code = "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(60)"
    assert run_tests(code, "", FAST, isolation).passed is True
    assert _sandbox_processes() == []


@pytest.mark.parametrize("isolation", BARRIERS)
def test_writing_outside_its_directory_fails(isolation: str, tmp_path: Path) -> None:
    target = tmp_path / "escape.txt"
    for path in (str(target), "../escape.txt", "/escape.txt", "/tmp/atlas-sandbox-escape.txt"):
        result = run_tests(f"open({path!r}, 'w').write('x')", "", FAST, isolation)
        assert result.passed is False, path
    assert not target.exists()
    assert not Path("/tmp/atlas-sandbox-escape.txt").exists()


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_writing_inside_its_directory_works(isolation: str) -> None:
    code = "open('scratch.txt', 'w').write('ok')\nassert open('scratch.txt').read() == 'ok'"
    assert run_tests(code, "", FAST, isolation).passed is True


@pytest.mark.parametrize("isolation", BARRIERS)
def test_socket_cannot_reach_the_host(isolation: str) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.2)
        port = server.getsockname()[1]
        code = f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=1)"
        assert run_tests(code, "", FAST, isolation).passed is False
        with pytest.raises(TimeoutError):
            server.accept()


def test_basic_isolation_stubs_sockets() -> None:
    code = "import socket\nsocket.create_connection(('127.0.0.1', 9), timeout=1)"
    result = run_tests(code, "", FAST, isolation="basic")
    assert result.passed is False
    assert "network access is disabled" in result.run.stderr_tail


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_api_key_not_in_environment(isolation: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
    code = "import os\nassert os.environ.get('OPENAI_API_KEY') == 'sk-test-secret'"
    result = run_tests(code, "", FAST, isolation)
    assert (result.passed, result.why) == (
        False, "the code raised AssertionError before the tests",
    )  # fmt: skip


@pytest.mark.parametrize("isolation", BARRIERS)
def test_parent_environment_not_readable_through_proc(isolation: str) -> None:
    code = f"print(open('/proc/{os.getpid()}/environ').read())"
    assert run_tests(code, "", FAST, isolation).passed is False


def test_harness_alive_after_hostile_runs() -> None:
    assert run_tests("x = 1 + 1", "assert x == 2", FAST).passed is True
