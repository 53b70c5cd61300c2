"""``atlas compare`` at real scale (issue 18): the failure column and verdicts carried by
failures, bad verdict lines refused with file and line, fresh instances paired by seed, and
``--plan MDE``: the items and fresh-seed instances that reach a target MDE."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from compare_helpers import commit, rows_for, write_dataset, write_scored

from stages.cli import main
from stages.compare import compare_records, plan
from stages.compare.row import ALPHA


def revisions(repo: Path, n: int, b_failed: int = 0, flips: tuple[int, int] = (0, 0)) -> None:
    rows = rows_for("eval-math-v1", ["1"] * n, ["x", "y"])
    sha = write_dataset(repo, "eval-math-v1", rows)
    ids = [r["id"] for r in rows]
    a = {item: i % 2 == 0 for i, item in enumerate(ids)}
    write_scored(repo, "math", "eval-math-v1", sha, a)
    commit(repo, "A")
    down, up = flips
    right = [k for k in ids if a[k]]
    wrong = [k for k in ids if not a[k]]
    b = {**a, **dict.fromkeys(right[:down], False), **dict.fromkeys(wrong[:up], True)}
    failed = {k: "timeout" for k in right[len(right) - b_failed :]} if b_failed else None
    write_scored(repo, "math", "eval-math-v1", sha, b, model="m-b", failed=failed)
    commit(repo, "B")


def test_failures_get_a_column_and_a_carried_verdict_says_so(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    revisions(repo, 120, b_failed=30)  # 30 timeouts at B are its only difference
    assert main(["compare", "HEAD~1", "HEAD"]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("workload"))
    assert header.split()[-3:] == ["failed", "A/B", "verdict"]
    assert re.search(r"^math +120 +50\.0 +25\.0 +-25\.0 .* -30/\+0 .* 0/30 +B worse \*$", out, re.M)
    assert (
        "math: * B worse is carried by failed requests (0 at A, 30 at B): without those pairs "
        + ("no difference is detected")
        in out.replace("\n  ", " ")
    )


def test_without_failures_there_is_no_failure_column(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    revisions(repo, 120, flips=(30, 0))
    assert main(["compare", "HEAD~1", "HEAD"]) == 0
    out = capsys.readouterr().out
    assert "failed A/B" not in out
    assert re.search(r"^math +120 +50\.0 +25\.0 +-25\.0 .* -30/\+0 .* B worse$", out, re.M)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"id":"q","repeat":0,"cluster":"q","correct":null,"score":NaN}',
         "metrics/verdicts/math.jsonl:3 at HEAD (", ),
        ('{"id":"q","repeat":0,"cluster":"q","correct":null,"score":Infinity}',
         "score: inf is not a finite number"),
        ('{"id":"q","repeat":0,"cluster":"q","correct":"yes"}',
         "correct: expected true, false or null"),
        ('{"repeat":0,"correct":true}', "id: missing"),
    ],
)  # fmt: skip
def test_bad_verdict_lines_are_refused_with_file_and_line(
    repo: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    revisions(repo, 20)
    path = repo / "metrics" / "verdicts" / "math.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines[:2], line, *lines[2:]]) + "\n")
    commit(repo, "C: a bad line")
    assert main(["compare", "HEAD~1", "HEAD"]) == 2
    err = capsys.readouterr().err
    assert "metrics/verdicts/math.jsonl:3 at HEAD (" in err and message in err


def _with_instance(repo: Path, seed: int) -> None:
    """Append to the verdict file a fresh instance with the same outcomes as the public set."""
    path = repo / "metrics" / "verdicts" / "math.jsonl"
    public = [json.loads(x) for x in path.read_text().splitlines()]
    path.write_text(
        "".join(json.dumps(x) + "\n" for x in public + [{**x, "seed": seed} for x in public])
    )


def test_fresh_instances_are_paired_by_seed_and_id(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = rows_for("eval-math-v1", ["1"] * 40, ["x"])
    sha = write_dataset(repo, "eval-math-v1", rows)
    a = {r["id"]: i % 2 == 0 for i, r in enumerate(rows)}
    write_scored(repo, "math", "eval-math-v1", sha, a)
    commit(repo, "A, public set only")
    _with_instance(repo, 101)
    commit(repo, "A with instance 101")
    b = {**a, "math-000": False, "math-002": False}
    write_scored(repo, "math", "eval-math-v1", sha, b, model="m-b")
    _with_instance(repo, 101)
    commit(repo, "B with instance 101")
    data = json.loads(_run(capsys, "HEAD~1", "HEAD", "--json"))
    row = next(r for r in data["rows"] if r["category"] is None)
    assert (row["n"], row["items"], row["clusters"]) == (80, 80, 80)
    assert row["right_to_wrong"] == ["math-000", "math-002", "s101/math-000", "s101/math-002"]
    out = _run(capsys, "HEAD~2", "HEAD")  # the baseline without the instance
    assert "math: 0 items at A only and 40 at B only were left out" in out


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(["compare", *args]) == 0
    return capsys.readouterr().out


def test_plan_finds_the_fewest_items_for_a_target_mde() -> None:
    a = [{"workload": "w", "id": f"q{i}", "correct": i % 2 == 0} for i in range(200)]
    b = [{**x, "correct": x["correct"] if i % 10 else not x["correct"]} for i, x in enumerate(a)]
    (row,) = compare_records(a, b)
    needed = plan.items_needed(row, 0.05, ALPHA)
    assert needed is not None and 200 < needed < 10_000
    assert (
        plan._binary_mde(row, needed, ALPHA)
        <= 0.05
        < plan._binary_mde(row, math.floor(needed * 0.99), ALPHA)
    )
    (item,) = plan.plan([row], 5.0, {"w": 200}, ALPHA)
    assert (item.needed, item.instances) == (needed, math.ceil((needed - 200) / 200))


def test_plan_option_prints_items_and_instances(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    revisions(repo, 200, flips=(10, 10))
    out = _run(capsys, "HEAD~1", "HEAD", "--plan", "5")
    assert out.startswith("Plan: the items each workload needs to detect 5 points with 80% power")
    (line,) = [x for x in out.splitlines() if x.startswith("math")]
    cells = re.split(r"  +", line)
    needed = int(cells[3].replace(",", ""))
    assert cells[:3] == ["math", "200", cells[2]] and needed > 200
    assert cells[4] == f"{math.ceil((needed - 200) / 200)} of 200 items"
    assert max(map(len, out.splitlines())) <= 100
