"""Issue 24: hostile code_exec payloads in every isolation mode — none reads the harness's
environment, reaches the network, signals or traces the harness, outlives its verdict, forges
the verdict channel, creates a user namespace or fills the disk; the basic mode is refused
unless opted in; a lower ``ulimit -v``/``-n`` than the sandbox's own is a self-test error.

Each payload sets ``got``: the value it would only have if the barrier failed; the test asserts
the value the barrier leaves (usually an exception's name or False).
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from stages.errors import AtlasError
from stages.scoring import code_exec, sandbox
from stages.scoring.code_exec import run_tests
from stages.scoring.sandbox import Limits, available
from stages.scoring.sandbox_guard import landlock_abi

FAST = Limits(cpu_s=2, wall_s=15.0)
LANDLOCK = landlock_abi(ctypes.CDLL(None, use_errno=True)) > 0
BARRIERS = [
    pytest.param(mode, marks=pytest.mark.skipif(not available(mode), reason=f"no {mode} here"))
    for mode in ("bwrap", "namespaces")
]
BASIC = pytest.param(
    "basic", marks=pytest.mark.skipif(not LANDLOCK, reason="no Landlock: basic cannot hide files")
)
ALL_MODES = [*BARRIERS, "basic"]
SECRET = "sk-harness-secret-91c3"


def _got(code: str, isolation: str, limits: Limits = FAST) -> Any:
    """Run ``code`` (which sets ``got``) and return the value the child reported for ``got``."""
    result = run_tests(code, "assert got == '__never__'", limits, isolation)
    assert result.run.report, result.run.stderr_tail
    outcome = json.loads(result.run.report)["results"][0]
    return outcome.get("value", outcome)


def _attempt(body: str) -> str:
    """Code that sets ``got`` to 'done' when ``body`` runs through, else the exception's name."""
    indented = "\n".join("    " + line for line in body.splitlines())
    caught = "except BaseException as exc:\n    got = type(exc).__name__"
    return f"try:\n{indented}\n    got = 'done'\n{caught}"


@pytest.mark.parametrize("isolation", [*BARRIERS, BASIC])
def test_harness_environment_is_unreadable(isolation: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ATLAS_API_KEY", SECRET)
    harness = os.getpid()
    for pid in (str(harness), "os.getppid()", "1"):
        code = "import os\n" + _attempt(
            f"got = {SECRET!r} in open(f'/proc/{{{pid}}}/environ').read()"
        )
        assert _got(code, isolation) in ("PermissionError", "FileNotFoundError"), pid
    mem = "import os\n" + _attempt(f"open('/proc/{harness}/mem', 'rb').read(1)")
    assert _got(mem, isolation) in ("PermissionError", "FileNotFoundError")


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_raw_socket_module_reaches_no_listener(isolation: str, tmp_path: Path) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.3)
        port = server.getsockname()[1]
        connect = f"s.connect(('127.0.0.1', {port}))"
        raw = "import _socket\n" + _attempt(
            f"s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)\n{connect}"
        )
        assert _got(raw, isolation) == "PermissionError"
        unix = "import _socket\n" + _attempt(
            "s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)"
        )
        assert _got(unix, isolation) == "PermissionError"
        with pytest.raises(TimeoutError):
            server.accept()


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_harness_cannot_be_signalled_or_traced(isolation: str) -> None:
    received: list[int] = []
    previous = signal.signal(signal.SIGUSR1, lambda number, frame: received.append(number))
    harness = os.getpid()
    try:
        kill = "import os, signal\n" + _attempt(f"os.kill({harness}, signal.SIGUSR1)")
        assert _got(kill, isolation) in ("PermissionError", "ProcessLookupError")
        # its process group (the supervisor's, under basic): basic refuses even to probe it
        group = "import os\n" + _attempt("os.kill(0, 0)")
        assert _got(group, isolation) == ("PermissionError" if isolation == "basic" else "done")
        seize = (
            "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            f"got = [libc.ptrace(0x4206, {harness}, 0, 0), libc.ptrace(0x4206, 1, 0, 0)]"
        )
        assert _got(seize, isolation) == [-1, -1]
        read_memory = (
            "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            "buf = ctypes.create_string_buffer(8)\n"
            "local = (ctypes.c_void_p * 2)(ctypes.addressof(buf), 8)\n"
            "remote = (ctypes.c_void_p * 2)(4096, 8)\n"
            f"got = libc.process_vm_readv({harness}, local, 1, remote, 1, 0)"
        )
        assert _got(read_memory, isolation) == -1
        time.sleep(0.2)
        assert received == []
    finally:
        signal.signal(signal.SIGUSR1, previous)


