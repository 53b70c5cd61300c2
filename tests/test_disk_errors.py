"""Disk trouble is one sentence naming the path, exit 2, nothing half written (issue 24): a
read-only results/ or metrics/, a full disk, a file-size limit (RLIMIT_FSIZE, SIGXFSZ).

As root, permission bits do not stop a write, so read-only and full directories are made with a
private mount namespace (``unshare --mount``): a read-only bind mount, a 64 KB tmpfs.
"""

from __future__ import annotations

import os
import resource
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE / "scoring", HERE / "inference"):
    if str(folder) not in sys.path:
        sys.path.append(str(folder))
from infer_helpers import eval_row, write_dataset, write_params  # noqa: E402
from kill_points import ATLAS, leftovers, snapshot  # noqa: E402
from stub_server import StubServer  # noqa: E402
from test_score_atomic import ALL_RIGHT, ONE_RIGHT, OUTPUTS, _journal  # noqa: E402
from test_stage_real_registry import _math_run  # noqa: E402

ROOT = os.geteuid() == 0
MOUNTS = ROOT and shutil.which("unshare") is not None


def _run(
    root: Path, args: list[str], read_only: str | None = None, full: str | None = None,
    preexec: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """``atlas ARGS`` in ``root`` with directory ``read_only`` read-only or ``full`` a tiny
    tmpfs (filled up front), each through a private mount namespace as root, else chmod."""
    command = " ".join(shlex.quote(a) for a in [ATLAS, *args])
    if read_only and MOUNTS:
        command = f"mount --bind {read_only} {read_only} && mount -o remount,bind,ro {read_only} " \
                  f"{read_only} && exec {command}"  # fmt: skip
    if full:
        command = f"mount -t tmpfs -o size=64k tmpfs {full} && head -c 60000 /dev/zero > " \
                  f"{full}/.filler ; exec {command}"  # fmt: skip
    argv = ["unshare", "--mount", "sh", "-c", command] if (MOUNTS and (read_only or full)) else [
        "sh", "-c", command]  # fmt: skip
    if read_only and not MOUNTS:
        (root / read_only).chmod(0o555)
    try:
        return subprocess.run(
            argv, cwd=root, capture_output=True, text=True, timeout=300, preexec_fn=preexec
        )
    finally:
        if read_only and not MOUNTS:
            (root / read_only).chmod(0o755)


def _scored_once(root: Path) -> dict[str, bytes | None]:
    _math_run(root, ONE_RIGHT)
    assert _run(root, ["score", "math"]).returncode == 0
    before = snapshot(root, OUTPUTS)
    _journal(root, ALL_RIGHT)
    return before


def test_read_only_metrics_is_one_sentence_and_the_old_scores_stay(tmp_path: Path) -> None:
    before = _scored_once(tmp_path)
    done = _run(tmp_path, ["score", "math"], read_only="metrics")
    assert done.returncode == 2
    reason = "the file system is read-only" if MOUNTS else "permission denied (is the"
    assert done.stderr.startswith(
        f"atlas: error: cannot write metrics/verdicts/math.jsonl: {reason}"
    )
    assert (
        done.stderr.endswith("; the previous outputs are unchanged\n")
        and "Traceback" not in done.stderr
    )
    assert snapshot(tmp_path, OUTPUTS) == before
    assert leftovers(tmp_path) == []


def test_file_size_limit_while_scoring(tmp_path: Path) -> None:
    before = _scored_once(tmp_path)

    def small_files() -> None:  # 1 KB: scored.jsonl (1.5 KB) does not fit; SIGXFSZ is ignored
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    done = _run(tmp_path, ["score", "math"], preexec=small_files)
    assert (done.returncode, done.stderr) == (
        2,
        "atlas: error: cannot write results/math/scored.jsonl: the file would exceed the "
        "file-size limit (ulimit -f); the previous outputs are unchanged\n",
    )
    assert snapshot(tmp_path, OUTPUTS) == before
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(not MOUNTS, reason="a full disk is simulated with a tmpfs (needs root)")
def test_full_disk_while_scoring(tmp_path: Path) -> None:
    _math_run(tmp_path, ALL_RIGHT)
    (tmp_path / "metrics").mkdir()
    done = _run(tmp_path, ["score", "math"], full="metrics")
    assert done.returncode == 2
    assert done.stderr.startswith("atlas: error: cannot write metrics/")
    assert (
        "no space left on the device (the disk is full); the previous outputs are unchanged"
        in done.stderr
    )
    assert not (tmp_path / "results/math/scored.jsonl").exists()  # nothing of the set landed


def test_read_only_results_stops_infer_before_sending(tmp_path: Path) -> None:
    with StubServer() as stub:
        write_dataset(tmp_path, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
        write_params(tmp_path, stub.url)
        (tmp_path / "results" / "w").mkdir(parents=True)
        done = _run(tmp_path, ["infer", "w"], read_only="results")
        assert stub.stats.requests == 0
    assert done.returncode == 2
    reason = "the file system is read-only" if MOUNTS else "permission denied (is the"
    assert done.stderr.startswith(f"atlas: error: cannot write results/w/responses.jsonl: {reason}")
    assert done.stderr.endswith("no request was sent\n") and "Traceback" not in done.stderr


def test_full_disk_while_journaling_keeps_what_was_written(tmp_path: Path) -> None:
    if not MOUNTS:
        pytest.skip("a full disk is simulated with a tmpfs (needs root)")
    with StubServer() as stub:
        stub.config.reply = "x" * 3000  # about 3 KB a line: the 4 KB left fill after one line
        write_dataset(tmp_path, "eval-t-v1", "eval", [eval_row(i) for i in range(6)])
        write_params(tmp_path, stub.url, run={"concurrency": 1})
        (tmp_path / "results" / "w").mkdir(parents=True)
        done = _run(tmp_path, ["infer", "w"], full="results/w")
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1] == (
        "atlas: error: cannot write results/w/responses.jsonl: no space left on the device (the "
        "disk is full); the lines written before it are kept, and a rerun sends the rest"
    )
    assert "Traceback" not in done.stderr
