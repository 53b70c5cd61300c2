"""``atlas report`` reads an output set only when its commit is complete (issue 31). Run inside
``atlas score``'s rename window, it exited 0 with the old headline figures beside the new
per-record sections. The window is built here, not raced: the score set's commit record says
*committed*, ``results/math/scored.jsonl`` is already the new file and ``metrics/math.json`` is
still staged; a helper process holds the set's lock as the live writer would."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parents[1]))
from kill_points import atlas  # noqa: E402

HOLDER = """\
import sys
from stages.locks import exclusive
with exclusive("score-math", "the scores of workload math"):
    print("holding", flush=True)
    sys.stdin.read()
"""


def half_renamed(root: Path) -> None:
    """The math score set between its commit point and its last rename: the new metrics say 3
    of 4 right (75 %) where the old said 2 of 4 (50 %)."""
    metrics_path = root / "metrics" / "math.json"
    new = json.loads(metrics_path.read_text())
    assert (new["correct"], new["n"]) == (2, 4)
    new.update(correct=3, accuracy=0.75)
    staged = metrics_path.with_name(".math.json.score-math.staged")
    staged.write_text(json.dumps(new))
    record = {"state": "committed", "remove": [],
              "files": ["results/math/scored.jsonl", "metrics/math.json"]}  # fmt: skip
    commits = root / ".atlas" / "commits"
    commits.mkdir(parents=True, exist_ok=True)
    (commits / "score-math.json").write_text(json.dumps(record))


@pytest.fixture
def writer(scored_project: Path) -> Iterator[subprocess.Popen[str]]:
    """A live process holding the lock of the math score set (the writer mid-rename)."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER], cwd=scored_project, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None and process.stdout.readline() == "holding\n"
    yield process
    assert process.stdin is not None
    process.stdin.close()
    process.wait(timeout=30)


def test_report_refuses_a_set_caught_in_its_rename_window(
    scored_project: Path, writer: subprocess.Popen[str]
) -> None:
    half_renamed(scored_project)
    done = atlas(scored_project, "report")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.startswith(
        "atlas: error: atlas report: output set score-math is being committed right now, its "
        f"files half replaced (pid {writer.pid}, "
    )
    assert "nothing was read or written" in done.stderr and "Traceback" not in done.stderr
    assert not (scored_project / "report.md").exists()
    assert (scored_project / ".atlas" / "commits" / "score-math.json").is_file()  # left to it


def test_report_completes_a_set_whose_writer_died_and_reads_the_new_figures(
    scored_project: Path,
) -> None:
    half_renamed(scored_project)
    done = atlas(scored_project, "report")
    assert done.returncode == 0, done.stderr
    report = (scored_project / "report.md").read_text()
    assert "Accuracy **75.0 %** (3/4)" in report
    assert json.loads((scored_project / "metrics" / "math.json").read_text())["correct"] == 3
    assert not (scored_project / ".atlas" / "commits" / "score-math.json").exists()
