"""``atlas score`` commits its four files as one set (issue 24): killed at any write, the
workload has the previous scores or the new ones, never metrics of one run beside verdicts of
another, and nothing staged is left once the next ``atlas`` command ran."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent):
    if str(folder) not in sys.path:
        sys.path.append(str(folder))
from kill_points import atlas, kill_at_every_write, leftovers, snapshot  # noqa: E402
from test_stage_real_registry import _math_run  # noqa: E402

OUTPUTS = [
    "results/math/scored.jsonl",
    "results/math/timings.jsonl",
    "metrics/verdicts/math.jsonl",
    "metrics/math.json",
]
ONE_RIGHT = [
    {"id": "math-0001", "output": "Answer: 83", "error": None},
    {"id": "math-0002", "output": "Answer: 1", "error": None},
    {"id": "math-0003", "output": "Answer: 1", "error": None},
]
ALL_RIGHT = [
    {"id": "math-0001", "output": "Answer: 83", "error": None},
    {"id": "math-0002", "output": "Answer: 29/20", "error": None},
    {"id": "math-0003", "output": "Answer: 72", "error": None},
]


def _journal(root: Path, records: list[dict[str, object]]) -> None:
    text = "".join(json.dumps({"run_key": "d" * 64, "repeat": 0, **r}) + "\n" for r in records)
    (root / "results" / "math" / "responses.jsonl").write_text(text)


def test_kill_at_every_write_of_score_leaves_old_or_new(tmp_path: Path) -> None:
    old_project = tmp_path / "old"
    _math_run(old_project, ONE_RIGHT)
    assert atlas(old_project, "score", "math").returncode == 0
    _journal(old_project, ALL_RIGHT)  # the next score run gives the new set
    expected = tmp_path / "expected"
    shutil.copytree(old_project, expected)
    assert atlas(expected, "score", "math").returncode == 0
    new = snapshot(expected, OUTPUTS)
    assert json.loads(new["metrics/math.json"] or b"")["correct"] == 3
    kept_old, got_new = kill_at_every_write(
        tmp_path / "run", ["score", "math"], OUTPUTS, old_project, new
    )
    assert kept_old >= 5 and got_new >= 4  # kills before and after the commit point


def test_stray_temp_files_go_with_the_next_run(tmp_path: Path) -> None:
    _math_run(tmp_path, ONE_RIGHT)
    (tmp_path / "metrics").mkdir()
    stray = tmp_path / "metrics" / ".math.json.k2j3h4.tmp"  # a killed plain atomic write
    stray.write_text("{")
    staged = tmp_path / "metrics" / ".math.json.score-math.staged"  # a killed staging
    staged.write_text("{")
    (tmp_path / ".atlas" / "commits").mkdir(parents=True)
    record = {"state": "staging", "dirs": ["metrics"]}
    (tmp_path / ".atlas" / "commits" / "score-math.json").write_text(json.dumps(record))
    assert atlas(tmp_path, "score", "math").returncode == 0
    assert leftovers(tmp_path) == []
    assert json.loads((tmp_path / "metrics" / "math.json").read_text())["correct"] == 1
