"""Sandbox for ``code_exec`` (spec 001 scorers; issue 4: "anything the code does is contained; the
item is simply wrong").

Every run gets a child process ``sys.executable -I`` (isolated mode: no user site, no PYTHON*
variables, no script directory on sys.path) with:
- its own temporary directory as working directory, ``HOME`` and ``TMPDIR``, inside a parent
  directory only the harness can enter (so ``../`` leads nowhere writable);
- an environment of ``PATH`` and ``LANG`` only: no parent variables, no secrets;
- resource limits set before the model's code runs: RLIMIT_CPU, RLIMIT_AS (memory),
  RLIMIT_NPROC (processes), RLIMIT_FSIZE (file size, also caps stdout/stderr, which go to
  files), RLIMIT_NOFILE, no core dumps, and ``PR_SET_NO_NEW_PRIVS``;
- a wall-clock timeout, after which the whole process group is killed (``start_new_session``);
- the code and tests arrive on stdin and success is a random nonce written to a private pipe
  *after* the tests ran, so ``sys.exit(0)`` or ``os._exit(0)`` before the tests is not a pass.

Isolation ``namespaces`` (used when running as root and ``unshare`` works — the kernel barrier):
the child runs under ``unshare --net --mount --pid --fork --kill-child --mount-proc``: a network
namespace with no interface up (no network at all), a private mount namespace in which every
mount except the working directory is remounted read-only and nosuid, a PID namespace whose
death takes every descendant with it (even ones that called setsid), and a fresh /proc. It
then drops to a uid/gid of its own (no supplementary groups) before the model's code runs, so
RLIMIT_NPROC counts only this run's processes and nothing it can write survives the run except
the working directory, which is deleted.

Isolation ``basic`` (fallback when not root or no ``unshare``): the same limits, environment and
timeout, with ``socket`` replaced by a stub that raises — a speed bump, not a barrier.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from stages.errors import AtlasError

UID_BASE = 1_000_000
_uids = itertools.count()
_uid_lock = threading.Lock()
_UNSHARE = ["--net", "--mount", "--pid", "--fork", "--kill-child", "--mount-proc"]
_BOOT_FILE = Path(__file__).with_name("sandbox_boot.py")


@dataclass(frozen=True)
class Limits:
    """Resource limits of one sandboxed run."""

    cpu_s: int = 5
    """CPU seconds (RLIMIT_CPU soft limit; SIGKILL one second later)."""
    wall_s: float = 10.0
    """Wall-clock seconds before the process group is killed."""
    memory_mb: int = 512
    """Address space (RLIMIT_AS)."""
    nproc: int = 32
    """Processes and threads of the run's uid (RLIMIT_NPROC)."""
    fsize_mb: int = 16
    """Largest file the run may write, stdout/stderr included (RLIMIT_FSIZE)."""
    nofile: int = 64
    """Open file descriptors (RLIMIT_NOFILE)."""


@dataclass(frozen=True)
class RunResult:
    """What happened to one sandboxed run."""

    passed: bool
    """Exit code 0 *and* the post-test nonce arrived: the tests ran to the end."""
    exit_code: int | None
    """Exit status (-n, or 128+n under namespaces: killed by signal n); None on wall timeout."""
    timed_out: bool
    """The wall-clock timeout expired and the process group was killed."""
    isolation: str
    """``namespaces`` or ``basic`` (see the module docstring)."""
    stderr_tail: str
    """The last 2000 characters of the child's stderr."""
    seconds: float
    """Wall-clock duration of the run."""


@cache
def isolation_mode() -> str:
    """``namespaces`` when root and ``unshare`` can create the namespaces, else ``basic``.

    The namespaces path is self-tested once with a trivial passing program: a sandbox that
    cannot run correct code would silently mark every item wrong, so that is an error instead.
    """
    unshare = shutil.which("unshare")
    if os.geteuid() != 0 or unshare is None:
        return "basic"
    probe = subprocess.run(
        [unshare, *_UNSHARE, "true"], capture_output=True, timeout=30, check=False
    )
    if probe.returncode != 0:
        return "basic"
    check = run_python("", "assert True", Limits(), "namespaces")
    if not check.passed:
        raise AtlasError(f"code_exec sandbox self-test failed: {check.stderr_tail.strip()[-300:]}")
    return "namespaces"


def _next_uid() -> int:
    with _uid_lock:
        return UID_BASE + (os.getpid() % 1000) * 1000 + next(_uids) % 1000


@cache
def _boot_source() -> str:
    return _BOOT_FILE.read_text(encoding="utf-8")


def _command(isolation: str) -> list[str]:
    python = [sys.executable, "-I", "-c", _boot_source()]
    if isolation == "namespaces":
        return [shutil.which("unshare") or "unshare", *_UNSHARE, *python]
    return python


def run_python(
    code: str, tests: str, limits: Limits | None = None, isolation: str | None = None
) -> RunResult:
    """Run ``code`` then ``tests`` in a fresh sandbox and report whether the tests completed."""
    limits = limits or Limits()
    isolation = isolation or isolation_mode()
    nonce = secrets.token_hex(16)
    uid = _next_uid()
    parent = Path(tempfile.mkdtemp(prefix="atlas-sbx-"))  # 0700, owned by the harness
    try:
        work = parent / "work"
        work.mkdir(mode=0o700)
        if isolation == "namespaces":
            os.chown(work, uid, uid)
        config = {
            "isolation": isolation, "work": str(work), "uid": uid, "nonce": nonce,
            "limits": asdict(limits), "code": code, "tests": tests,
        }  # fmt: skip
        return _spawn(config, parent, work, limits, isolation, nonce)
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def _spawn(
    config: dict[str, object], parent: Path, work: Path, limits: Limits, isolation: str, nonce: str
) -> RunResult:
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(work), "TMPDIR": str(work)}
    result_read, result_write = os.pipe()
    config["result_fd"] = result_write
    os.set_blocking(result_read, False)
    started = time.monotonic()
    with (parent / "stdout").open("wb") as out, (parent / "stderr").open("wb") as err:
        proc = subprocess.Popen(
            _command(isolation), stdin=subprocess.PIPE, stdout=out, stderr=err,
            cwd=work, env=env, pass_fds=(result_write,), start_new_session=True,
        )  # fmt: skip
        os.close(result_write)
        timed_out = False
        try:
            assert proc.stdin is not None
            try:
                proc.stdin.write(json.dumps(config).encode())
                proc.stdin.close()
            except BrokenPipeError:
                pass
            proc.wait(timeout=limits.wall_s)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            _kill_group(proc.pid)
            proc.wait()
    seconds = time.monotonic() - started
    try:
        received = os.read(result_read, 64).decode(errors="replace")
    except BlockingIOError:
        received = ""
    finally:
        os.close(result_read)
    tail = (parent / "stderr").read_bytes()[-2000:].decode("utf-8", errors="replace")
    code = None if timed_out else proc.returncode
    passed = code == 0 and received == nonce
    return RunResult(passed, code, timed_out, isolation, tail, seconds)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
