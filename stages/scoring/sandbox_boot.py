"""Child side of the code_exec sandbox (see :mod:`stages.scoring.sandbox` for the design).

Run as ``python -I -S -c <this file's text>``; standard library only. Reads its configuration
(code, steps, limits, uid, result fd) from stdin. Under ``namespaces`` isolation it first builds
the run's own root filesystem, as root in the fresh namespaces: a read-only tmpfs holding only
the Python runtime (bound read-only), the working directory (``/work``), a fresh ``/proc`` and a
few device nodes, then chroots into it and forks, staying behind as PID 1 of the namespace (the
model's code must not be PID 1, whose default-action signals such as SIGXCPU the kernel
ignores). Under ``bwrap`` bubblewrap has built that root already.

Under ``basic`` isolation the boot forks too and stays behind as a *subreaper* supervisor: every
process the model's code leaves (double forks and ``setsid`` included) is re-parented to it, and
all of them are killed before it exits, so nothing acts after the verdict; it also kills the run
when its working directory grows past the disk limit (the other modes mount a size-limited tmpfs).

The process that runs the model's code sets the resource limits and no-new-privileges, drops to
the run's own uid/gid (or, under basic isolation, stubs out ``socket``), puts the kernel guards
of :mod:`stages.scoring.sandbox_guard` on itself (seccomp, Landlock), writes the READY byte to the
result pipe — everything that fails before it is the sandbox's failure, not the program's —
executes the code in a module named ``solution``, then the steps: ``setup`` statements are
executed in that module, ``probe`` expressions are evaluated and their values written back as
plain JSON data. The child never receives an expected value, so nothing it writes can name the
right answer by itself.
"""

from __future__ import annotations

import builtins
import contextlib
import ctypes
import json
import os
import resource
import signal
import sys
import time
import traceback
import types
from typing import Any

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC = 32, 4096, 16384
PR_SET_NO_NEW_PRIVS, PR_SET_CHILD_SUBREAPER = 38, 36
MB = 1024 * 1024
DEVICES = ("null", "zero", "full", "random", "urandom")
PLAIN_DEPTH = 100
READY = b"\x06"
"""First byte on the result pipe: the guards are on and the model's code starts now."""
POLL_S = 0.01
MAX_ENTRIES = 4096
"""Basic mode: more files than this in the working directory stops the run like the byte cap."""


def _mounter(libc: Any) -> Any:
    def mount(
        source: str | None,
        target: str,
        flags: int,
        fstype: str | None = None,
        data: str | None = None,
    ) -> None:
        src = source.encode() if source else None
        kind = fstype.encode() if fstype else None
        options = data.encode() if data else None
        if libc.mount(src, target.encode(), kind, flags, options) != 0:
            raise OSError(ctypes.get_errno(), f"mount {target}")

    return mount


def _bind_read_only(mount: Any, source: str, target: str) -> None:
    mount(source, target, MS_BIND | MS_REC)
    flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID
    try:
        mount(None, target, flags)
    except OSError:  # a source mounted nodev/noexec keeps those flags on its binds
        mount(None, target, flags | MS_NODEV | MS_NOEXEC)


