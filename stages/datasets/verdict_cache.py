"""A content-addressed store of the sandbox verdicts that mutation testing needs (issue 19).

Every ``atlas check`` proves each code row's reference solution and mutants in the sandbox —
about 400 runs over the published code datasets, most of the audit's time — although a verdict
depends only on the program, the row's hidden tests and the code that runs and judges them.
So a verdict is stored under the SHA-256 of exactly those: the program, the row's ``tests`` and
``answer`` (entry point), the source of ``stages/scoring/{code_exec,code_tests,sandbox,
sandbox_boot}.py``, the sandbox's isolation mode and the Python version. Any change to one of
them is another key, so a stored verdict is the verdict a run would give.

Only outcomes that the program decides are stored — it passed, or a hidden test failed; a run
that was killed, timed out or died before reporting depends on the machine's load, and is run
again next time. The store lives in ``$ATLAS_AUDIT_CACHE`` (default
``$XDG_CACHE_HOME/inference-atlas/audit``, else ``~/.cache/inference-atlas/audit``), one small
file per verdict written by rename; ``ATLAS_AUDIT_CACHE=`` (empty) turns it off.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from stages.scoring import code_exec
from stages.scoring.sandbox import isolation_mode

_SOURCES = ("code_exec.py", "code_tests.py", "sandbox.py", "sandbox_boot.py")


def directory() -> Path | None:
    """Where verdicts are stored, or None when the store is off."""
    configured = os.environ.get("ATLAS_AUDIT_CACHE")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "inference-atlas" / "audit"


@cache
def _fingerprint() -> str:
    scoring = Path(code_exec.__file__).parent
    digest = hashlib.sha256()
    for name in _SOURCES:
        digest.update((scoring / name).read_bytes())
    digest.update(f"{isolation_mode()}|{sys.version}".encode())
    return digest.hexdigest()


def key(row: dict[str, Any], reply: str) -> str:
    """The store key of ``reply`` judged against ``row``'s hidden tests."""
    parts = [_fingerprint(), row.get("tests"), str(row.get("answer")), reply]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def stored(row: dict[str, Any], reply: str) -> bool | None:
    """The stored verdict, or None."""
    where = directory()
    path = where / f"{key(row, reply)}.json" if where else None
    if path is None or not path.is_file():
        return None
    try:
        value = json.loads(path.read_text(encoding="utf-8"))["passed"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return value if isinstance(value, bool) else None


def store(row: dict[str, Any], reply: str, passed: bool, why: str) -> None:
    """Keep a verdict the program decided (it passed, or a hidden test failed)."""
    where = directory()
    if where is None or not (passed or why.startswith("test ")):
        return
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"passed": passed, "why": why}, handle)
        os.replace(tmp, where / f"{key(row, reply)}.json")
    except OSError:
        return  # a store that cannot be written only costs time
