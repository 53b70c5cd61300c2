"""Sandbox for ``code_exec`` (spec 001 scorers; issue 4: "anything the code does is contained; the
item is simply wrong"; issue 12: "a verdict the candidate cannot write").

The child is the base interpreter (``sys.executable`` resolved out of the venv) run as
``python -I -S``: isolated mode, no site-packages, no PYTHON* variables. It receives the code and
the *steps* of a test plan (:mod:`stages.scoring.code_tests`: setup statements and probe
expressions, never an expected value) on stdin and writes a JSON report of the probes' values
to a private pipe. The parent alone compares those values with the expected ones, so neither a
forged report nor an object with a lying ``__eq__`` can pass a test whose answer it does not
compute. Every run has:

- an environment of ``PATH``, ``LANG``, ``HOME`` and ``TMPDIR`` only (no parent variable, no
  secret); its own fresh working directory, deleted after the run;
- resource limits set before the model's code runs: RLIMIT_CPU, RLIMIT_AS (memory),
  RLIMIT_NPROC (processes), RLIMIT_FSIZE (file size, also caps stdout/stderr, which go to
  files), RLIMIT_NOFILE, no core dumps, and ``PR_SET_NO_NEW_PRIVS``;
- a wall-clock timeout, after which the whole process group is killed.

Isolation, the best one available being chosen once per process (:func:`isolation_mode`):

``bwrap`` (bubblewrap installed): new PID, network, IPC, UTS and cgroup namespaces and a root
filesystem holding only the Python runtime (``/usr`` and the interpreter's own prefix, read-only),
a fresh ``/proc`` and ``/dev``, and the working directory as ``/work`` — no project tree, no
datasets, no home directory, no ``/etc``, no ``/tmp``. The root is read-only; there is no network
interface but an isolated loopback. When the harness runs as root the child drops to a uid/gid of
its own (so RLIMIT_NPROC counts only this run); otherwise bubblewrap maps the harness's uid into
a user namespace in which no further namespace can be created.

``namespaces`` (root, ``unshare`` available, no bubblewrap): the same view built by hand:
``unshare --net --mount --pid --fork --kill-child --mount-proc``, then in the private mount
namespace a read-only tmpfs root with the same read-only runtime binds, ``/work``, a fresh
``/proc`` and five device nodes, a chroot into it and a drop to the run's own uid/gid. The PID
namespace's death takes every descendant with it.

``basic`` (neither): the limits, environment, timeout and parent-side verdict above, with
``socket`` replaced by a stub that raises — a speed bump, not a barrier. The child can read every
file the harness's user can read (the datasets included), so a program written to look up the
expected values could pass; results carry ``isolation: basic`` so that such a run is visible.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
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
from typing import Any

from stages.errors import AtlasError

UID_BASE = 1_000_000
REPORT_LIMIT = 8 * 1024 * 1024
_uids = itertools.count()
_uid_lock = threading.Lock()
_UNSHARE = ["--net", "--mount", "--pid", "--fork", "--kill-child", "--mount-proc"]
_BWRAP = [
    "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
    "--die-with-parent", "--new-session",
]  # fmt: skip
_TOP_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
_BOOT_FILE = Path(__file__).with_name("sandbox_boot.py")
WORK = "/work"


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
    """What happened to one sandboxed run (raw: :mod:`stages.scoring.code_tests` judges it)."""

    exit_code: int | None
    """Exit status (-n, or 128+n under namespaces: killed by signal n); None on wall timeout."""
    timed_out: bool
    """The wall-clock timeout expired and the process group was killed."""
    isolation: str
    """``bwrap``, ``namespaces`` or ``basic`` (see the module docstring)."""
    report: bytes | None
    """What arrived on the result pipe (None when more than REPORT_LIMIT bytes did)."""
    stderr_tail: str
    """The last 2000 characters of the child's stderr (for debugging; never in a verdict)."""
    seconds: float
    """Wall-clock duration of the run."""


def interpreter() -> str:
    """The base interpreter of the running Python (a venv's ``python`` is a link to it)."""
    resolved = os.path.realpath(sys.executable)
    if Path(resolved).is_relative_to(os.path.realpath(sys.base_prefix)):
        return resolved
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    return os.path.join(sys.base_prefix, "bin", version)


def runtime_layout() -> tuple[list[str], dict[str, str]]:
    """Directories the child needs (read-only) and the top-level links of a merged /usr."""
    dirs = {"/usr"}
    links: dict[str, str] = {}
    for name in _TOP_LINKS:
        path = f"/{name}"
        if os.path.islink(path):
            links[name] = os.readlink(path)
        elif os.path.isdir(path):
            dirs.add(path)
    for prefix in (sys.base_prefix, sys.base_exec_prefix, os.path.dirname(interpreter())):
        real = os.path.realpath(prefix)
        if not any(Path(real).is_relative_to(d) for d in dirs):
            dirs.add(real)
    ordered = sorted(dirs)
    nested = {d for d in ordered for o in ordered if d != o and Path(d).is_relative_to(o)}
    return [d for d in ordered if d not in nested], links