def _enter_minimal_root(
    libc: Any, work: str, runtime: list[str], links: dict[str, str], uid: int, disk_mb: int
) -> None:
    """Build the run's root filesystem next to ``work`` and chroot into it (namespaces only);
    ``/work`` is a tmpfs of ``disk_mb`` owned by the run's uid."""
    mount = _mounter(libc)
    root = os.path.join(os.path.dirname(work), "root")
    os.mkdir(root, 0o755)
    mount("tmpfs", root, MS_NOSUID | MS_NODEV, "tmpfs")
    os.chmod(root, 0o755)
    for path in runtime:  # the Python installation and the system libraries it loads
        inside = root + path
        os.makedirs(inside, 0o755, exist_ok=True)
        _bind_read_only(mount, path, inside)
    for name, target in links.items():  # /lib -> usr/lib and friends on merged-/usr systems
        os.symlink(target, os.path.join(root, name))
    os.mkdir(root + "/work", 0o755)
    options = f"size={disk_mb}m,mode=0700,uid={uid},gid={uid}"
    mount("tmpfs", root + "/work", MS_NOSUID | MS_NODEV, "tmpfs", options)
    os.mkdir(root + "/proc", 0o555)
    mount("proc", root + "/proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "proc")
    os.mkdir(root + "/dev", 0o755)
    for device in DEVICES:
        node = f"{root}/dev/{device}"
        open(node, "w").close()  # noqa: SIM115 - an empty mount point for the device node
        mount(f"/dev/{device}", node, MS_BIND)
    mount(None, root, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.chroot(root)
    os.chdir("/work")


def _set_limits(limits: dict[str, Any]) -> None:
    # unshare --fork leaves signals blocked; SIGXCPU must be deliverable at the soft CPU limit
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGXCPU, signal.SIG_DFL)
    cpu = int(limits["cpu_s"])
    wanted = [
        ("RLIMIT_CPU", resource.RLIMIT_CPU, (cpu, cpu + 1)),
        ("RLIMIT_AS", resource.RLIMIT_AS, (limits["memory_mb"] * MB,) * 2),
        ("RLIMIT_NPROC", resource.RLIMIT_NPROC, (limits["nproc"],) * 2),
        ("RLIMIT_FSIZE", resource.RLIMIT_FSIZE, (limits["fsize_mb"] * MB,) * 2),
        ("RLIMIT_NOFILE", resource.RLIMIT_NOFILE, (limits["nofile"],) * 2),
        ("RLIMIT_CORE", resource.RLIMIT_CORE, (0, 0)),
    ]
    for name, which, values in wanted:
        try:
            resource.setrlimit(which, values)
        except (ValueError, OSError) as exc:  # a lower hard limit than ours, and no privilege
            sys.stderr.write(f"sandbox: cannot set {name} to {values[1]}: {exc}\n")
            os._exit(125)


def _no_network() -> None:
    import socket

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError("network access is disabled in the sandbox")

    socket.socket = refuse  # type: ignore[assignment,misc]
    socket.create_connection = refuse
    socket.getaddrinfo = refuse


def _exit_like(status: int) -> None:
    code = os.waitstatus_to_exitcode(status)
    os._exit(code if code >= 0 else 128 - code)


def _init_until(child: int) -> None:
    """PID 1 of the namespace: reap orphans until ``child`` ends, then exit with its status."""
    while True:
        pid, status = os.waitpid(-1, 0)
        if pid == child:
            _exit_like(status)


def _usage(work: str) -> tuple[int, int]:
    """(bytes allocated, entries) under ``work``, stopping early past MAX_ENTRIES."""
    used = entries = 0
    stack = [work]
    while stack and entries <= MAX_ENTRIES:
        try:
            with os.scandir(stack.pop()) as listing:
                for entry in listing:
                    entries += 1
                    info = entry.stat(follow_symlinks=False)
                    used += info.st_blocks * 512
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except OSError:
            continue
    return used, entries


def _children(me: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as handle:
                    fields = handle.read().rpartition(b")")[2].split()
            except OSError:
                continue
            if len(fields) > 1 and int(fields[1]) == me:
                found.append(int(name))
    return found


def _kill_descendants() -> None:
    """Kill every process left below this subreaper (orphans come to it) and reap them all."""
    me = os.getpid()
    while True:
        for pid in _children(me):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            return
        time.sleep(0.001)


def _supervise(child: int, work: str, disk_bytes: int) -> None:
    """Basic mode: wait for ``child``, killing it if its working directory grows past
    ``disk_bytes`` (or MAX_ENTRIES files); then kill what it left and exit with its status. The
    harness's SIGTERM (the wall-clock limit) ends the run the same way."""
    stop: list[int] = []
    signal.signal(signal.SIGTERM, lambda number, frame: stop.append(number))
    status = None
    while status is None:
        try:
            pid, found = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == child:
            status = found
            continue
        if pid == 0:
            used, entries = _usage(work)
            if stop:
                os.kill(child, signal.SIGKILL)
            elif used > disk_bytes or entries > MAX_ENTRIES:
                sys.stderr.write("sandbox: the working directory passed its size limit\n")
                os.kill(child, signal.SIGKILL)
            time.sleep(POLL_S)
    _kill_descendants()
    _exit_like(status if status is not None else 0)


def plain(value: Any, depth: int = 0) -> Any:
    """``value`` as tagged JSON data, or raise TypeError when it is not plain built-in data.

    Exact built-in types only (a subclass of int or a class with its own ``__eq__`` is not
    plain): None, bool, int, float, str and lists as JSON; tuple, set, frozenset, dict, bytes
    and complex as one-key objects ``{"tuple": [...]}``, ``{"dict": [[k, v], ...]}``, ...
    """
    kind = type(value)
    if depth > PLAIN_DEPTH:
        raise TypeError("nested too deeply")
    if value is None or kind in (bool, int, float, str):
        return value
    if kind is list:
        return [plain(item, depth + 1) for item in value]
    if kind in (tuple, set, frozenset):
        return {kind.__name__: [plain(item, depth + 1) for item in value]}
    if kind is dict:
        return {"dict": [[plain(k, depth + 1), plain(v, depth + 1)] for k, v in value.items()]}
    if kind is bytes:
        return {"bytes": value.hex()}
    if kind is complex:
        return {"complex": [value.real, value.imag]}
    raise TypeError("not plain data")


def _outcome(source: str, namespace: dict[str, Any], pristine: dict[str, Any]) -> dict[str, Any]:
    scope = dict(namespace)
    scope["__builtins__"] = dict(pristine)  # a builtins namespace the code could not patch
    try:
        value = eval(compile(source, "<probe>", "eval"), scope)  # noqa: S307 - sandboxed
    except BaseException as exc:  # noqa: BLE001 - every failure of a probe is reported
        return {"raised": type(exc).__name__}
    try:
        return {"value": plain(value)}
    except (TypeError, RecursionError, ValueError):
        return {"opaque": True}


def _guard(config: dict[str, Any], libc: Any) -> None:
    """Landlock, then seccomp (which would refuse Landlock's own calls), from sandbox_guard."""
    guard = types.ModuleType("sandbox_guard")
    exec(compile(config["guard"], "sandbox_guard.py", "exec"), guard.__dict__)  # noqa: S102
    devices = [f"/dev/{name}" for name in DEVICES]
    # /proc of this process only: another's environ stays unreadable (Landlock's ptrace rule
    # does not cover environ), /proc/self/fd stays listable
    own_proc = f"/proc/{os.getpid()}"
    guard.install_landlock(libc, [*config["runtime"], own_proc], os.getcwd(), devices)
    own = os.getpid() if config["isolation"] == "basic" else None
    guard.install_seccomp(libc, own)


def _run_model_code(config: dict[str, Any], libc: Any) -> None:
    _set_limits(config["limits"])
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS")
    if config["uid"] is not None:
        os.setgroups([])
        os.setgid(config["uid"])
        os.setuid(config["uid"])
    if config["isolation"] == "bwrap":
        os.chdir("/work")
    if config["isolation"] == "basic":
        _no_network()
    _guard(config, libc)
    result_fd, steps = config["result_fd"], config["steps"]
    os.write(result_fd, READY)
    pristine = dict(builtins.__dict__)
    module = types.ModuleType("solution")
    module.__dict__["__builtins__"] = builtins
    sys.modules["solution"] = module
    code = config["code"]
    config.clear()
    report: dict[str, Any] = {"code_error": None, "setup_error": None, "results": []}
    try:
        exec(compile(code, "solution.py", "exec"), module.__dict__)  # noqa: S102 - sandboxed
    except BaseException as exc:  # noqa: BLE001 - SystemExit too: leaving early is a failure
        traceback.print_exc()
        report["code_error"] = type(exc).__name__
        steps = []
    for index, step in enumerate(steps):
        if "setup" in step:
            try:
                exec(compile(step["setup"], "tests.py", "exec"), module.__dict__)  # noqa: S102
            except BaseException as exc:  # noqa: BLE001
                report["setup_error"] = {"step": index, "raised": type(exc).__name__}
                break
        else:
            report["results"].append(_outcome(step["probe"], module.__dict__, pristine))
    sys.stdout.flush()
    sys.stderr.flush()
    data = json.dumps(report).encode()
    while data:
        data = data[os.write(result_fd, data) :]
    os._exit(0)


def main() -> None:
    config = json.loads(sys.stdin.buffer.read())
    sys.stdin.close()
    libc = ctypes.CDLL(None, use_errno=True)
    if config["isolation"] == "namespaces":
        disk_mb = config["limits"]["disk_mb"]
        runtime, links = config["runtime"], config["links"]
        _enter_minimal_root(libc, config["work"], runtime, links, config["uid"], disk_mb)
        child = os.fork()
        if child:
            _init_until(child)
    if config["isolation"] == "basic":
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        child = os.fork()
        if child:
            os.close(config["result_fd"])  # EOF reaches the parent once the program's side ends
            _supervise(child, config["work"], config["limits"]["disk_mb"] * MB)
    _run_model_code(config, libc)


if __name__ == "__main__":
    main()
