"""One writer at a time: an exclusive lock per workload journal and per output set (issue 24).

Two ``atlas infer`` processes on one workload would both read the journal, both find the same
requests missing and both send them (the probe saw 24 requests for 12 items and 12 duplicate
lines). So every writer first takes the lock of what it writes: ``.atlas/locks/<name>.lock``,
held with ``flock`` for as long as the writer runs. The file records the holder (pid, command,
start time) so the second process can say who holds it; the kernel drops an ``flock`` when its
holder dies, so a lock left by a killed process is simply taken over (and a note names the pid
that left it). Locks are re-entrant within one process.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from stages.errors import AtlasError
from stages.names import checked_file_name

LOCK_DIR = Path(".atlas") / "locks"
_held: dict[str, tuple[IO[bytes], int]] = {}


class Locked(AtlasError):
    """Another live process holds the lock."""

    def __init__(self, message: str, holder: str = "") -> None:
        super().__init__(message)
        self.holder = holder  # who holds it: "pid 12, `atlas score math`, since ..."


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _holder(handle: IO[bytes]) -> dict[str, object]:
    handle.seek(0)
    try:
        data = json.loads(handle.read() or b"{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _describe(holder: dict[str, object]) -> str:
    parts = [f"pid {holder.get('pid', '?')}"]
    if holder.get("command"):
        parts.append(f"`{holder['command']}`")
    if holder.get("since"):
        parts.append(f"since {holder['since']}")
    return ", ".join(parts)


def held() -> list[IO[bytes]]:
    """The lock files this process holds (a forked sending process closes its copies, so that
    only the parent holds the workload's lock)."""
    return [handle for handle, _ in _held.values()]


@contextlib.contextmanager
def exclusive(name: str, what: str, root: Path = Path(".")) -> Iterator[None]:
    """Hold lock ``name`` (``infer-math``, ``score-math``, ``report``) while the body runs;
    :class:`Locked` naming the holder's pid when another live process has it. ``what`` says
    what is protected, for the message (``results/math/responses.jsonl``)."""
    checked_file_name(name, "lock")  # the lock file lies under .atlas/locks/, never elsewhere
    if name in _held:
        handle, depth = _held[name]
        _held[name] = (handle, depth + 1)
        try:
            yield
        finally:
            _held[name] = (handle, _held[name][1] - 1)
        return
    directory = root / LOCK_DIR
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.lock"
    handle = path.open("a+b")
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(handle)
            raise Locked(
                f"{what} is being written by another atlas process ({_describe(holder)}); "
                "wait for it to finish or stop it: two writers would send and write everything "
                f"twice (lock: {path})",
                _describe(holder),
            ) from None
        previous = _holder(handle)
        pid = previous.get("pid")
        if isinstance(pid, int) and pid != os.getpid() and not _alive(pid):
            sys.stderr.write(
                f"note: {what}: taking over the lock left by pid {pid}, which is no longer "
                "running (killed?)\n"
            )
        _write_holder(handle)
        _held[name] = (handle, 1)
        try:
            yield
        finally:
            del _held[name]
            with contextlib.suppress(OSError):
                handle.truncate(0)
                handle.flush()
    finally:
        handle.close()  # closing the file releases the flock


def _write_holder(handle: IO[bytes]) -> None:
    record = {
        "pid": os.getpid(),
        "command": " ".join(["atlas", *sys.argv[1:]]),
        "since": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    handle.seek(0)
    handle.truncate(0)
    handle.write(json.dumps(record).encode())
    handle.flush()
