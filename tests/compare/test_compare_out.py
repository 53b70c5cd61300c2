"""``atlas compare --out DIR`` (issue 31): DIR is a directory, made if missing, where compare.md
and compare.html are replaced. A DIR that is an existing file (or lies under one) ended in a
FileExistsError traceback; now it is refused before anything is compared, exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from compare_helpers import commit, rows_for, write_dataset, write_scored

ATLAS = str(Path(sys.executable).with_name("atlas"))


def _atlas(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ATLAS, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_out_naming_a_file_is_refused_without_a_traceback(repo: Path) -> None:
    sha = write_dataset(repo, "eval-o-v1", rows_for("eval-o-v1", ["1"] * 10, ["x"]))
    for name, right in (("A", 3), ("B", 6)):
        write_scored(repo, "o", "eval-o-v1", sha, {f"o-v1-{i:03d}": i < right for i in range(10)})
        commit(repo, name)
    (repo / "taken").write_text("keep me\n")
    for out in ("taken", "taken/inside"):
        done = _atlas(repo, "compare", "HEAD~1", "HEAD", "--out", out)
        assert (done.returncode, done.stdout) == (2, "")  # refused before anything was printed
        where = "is" if out == "taken" else "lies under taken, which is"
        assert done.stderr == (
            f"atlas: error: --out {out}: {where} a file, not a directory (give a directory: "
            "compare.md and compare.html are written, or replaced, inside it)\n"
        )
    assert (repo / "taken").read_text() == "keep me\n"
    (repo / "build" / "compare.md").mkdir(parents=True)
    done = _atlas(repo, "compare", "HEAD~1", "HEAD", "--out", "build")
    assert done.returncode == 2 and "build/compare.md is a directory" in done.stderr
    assert "Traceback" not in done.stderr
    done = _atlas(repo, "compare", "HEAD~1", "HEAD", "--out", "fresh/dir")
    assert done.returncode == 0, done.stderr
    assert (repo / "fresh" / "dir" / "compare.md").is_file()
    assert (repo / "fresh" / "dir" / "compare.html").is_file()
