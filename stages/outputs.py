"""Output sets: the files one stage writes, replaced all together or not at all (issue 24).

``atlas score`` writes a workload's scored records, verdicts and metrics; ``atlas report`` the
report, the headline files and the plots. Written one atomic file at a time, a kill between two
files left metrics of one run beside verdicts of another. An :class:`OutputSet` commits them as
one, with a commit record written last among the new bytes and first among the changes:

1. under the set's lock (:mod:`stages.locks`), every new file is written and fsynced beside its
   target as ``.<name>.<set>.staged`` (same directory, so each later rename is atomic); the
   intent record ``.atlas/commits/<set>.json`` lists the directories staged into;
2. the record is rewritten, atomically, as *committed* with every target and every file to
   delete — the commit point;
3. each staged file is renamed onto its target and the deletions are done; the record goes.

A kill before 2 leaves the previous set untouched (the staged files are deleted by the next
run); a kill after 2 is completed by the next ``atlas`` command, whichever it is (the CLI calls
:func:`recover_all` first), so what any command reads is the old set or the new one. The targets
stay plain files, as DVC and git expect. Temp files a killed plain atomic write left behind
(``.<name>.*.tmp``) beside a target are deleted when the set next writes that target.

``ATLAS_FAULT_KILL_AT=k`` makes the process SIGKILL itself right after the k-th write or rename
of any set: the tests use it to kill a stage at every step of its commit.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.io import atomic_write_bytes, disk_error, dumps_pretty, fsync_dir
from stages.locks import Locked, exclusive

COMMIT_DIR = Path(".atlas") / "commits"
READ_WAIT_S = 2.0
"""How long a reader waits for a live writer's renames (milliseconds, normally) to end."""
FAULT_ENV = "ATLAS_FAULT_KILL_AT"
_steps = 0


def _step() -> None:
    """Count one write or rename; SIGKILL this process at the step ``ATLAS_FAULT_KILL_AT``."""
    global _steps
    _steps += 1
    if os.environ.get(FAULT_ENV) == str(_steps):
        os.kill(os.getpid(), signal.SIGKILL)


def _staged(target: Path, name: str) -> Path:
    return target.with_name(f".{target.name}.{name}.staged")


class OutputSet:
    """Files staged for one commit (use :func:`output_set`)."""

    def __init__(self, name: str, root: Path) -> None:
        self.name = name
        self.root = root
        self.record = root / COMMIT_DIR / f"{name}.json"
        self.targets: list[Path] = []
        self.removals: list[Path] = []
        self._dirs: list[str] = []

    def write_bytes(self, target: Path, data: bytes) -> None:
        """Stage ``data`` for ``target`` (written and fsynced now, visible at commit)."""
        if target in self.targets:
            raise ValueError(f"{target} staged twice")
        folder = str(target.parent)
        if folder not in self._dirs:
            self._dirs.append(folder)
            self._write_record({"state": "staging", "dirs": self._dirs})
        staged = _staged(target, self.name)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with staged.open("wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            with contextlib.suppress(OSError):
                staged.unlink()
            raise disk_error(target, exc, "the previous outputs are unchanged") from exc
        self.targets.append(target)
        _step()

    def write_text(self, target: Path, text: str) -> None:
        self.write_bytes(target, text.encode("utf-8"))

    def write_json(self, target: Path, obj: Any) -> None:
        self.write_text(target, dumps_pretty(obj))

    def remove(self, target: Path) -> None:
        """Delete ``target`` as part of the commit (a stale output of an earlier run)."""
        self.removals.append(target)

    def _write_record(self, record: dict[str, Any]) -> None:
        atomic_write_bytes(self.record, json.dumps(record, indent=1).encode())
        _step()

    def commit(self) -> None:
        files = [str(t) for t in self.targets]
        removals = [str(r) for r in self.removals]
        self._write_record({"state": "committed", "files": files, "remove": removals})
        _finish(self.record, self.name)

    def discard(self) -> None:
        for target in self.targets:
            with contextlib.suppress(OSError):
                _staged(target, self.name).unlink()
        with contextlib.suppress(OSError):
            self.record.unlink()


def _finish(record_path: Path, name: str) -> None:
    """Roll a committed record forward: renames, deletions, then the record goes."""
    record = json.loads(record_path.read_text(encoding="utf-8"))
    folders: set[Path] = set()
    try:
        for text in record["files"]:
            target = Path(text)
            staged = _staged(target, name)
            if staged.exists():  # not yet renamed when the last run died
                os.replace(staged, target)
                _step()
            folders.add(target.parent)
            for stray in target.parent.glob(f".{target.name}.*.tmp"):
                stray.unlink(missing_ok=True)
        for text in record["remove"]:
            Path(text).unlink(missing_ok=True)
            folders.add(Path(text).parent)
        for folder in folders:
            fsync_dir(folder)
    except OSError as exc:
        where = Path(exc.filename or record_path)
        raise disk_error(where, exc, "the next atlas command completes the commit") from exc
    record_path.unlink()
    fsync_dir(record_path.parent)


def recover(name: str, root: Path = Path(".")) -> None:
    """Complete or undo an interrupted commit of set ``name`` (its lock must be held)."""
    path = root / COMMIT_DIR / f"{name}.json"
    if not path.is_file():
        return
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        record = {}
    if record.get("state") == "committed":
        _finish(path, name)
        return
    for folder in record.get("dirs", []):  # staged, never committed: the old set stays
        for staged in Path(folder).glob(f".*.{name}.staged"):
            staged.unlink(missing_ok=True)
    path.unlink()


def recover_all(root: Path = Path(".")) -> None:
    """Recover every interrupted set whose writer is gone (a set being written is left alone)."""
    folder = root / COMMIT_DIR
    if not folder.is_dir():
        return
    for record in sorted(folder.glob("*.json")):
        name = record.stem
        try:
            with exclusive(name, f"output set {name}", root):
                recover(name, root)
        except Locked:
            continue


def _committing(name: str, root: Path) -> bool:
    """True while set ``name`` is past its commit point and not yet fully renamed (a set still
    staging has not touched its targets: the old set is whole)."""
    try:
        record = json.loads((root / COMMIT_DIR / f"{name}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(record, dict) and record.get("state") == "committed"


def await_whole(
    names: list[str], reader: str, wait_s: float = READ_WAIT_S, root: Path = Path(".")
) -> None:
    """Return once no set of ``names`` is between its commit point and its last rename, so that
    ``reader`` reads each whole (issue 31: a report read inside a score's rename window mixed
    old headline figures with new records). A commit whose writer is gone is completed here; a
    live writer's is waited for up to ``wait_s`` seconds, then :class:`AtlasError`."""
    deadline = time.monotonic() + wait_s
    for name in names:
        while _committing(name, root):
            try:
                with exclusive(name, f"output set {name}", root):
                    recover(name, root)
                continue
            except Locked as exc:
                if time.monotonic() >= deadline:
                    raise AtlasError(
                        f"{reader}: output set {name} is being committed right now, its files "
                        f"half replaced ({exc.holder}); nothing was read or written: run it "
                        "again once that command has finished"
                    ) from None
            time.sleep(0.02)


@contextlib.contextmanager
def output_set(name: str, what: str, root: Path = Path(".")) -> Iterator[OutputSet]:
    """Stage a set's files in the body; commit them together when it ends without error (on
    an error nothing is changed). ``what`` names the set for the lock message."""
    with exclusive(name, what, root):
        recover(name, root)
        staged = OutputSet(name, root)
        try:
            yield staged
        except BaseException:
            staged.discard()
            raise
        staged.commit()
