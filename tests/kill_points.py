"""SIGKILL a stage at every write of its output set and check what is left: the old set or the
new one, never a mix, and no staged or temp file once the next ``atlas`` command ran (issue 24).

``ATLAS_FAULT_KILL_AT=k`` (:mod:`stages.outputs`) makes the stage kill itself right after its
k-th write or rename; k runs from 1 until the stage finishes unharmed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ATLAS = str(Path(sys.executable).with_name("atlas"))


def snapshot(root: Path, paths: list[str]) -> dict[str, bytes | None]:
    """The bytes of each output (None where it does not exist)."""
    return {p: (root / p).read_bytes() if (root / p).is_file() else None for p in paths}


def leftovers(root: Path) -> list[str]:
    """Staged and temp files, and commit records, anywhere in the project."""
    found = [p for p in root.rglob(".*") if p.name.endswith((".staged", ".tmp"))]
    commits = root / ".atlas" / "commits"
    found += list(commits.glob("*")) if commits.is_dir() else []
    return sorted(str(p.relative_to(root)) for p in found)


def atlas(root: Path, *args: str, kill_at: int | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "ATLAS_FAULT_KILL_AT"}
    if kill_at is not None:
        env["ATLAS_FAULT_KILL_AT"] = str(kill_at)
    return subprocess.run(
        [ATLAS, *args], cwd=root, env=env, capture_output=True, text=True, timeout=300
    )


def kill_at_every_write(
    root: Path,
    command: list[str],
    outputs: list[str],
    prepare_old: Path,
    new: dict[str, bytes | None],
) -> tuple[int, int]:
    """Run ``command`` killed at write 1, 2, ... in a fresh copy of ``prepare_old`` (the project
    holding the old outputs) until it completes; after each kill run ``atlas --help`` (which
    completes or undoes the interrupted commit) and check the outputs are exactly the old or the
    new set. Returns (kills that left the old set, kills that left the new set)."""
    old = snapshot(prepare_old, outputs)
    assert old != new
    seen = {"old": 0, "new": 0}
    for k in range(1, 200):
        if root.exists():
            shutil.rmtree(root)
        shutil.copytree(prepare_old, root)
        done = atlas(root, *command, kill_at=k)
        if done.returncode == 0:
            assert snapshot(root, outputs) == new
            assert leftovers(root) == []
            return seen["old"], seen["new"]
        assert done.returncode == -9, (k, done.returncode, done.stderr)
        assert atlas(root, "--help").returncode == 0
        state = snapshot(root, outputs)
        assert state in (old, new), f"kill at write {k} left a mix"
        seen["old" if state == old else "new"] += 1
        assert leftovers(root) == [], k
    raise AssertionError("the stage never finished")
