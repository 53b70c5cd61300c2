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
a fresh ``/proc`` and ``/dev``, and a size-limited tmpfs as ``/work`` — no project tree, no
datasets, no home directory, no ``/etc``, no ``/tmp``. The root is read-only; there is no network
interface but an isolated loopback. When the harness runs as root the child drops to a uid/gid of
its own (so RLIMIT_NPROC counts only this run); otherwise bubblewrap maps the harness's uid into
a user namespace in which no further namespace can be created.

``namespaces`` (root, ``unshare`` available, no bubblewrap): the same view built by hand:
``unshare --net --mount --pid --fork --kill-child --mount-proc``, then in the private mount
namespace a read-only tmpfs root with the same read-only runtime binds, a size-limited tmpfs as
``/work``, a fresh ``/proc`` and five device nodes, a chroot into it and a drop to the run's own
uid/gid. The PID namespace's death takes every descendant with it.

``basic`` (neither): no namespace at all, so the program runs beside the harness as its user.
It is refused (issue 24: fail closed) unless the user opts in (``--unsafe-sandbox`` or
``workloads.<w>.unsafe_sandbox: true``); figures built on it are then marked unsafe in the
metrics and the report. It keeps the limits, environment, timeout and parent-side verdict above,
``socket`` stubbed out, and a subreaper supervisor that kills whatever the program leaves behind
and polls the working directory against the disk limit.

In every mode the child then puts kernel guards on itself (:mod:`stages.scoring.sandbox_guard`):
seccomp (no sockets, no ptrace, no new namespaces — user namespaces included, which bubblewrap
as root would otherwise allow —, no mounts or io_uring; in basic mode no signal to any other
process) and, where the kernel has Landlock, a file-system view of the runtime, ``/proc``, five
devices and the working directory only: in basic mode the datasets, the gold answers and the
harness's ``/proc/<pid>/environ`` are out of reach as well. Only once the guards are on does the
child send the READY byte; a child that fails before it (a limit it cannot set under a lower
``ulimit -v``/``-n``, a guard the kernel refuses) is a sandbox error, never a wrong verdict.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
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
_GUARD_FILE = Path(__file__).with_name("sandbox_guard.py")
WORK = "/work"
READY = b"\x06"
"""First byte the child writes once its limits and guards are on (see sandbox_boot)."""
UNSAFE_FLAG = "--unsafe-sandbox"
REFUSAL = (
    "code_exec needs a real sandbox, and this machine offers only the basic one: bubblewrap is "
    "not installed and atlas does not run as root, so the model's code would run as your user "
    "beside your files (the datasets' gold answers, API keys in the environment). Install "
    "bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; "
    "Arch: pacman -S bubblewrap), or run as root for hand-built namespaces; or accept figures "
    f"marked unsafe with `atlas score <workload> {UNSAFE_FLAG}` (or "
    "workloads.<workload>.unsafe_sandbox: true in params.yaml)"
)
_unsafe_allowed = False


class SandboxError(AtlasError):
    """The sandbox could not run a program (not the program's fault): scoring stops."""


@contextlib.contextmanager
def allow_unsafe(allowed: bool) -> Iterator[None]:
    """Let code_exec run in the basic sandbox while the body runs, when ``allowed``."""
    global _unsafe_allowed
    previous, _unsafe_allowed = _unsafe_allowed, allowed or _unsafe_allowed
    try:
        yield
    finally:
        _unsafe_allowed = previous


