"""Writing an export's files as one directory, whole or not at all.

The files go to a temporary directory beside ``--out``, which is renamed to ``--out`` once
every file is written and synced: a failure or a kill leaves no half export under the name (at
worst a hidden ``.<name>.*.tmp`` directory, removed on a failure). An existing ``--out`` that is
not an empty directory is refused before anything is written.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from stages.errors import AtlasError
from stages.io import DISK_ERRNOS, disk_error, fsync_dir


def check_out(out: Path) -> None:
    """Refuse an ``--out`` that already holds something (or is a file)."""
    if out.is_dir() and any(out.iterdir()):
        raise AtlasError(f"--out {out}: the directory is not empty (choose a new one)")
    if out.exists() and not out.is_dir():
        raise AtlasError(f"--out {out}: exists and is not a directory")


def write_tree(out: Path, files: dict[str, bytes]) -> None:
    """Write ``files`` (relative path -> bytes) as the directory ``out``."""
    check_out(out)
    parent = out.absolute().parent
    tmp: Path | None = None
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=parent))
        for relative, data in files.items():
            path = tmp / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        tmp.chmod(0o755)  # mkdtemp makes it private; an export is meant to be read
        if out.is_dir():
            out.rmdir()  # empty (checked above): the rename takes its place
        os.rename(tmp, out)
        tmp = None
        fsync_dir(parent)
    except OSError as exc:
        if exc.errno in DISK_ERRNOS:
            raise disk_error(out, exc, "nothing was written") from exc
        raise
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