LINGER = """\
import os, time
r, w = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.write(w, str(os.getpid()).encode())
        time.sleep(5)
        open('/tmp/atlas-lingered-' + str(os.getpid()), 'w').write('acted after the verdict')
        os._exit(0)
    os._exit(0)
got = int(os.read(r, 20))
"""


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_no_process_outlives_its_verdict(isolation: str) -> None:
    pid = _got(LINGER, isolation)
    assert isinstance(pid, int)
    if isolation == "basic":  # a host pid: it must be gone (the barriers' die with their namespace)
        assert not Path(f"/proc/{pid}").exists()
    time.sleep(5.5)
    assert list(Path("/tmp").glob("atlas-lingered-*")) == []


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_forging_the_verdict_channel_is_judged_like_any_value(isolation: str) -> None:
    # READY byte plus a well-formed report of plausible values, written to every descriptor
    forge = (
        "import json, os\n"
        "fake = b'\\x06' + json.dumps({'code_error': None, 'setup_error': None,\n"
        "    'results': [{'value': 6}, {'value': 1}]}).encode()\n"
        "for fd in range(3, 64):\n"
        "    try:\n        os.write(fd, fake)\n    except OSError:\n        pass\n"
        "os._exit(0)\n"
    )
    tests = "assert add(2, 3) == 5\nassert add(-1, 1) == 0"
    result = run_tests(forge, tests, FAST, isolation)
    assert (result.passed, result.why) == (False, "its result report is malformed")
    late = LINGER.replace(
        "open('/tmp/atlas-lingered-' + str(os.getpid()), 'w')", "os.fdopen(3, 'w')"
    )
    result = run_tests(late + "def add(a, b):\n    return a + b\n", tests, FAST, isolation)
    assert (result.passed, result.why) == (True, "2 tests passed")


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_no_user_namespace_even_as_root(isolation: str) -> None:
    code = (
        "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "got = [libc.unshare(0x10000000), ctypes.get_errno(), libc.unshare(0x00020000),"
        " libc.syscall(435, 0, 0)]"
    )
    assert _got(code, isolation) == [-1, 1, -1, -1]  # EPERM; clone3: ENOSYS
    spawn = "import subprocess\ngot = subprocess.run(['unshare', '--user', 'true']).returncode"
    assert _got(spawn, isolation) != 0


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_bytes_written_to_the_work_directory_are_capped(isolation: str) -> None:
    limits = Limits(cpu_s=5, wall_s=20.0, disk_mb=8)
    code = (
        "import os\ngot = 0\nblock = b'x' * (1 << 20)\n"
        "try:\n"
        "    for i in range(160):\n"
        "        with open(f'f{i}', 'wb') as out:\n"
        "            out.write(block)\n"
        "        got += 1\n"
        "except OSError:\n    pass\n"
    )
    result = run_tests(code, "assert got == '__never__'", limits, isolation)
    if result.run.exit_code == 0:  # the tmpfs filled up: the writes failed
        written = json.loads(result.run.report or b"{}")["results"][0]["value"]
        assert written <= 8
    else:  # basic: the supervisor saw the directory pass its limit and stopped the run
        assert isolation == "basic"
        assert result.why == "killed by signal SIGKILL before reporting"


def test_basic_mode_is_refused_without_the_opt_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "isolation_mode", lambda: "basic")
    monkeypatch.setattr(sandbox, "_unsafe_allowed", False)
    row = {"id": "c1", "answer": "add", "tests": "assert add(1, 1) == 2"}
    output = {"output": "def add(a, b):\n    return a + b", "error": None}
    with pytest.raises(AtlasError) as refused:
        code_exec.score(row, output, Path("."))
    assert str(refused.value) == ("row c1: " + sandbox.REFUSAL)
    assert "apt-get install bubblewrap" in sandbox.REFUSAL and "--unsafe-sandbox" in sandbox.REFUSAL
    with sandbox.allow_unsafe(True):
        verdict = code_exec.score(row, output, Path("."))
    assert (verdict.correct, verdict.extras["isolation"]) == (True, "basic")


HARNESS = """\
import resource, sys
resource.setrlimit(getattr(resource, sys.argv[1]), (int(sys.argv[2]), int(sys.argv[2])))
from stages.errors import AtlasError
from stages.scoring.code_exec import run_tests
try:
    code = "def add(a, b):\\n    return a + b"
    result = run_tests(code, "assert add(2, 3) == 5", None, sys.argv[3])
except AtlasError as exc:
    print("ERROR", exc)
else:
    print("PASSED" if result.passed else "WRONG", result.why)
"""


@pytest.mark.parametrize("isolation", ALL_MODES)
@pytest.mark.parametrize(("which", "value"), [("RLIMIT_AS", 400 << 20), ("RLIMIT_NOFILE", 32)])
def test_lower_shell_limits_are_a_sandbox_error_never_a_wrong_verdict(
    isolation: str, which: str, value: int
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", HARNESS, which, str(value), isolation],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    out = done.stdout.strip()
    if out.startswith("PASSED"):  # a root with CAP_SYS_RESOURCE raises its hard limit again
        assert (os.geteuid(), isolation, out) == (0, "basic", "PASSED 1 tests passed")
        return
    assert out.startswith(f"ERROR code_exec sandbox ({isolation}) failed before the program ran"), (
        out, done.stderr,
    )  # fmt: skip
    shell, need = ("ulimit -v", "512 MB") if which == "RLIMIT_AS" else ("ulimit -n", "64")
    assert f"this shell's hard limit `{shell}` is" in out and f"below the sandbox's {need}" in out