@cache
def isolation_mode() -> str:
    """``bwrap`` when bubblewrap works, else ``namespaces`` when root and ``unshare`` work, else
    ``basic``. A barrier that is present is self-tested with a trivial program: a sandbox that
    cannot run correct code would silently mark every item wrong, so that is an error instead.
    """
    for mode in ("bwrap", "namespaces"):
        if available(mode):
            check = run_program("x = 1", [{"probe": "x + 1"}], Limits(), mode)
            if check.exit_code != 0 or json.loads(check.report or b"{}").get("results") != [
                {"value": 2}
            ]:
                tail = check.stderr_tail.strip()[-300:]
                raise AtlasError(f"code_exec sandbox ({mode}) self-test failed: {tail}")
            return mode
    return "basic"


def available(mode: str) -> bool:
    """Whether isolation ``mode`` (``bwrap`` or ``namespaces``) can start on this machine."""
    tool = shutil.which("bwrap" if mode == "bwrap" else "unshare")
    if tool is None or (mode == "namespaces" and os.geteuid() != 0):
        return False
    probe = [tool, *_UNSHARE, "true"] if mode == "namespaces" else [tool, *_bwrap_args(), "true"]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=30, check=False)
    except OSError:
        return False
    return done.returncode == 0


def _bwrap_args(work: Path | None = None) -> list[str]:
    dirs, links = runtime_layout()
    args = list(_BWRAP)
    if os.geteuid() == 0:  # the boot drops to the run's own uid itself
        args += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        args += ["--unshare-user", "--disable-userns"]
    for name, target in links.items():
        args += ["--symlink", target, f"/{name}"]
    for path in dirs:
        parents = Path(path).parents
        for parent in reversed(parents[:-1]):  # traversable parents (/root is 0700 on the host)
            args += ["--perms", "0755", "--dir", str(parent)]
        args += ["--ro-bind", path, path]
    args += ["--proc", "/proc", "--dev", "/dev"]
    if work is not None:
        args += ["--bind", str(work), WORK]  # the boot enters it once it runs as the run's uid
    return [*args, "--remount-ro", "/"]


def _next_uid() -> int:
    with _uid_lock:
        return UID_BASE + (os.getpid() % 1000) * 1000 + next(_uids) % 1000


@cache
def _boot_source() -> str:
    return _BOOT_FILE.read_text(encoding="utf-8")


def _command(isolation: str, work: Path) -> list[str]:
    python = [interpreter(), "-I", "-S", "-c", _boot_source()]
    if isolation == "namespaces":
        return [shutil.which("unshare") or "unshare", *_UNSHARE, *python]
    if isolation == "bwrap":
        return [shutil.which("bwrap") or "bwrap", *_bwrap_args(work), *python]
    return python


def run_program(
    code: str,
    steps: list[dict[str, str]],
    limits: Limits | None = None,
    isolation: str | None = None,
) -> RunResult:
    """Run ``code`` then the test-plan ``steps`` in a fresh sandbox; return the raw outcome."""
    limits = limits or Limits()
    isolation = isolation or isolation_mode()
    uid = _next_uid() if os.geteuid() == 0 and isolation != "basic" else None
    parent = Path(tempfile.mkdtemp(prefix="atlas-sbx-"))  # 0700, owned by the harness
    try:
        work = parent / "work"
        work.mkdir(mode=0o700)
        if uid is not None:
            os.chown(work, uid, uid)
        runtime, links = runtime_layout()
        config: dict[str, Any] = {
            "isolation": isolation, "work": str(work), "uid": uid, "limits": asdict(limits),
            "code": code, "steps": steps, "runtime": runtime, "links": links,
        }  # fmt: skip
        return _spawn(config, parent, work, limits, isolation)
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def _spawn(
    config: dict[str, Any], parent: Path, work: Path, limits: Limits, isolation: str
) -> RunResult:
    home = str(work) if isolation == "basic" else WORK
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home, "TMPDIR": home}
    result_read, result_write = os.pipe()
    config["result_fd"] = result_write
    received = _Collector(result_read)
    started = time.monotonic()
    with (parent / "stdout").open("wb") as out, (parent / "stderr").open("wb") as err:
        proc = subprocess.Popen(
            _command(isolation, work), stdin=subprocess.PIPE, stdout=out, stderr=err,
            cwd=work, env=env, pass_fds=(result_write,), start_new_session=True,
        )  # fmt: skip
        os.close(result_write)
        received.start()
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
    report = received.finish(limits.wall_s)
    seconds = time.monotonic() - started
    tail = (parent / "stderr").read_bytes()[-2000:].decode("utf-8", errors="replace")
    code = None if timed_out else proc.returncode
    return RunResult(code, timed_out, isolation, report, tail, seconds)


class _Collector(threading.Thread):
    """Reads the result pipe while the child runs (a report larger than the pipe buffer would
    otherwise block the child until the wall-clock limit); keeps at most REPORT_LIMIT bytes."""

    def __init__(self, fd: int) -> None:
        super().__init__(daemon=True)
        self.fd, self.chunks, self.size = fd, list[bytes](), 0

    def run(self) -> None:
        with contextlib.suppress(OSError):
            while chunk := os.read(self.fd, 65536):
                self.size += len(chunk)
                if self.size <= REPORT_LIMIT:
                    self.chunks.append(chunk)

    def finish(self, wait_s: float) -> bytes | None:
        """What arrived: None past REPORT_LIMIT; what came so far if a leftover process still
        holds the pipe open (basic isolation only) after ``wait_s``."""
        self.join(timeout=wait_s)  # EOF once every holder of the write end is gone
        with contextlib.suppress(OSError):
            os.close(self.fd)
        return None if self.size > REPORT_LIMIT else b"".join(self.chunks)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
