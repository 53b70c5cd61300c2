"""File helpers shared by every stage: atomic writes and line-numbered JSONL reading.

Everything the pipeline writes goes through :func:`atomic_write_bytes` (temp file in the same
directory, fsync, rename) so a crash never leaves a half-written artefact behind.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from stages.errors import AtlasError

_REASONS = {
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied (is the directory read-only?)",
    errno.EPERM: "operation not permitted (is the directory read-only?)",
    errno.ENOSPC: "no space left on the device (the disk is full)",
    errno.EDQUOT: "the disk quota is exhausted",
    errno.EFBIG: "the file would exceed the file-size limit (ulimit -f)",
}
DISK_ERRNOS = frozenset(_REASONS)
"""Errors of the disk, not of the program: reported as one sentence (exit 2)."""


def disk_error(path: Path, exc: OSError, consequence: str) -> AtlasError:
    """One sentence for a failed write: the path, the reason, and what it left behind."""
    reason = _REASONS.get(exc.errno or 0) or (exc.strerror or str(exc)).lower()
    return AtlasError(f"cannot write {path}: {reason}; {consequence}")


def fsync_dir(path: Path) -> None:
    """Make the renames inside ``path`` durable (best effort where directories cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temp file and rename; readers never see a partial file.
    A disk error (read-only, full, file-size limit) is an AtlasError naming the path."""
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        if exc.errno in DISK_ERRNOS:
            raise disk_error(path, exc, f"{path} is unchanged") from exc
        raise
    except BaseException:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """UTF-8 text variant of :func:`atomic_write_bytes`."""
    atomic_write_bytes(path, text.encode("utf-8"))


def dumps_pretty(obj: Any) -> str:
    """Stable, diff-friendly JSON (sorted keys, two-space indent, trailing newline)."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, indent=2) + "\n"


def write_json(path: Path, obj: Any) -> None:
    """Atomically write ``obj`` as pretty JSON."""
    atomic_write_text(path, dumps_pretty(obj))


def read_json(path: Path) -> Any:
    """Read a JSON document, naming the file and position on any error."""
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError as exc:
        raise AtlasError(f"{path}: file not found") from exc
    except UnicodeDecodeError as exc:
        raise AtlasError(f"{path}: not UTF-8 (byte {exc.start})") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise AtlasError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from exc


def iter_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each line; any defect names the file and line."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise AtlasError(f"{path}: file not found") from exc
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise AtlasError(f"{path}:{number}: not UTF-8 (byte {exc.start})") from exc
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise AtlasError(f"{path}:{number}: invalid JSON: {exc.msg}") from exc
        if not isinstance(obj, dict):
            raise AtlasError(f"{path}:{number}: expected a JSON object")
        yield number, obj


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