def chosen_mode() -> str:
    """The isolation code_exec runs under: the best available, refusing ``basic`` unless the
    user opted in (:func:`allow_unsafe`)."""
    mode = isolation_mode()
    if mode == "basic" and not _unsafe_allowed:
        raise SandboxError(REFUSAL)
    return mode


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
    disk_mb: int = 32
    """Bytes the run may write into its working directory (a tmpfs of this size; basic mode:
    the supervisor kills the run past it)."""


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
    ``basic``. The mode found is self-tested with a trivial program under the scorer's own
    limits: a sandbox that cannot run correct code would silently mark every item wrong, so that
    is an error instead (:class:`SandboxError`)."""
    mode = next((m for m in ("bwrap", "namespaces") if available(m)), "basic")
    exposed = _exposed_project(runtime_layout()[0])
    if exposed:
        raise SandboxError(
            f"code_exec sandbox: the project ({exposed}) lies inside a directory the sandbox "
            "must show the program read-only (the Python runtime), so the datasets' gold "
            "answers would be readable; move the project elsewhere"
        )
    check = run_program("x = 1", [{"probe": "x + 1"}], Limits(), mode)
    if check.exit_code != 0 or json.loads(check.report or b"{}").get("results") != [{"value": 2}]:
        tail = check.stderr_tail.strip()[-300:]
        raise SandboxError(f"code_exec sandbox ({mode}) self-test failed: {tail}")
    return mode


def _exposed_project(runtime: list[str]) -> str | None:
    here = os.path.realpath(os.getcwd())
    inside = [d for d in runtime if Path(here).is_relative_to(d) and d != "/"]
    return here if inside and (Path(here) / "datasets").is_dir() else None


def _limit_hint(limits: Limits) -> str:
    """Which of the shell's hard limits is below the sandbox's own (the likely cause of a
    self-test failure), as a sentence; empty when none is."""
    wanted = {
        "ulimit -v": (resource.RLIMIT_AS, limits.memory_mb * 1024 * 1024, "MB"),
        "ulimit -n": (resource.RLIMIT_NOFILE, limits.nofile, "files"),
        "ulimit -f": (resource.RLIMIT_FSIZE, limits.fsize_mb * 1024 * 1024, "MB"),
        "ulimit -u": (resource.RLIMIT_NPROC, limits.nproc, "processes"),
        "ulimit -t": (resource.RLIMIT_CPU, limits.cpu_s + 1, "s"),
    }
    low = []
    for shell, (which, need, unit) in wanted.items():
        hard = resource.getrlimit(which)[1]
        if hard != resource.RLIM_INFINITY and hard < need:
            scale = 1024 * 1024 if unit == "MB" else 1
            fix = f"{shell} unlimited" if unit == "MB" else f"{shell} {need}"
            low.append(
                f"`{shell}` is {hard // scale} {unit}, below the sandbox's {need // scale} {unit} "
                f"(raise it: `{fix}`)"
            )
    return "; this shell's hard limit " + ", ".join(low) if low else ""


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


def _bwrap_args(work_bytes: int | None = None) -> list[str]:
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
    if work_bytes is not None:  # the boot enters it once it runs as the run's uid
        args += ["--perms", "01777", "--size", str(work_bytes), "--tmpfs", WORK]
    return [*args, "--remount-ro", "/"]


def _next_uid() -> int:
    with _uid_lock:
        return UID_BASE + (os.getpid() % 1000) * 1000 + next(_uids) % 1000


@cache
def _boot_source() -> str:
    return _BOOT_FILE.read_text(encoding="utf-8")


@cache
def _guard_source() -> str:
    return _GUARD_FILE.read_text(encoding="utf-8")


def _command(isolation: str, limits: Limits) -> list[str]:
    python = [interpreter(), "-I", "-S", "-c", _boot_source()]
    if isolation == "namespaces":
        return [shutil.which("unshare") or "unshare", *_UNSHARE, *python]
    if isolation == "bwrap":
        work_bytes = limits.disk_mb * 1024 * 1024
        return [shutil.which("bwrap") or "bwrap", *_bwrap_args(work_bytes), *python]
    return python


def run_program(
    code: str,
    steps: list[dict[str, str]],
    limits: Limits | None = None,
    isolation: str | None = None,
) -> RunResult:
    """Run ``code`` then the test-plan ``steps`` in a fresh sandbox; return the raw outcome.
    Without ``isolation`` the chosen mode is used (:func:`chosen_mode`: basic only if allowed).
    :class:`SandboxError` when the sandbox failed before the program started."""
    limits = limits or Limits()
    isolation = isolation or chosen_mode()
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
            "guard": _guard_source(),
        }  # fmt: skip
        result = _spawn(config, parent, work, limits, isolation)
    finally:
        shutil.rmtree(parent, ignore_errors=True)
    if result.report is not None and not result.report.startswith(READY):
        tail = (result.stderr_tail.strip().splitlines() or ["no output"])[-1][-300:]
        if result.timed_out:
            tail = f"it did not start within {limits.wall_s:g} s (is the machine overloaded?)"
        raise SandboxError(
            f"code_exec sandbox ({isolation}) failed before the program ran: {tail}"
            f"{_limit_hint(limits)}"
        )
    report = None if result.report is None else result.report[len(READY) :]
    return RunResult(
        result.exit_code, result.timed_out, isolation, report, result.stderr_tail, result.seconds
    )


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
            _command(isolation, limits), stdin=subprocess.PIPE, stdout=out, stderr=err,
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
            if isolation == "basic":  # the supervisor kills the whole tree, setsid escapees too
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=5)
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
