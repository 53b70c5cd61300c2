"""Child side of the code_exec sandbox (see :mod:`stages.scoring.sandbox` for the design).

Run as ``python -I -c <this file's text>``; standard library only. Reads its configuration (code,
tests, limits, uid, nonce, result fd) from stdin. Under namespaces isolation it then, as root in
the fresh namespaces: exposes the Python installation if it lives in a private directory,
binds the working directory onto itself and remounts every other mount read-only + nosuid; and
forks, staying behind as PID 1 of the namespace (the model's code must not be PID 1, whose
default-action signals such as SIGXCPU the kernel ignores). The process that runs the model's
code sets the resource limits and no-new-privileges, drops to the run's own uid/gid (or, under
basic isolation, stubs out ``socket``), then executes the code and the row's tests in a module
named ``solution``. Writing the nonce to the result fd after the tests is the only way to pass.
"""

from __future__ import annotations

import builtins
import ctypes
import json
import os
import re
import resource
import signal
import sys
import traceback
import types
from typing import Any

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC = 32, 4096, 16384
PR_SET_NO_NEW_PRIVS = 38
MB = 1024 * 1024
_OCTAL_ESCAPE = re.compile(r"\\([0-7]{3})")


def _mount_points() -> list[tuple[str, str]]:
    points = []
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            target = _OCTAL_ESCAPE.sub(lambda m: chr(int(m[1], 8)), fields[4])  # \040 = space
            points.append((target, fields[5]))
    return points


def _mounter(libc: Any) -> Any:
    def mount(source: str | None, target: str, flags: int, fstype: str | None = None) -> None:
        src = source.encode() if source else None
        kind = fstype.encode() if fstype else None
        if libc.mount(src, target.encode(), kind, flags, None) != 0:
            raise OSError(ctypes.get_errno(), f"mount {target}")

    return mount


def _closed_ancestor(path: str) -> str | None:
    """The highest ancestor of ``path`` that other users cannot traverse, if any."""
    current = "/"
    for part in path.strip("/").split("/")[:-1]:
        current = os.path.join(current, part)
        if not os.stat(current).st_mode & 0o001:
            return current
    return None


def _expose_interpreter(mount: Any, scratch: str) -> None:
    """Make the Python installation readable for the unprivileged uid.

    An interpreter installed under a private directory (pyenv in a 0700 /root) would otherwise
    fail every import the boot did not already do. The private directory is covered by an
    empty tmpfs holding only the interpreter's directories, bound back in: the rest of it (and
    any secret in it) stays out of reach.
    """
    roots = {os.path.realpath(p) for p in (sys.base_prefix, sys.base_exec_prefix, sys.prefix)}
    closed: dict[str, list[str]] = {}
    for root in sorted(roots):
        ancestor = _closed_ancestor(root)
        if ancestor is not None:
            closed.setdefault(ancestor, []).append(root)
    for number, (ancestor, inner) in enumerate(sorted(closed.items())):
        stashes = []
        for index, root in enumerate(inner):
            stash = os.path.join(scratch, f"expose-{number}-{index}")
            os.mkdir(stash, 0o700)
            mount(root, stash, MS_BIND | MS_REC)
            stashes.append(stash)
        mount("tmpfs", ancestor, MS_NOSUID | MS_NODEV, "tmpfs")
        os.chmod(ancestor, 0o755)
        for root, stash in zip(inner, stashes, strict=True):
            os.makedirs(root, 0o755, exist_ok=True)
            mount(stash, root, MS_BIND | MS_REC)


def _lock_filesystem(libc: Any, work: str) -> None:
    mount = _mounter(libc)
    _expose_interpreter(mount, os.path.dirname(work))
    mount(work, work, MS_BIND)
    mount(None, work, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV)
    os.chdir(work)  # the cwd must be the bind mount, not the (soon read-only) directory under it
    for target, options in _mount_points():
        if target == work:
            continue
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID
        flags |= MS_NODEV if "nodev" in options.split(",") else 0
        flags |= MS_NOEXEC if "noexec" in options.split(",") else 0
        try:
            mount(None, target, flags)
        except OSError:
            if target == "/":
                raise


def _set_limits(limits: dict[str, Any]) -> None:
    # unshare --fork leaves signals blocked; SIGXCPU must be deliverable at the soft CPU limit
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGXCPU, signal.SIG_DFL)
    cpu = int(limits["cpu_s"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_AS, (limits["memory_mb"] * MB,) * 2)
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["nproc"],) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["fsize_mb"] * MB,) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits["nofile"],) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _no_network() -> None:
    import socket

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError("network access is disabled in the sandbox")

    socket.socket = refuse  # type: ignore[assignment,misc]
    socket.create_connection = refuse
    socket.getaddrinfo = refuse


def _init_until(child: int) -> None:
    """PID 1 of the namespace: reap orphans until ``child`` ends, then exit with its status.

    The model's code must not run as PID 1 itself: the kernel ignores default-action signals
    for a namespace init, SIGXCPU at the soft CPU limit included.
    """
    while True:
        pid, status = os.waitpid(-1, 0)
        if pid == child:
            code = os.waitstatus_to_exitcode(status)
            os._exit(code if code >= 0 else 128 - code)


def _run_model_code(config: dict[str, Any], libc: Any) -> None:
    _set_limits(config["limits"])
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    if config["isolation"] == "namespaces":
        os.setgroups([])
        os.setgid(config["uid"])
        os.setuid(config["uid"])
    else:
        _no_network()
    result_fd, nonce = config["result_fd"], config["nonce"]
    module = types.ModuleType("solution")
    module.__dict__["__builtins__"] = builtins
    sys.modules["solution"] = module
    code, tests = config["code"], config["tests"]
    config.clear()
    try:
        exec(compile(code, "solution.py", "exec"), module.__dict__)
        exec(compile(tests, "tests.py", "exec"), module.__dict__)
    except BaseException:  # SystemExit too: leaving before the tests finished is a failure
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
    sys.stdout.flush()
    os.write(result_fd, nonce.encode())
    os._exit(0)


def main() -> None:
    config = json.loads(sys.stdin.buffer.read())
    sys.stdin.close()
    libc = ctypes.CDLL(None, use_errno=True)
    if config["isolation"] == "namespaces":
        _lock_filesystem(libc, config["work"])
        child = os.fork()
        if child:
            _init_until(child)
    _run_model_code(config, libc)


if __name__ == "__main__":
    main()
