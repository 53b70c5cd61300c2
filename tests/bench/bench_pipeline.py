"""Pipeline overheads: a no-op ``dvc repro`` (target <= 3 s) and regenerate + check.

Run from the project root with the venv's tools on PATH (``make bench`` does both).
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
ENV = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def _timed(*cmd: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
    return time.perf_counter() - start, proc


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _best_of(n: int, *cmd: str) -> float:
    return min(_timed(*cmd)[0] for _ in range(n))


def main() -> None:
    dvc = shutil.which("dvc", path=ENV["PATH"]) or "dvc"
    _, status = _timed(dvc, "status", "--quiet")
    if status.returncode == 0:
        seconds = _best_of(3, dvc, "repro")
        print(f"no-op `dvc repro` (whole pipeline up to date): {seconds:.2f} s (target <= 3 s)")
    else:
        _timed(dvc, "repro", "check")
        seconds = _best_of(3, dvc, "repro", "check")
        print(
            f"no-op `dvc repro check` (gen + check up to date; run `make run` first to time the "
            f"whole pipeline): {seconds:.2f} s (target <= 3 s)"
        )
    cpu = _cpu_children()
    seconds, proc = _timed(str(BIN / "atlas"), "check")
    cpu = _cpu_children() - cpu
    state = "green" if proc.returncode == 0 else f"red (exit {proc.returncode})"
    print(
        f"regenerate every dataset twice (PYTHONHASHSEED=1 and 2) + full `atlas check` with the "
        f"shortcut audit: {seconds:.2f} s wall, {cpu:.2f} s CPU, {state}"
    )
    seconds, _ = _timed(str(BIN / "atlas"), "check", "--no-regen")
    print(f"`atlas check --no-regen` (structure, budget, immutability): {seconds:.2f} s")


if __name__ == "__main__":
    main()
