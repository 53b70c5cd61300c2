"""``atlas export`` on bad input: one line naming the problem, a non-zero exit, nothing written
(issue 34). And the output directory appears whole or not at all."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from compare_helpers import commit, git, rows_for, write_dataset, write_scored
from export_helpers import read_eee, read_hf

from stages.cli import main


def scored_repo(root: Path) -> None:
    """One commit with a scored eval workload (12 items, 5 right)."""
    rows = rows_for("eval-small-v1", ["42"] * 12, ["x"])
    sha = write_dataset(root, "eval-small-v1", rows)
    write_scored(root, "small", "eval-small-v1", sha, {r["id"]: i < 5 for i, r in enumerate(rows)})
    path = root / "metrics/small.json"
    metrics = json.loads(path.read_text())
    metrics |= {
        "n": 12, "correct": 5, "accuracy": 0.416667, "wilson_95": {"low": 0.1933, "high": 0.6805},
        "clustered": {"se": None, "clusters": 12, "n_eff": 12.0, "note": "fewer than 20"},
    }  # fmt: skip
    path.write_text(json.dumps(metrics))
    commit(root, "scored")


def error_of(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(["export", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("atlas: error: "), err
    return err.strip()


def test_an_unknown_revision(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scored_repo(repo)
    err = error_of(capsys, "no-such-rev", "--out", "out")
    assert "'no-such-rev' is neither a git revision, a DVC experiment" in err
    assert not (repo / "out").exists()


def test_a_revision_without_metrics(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "README.md").write_text("nothing scored yet\n")
    commit(repo, "empty")
    scored_repo(repo)
    err = error_of(capsys, "HEAD~1", "--out", "out")
    assert "HEAD~1 (" in err and "has no scored eval workload" in err
    err = error_of(capsys, "HEAD", "-w", "missing", "--out", "out")
    assert "workload 'missing' has no eval metrics and verdicts" in err
    assert not (repo / "out").exists()


def test_an_unknown_format(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scored_repo(repo)
    err = error_of(capsys, "HEAD", "--format", "csv", "--out", "out")
    assert "--format 'csv': unknown format (one of every-eval-ever, hf-eval-results)" in err
    assert not (repo / "out").exists()


def test_an_out_that_is_not_empty_is_left_alone(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scored_repo(repo)
    (repo / "out").mkdir()
    (repo / "out" / "keep.txt").write_text("mine")
    err = error_of(capsys, "HEAD", "--out", "out")
    assert "--out out: the directory is not empty" in err
    assert [p.name for p in (repo / "out").iterdir()] == ["keep.txt"]
    (repo / "file").write_text("x")
    assert "exists and is not a directory" in error_of(capsys, "HEAD", "--out", "file")
    (repo / "empty").mkdir()  # an empty directory is taken
    assert main(["export", "HEAD", "--out", "empty", "--format", "hf-eval-results"]) == 0
    (entry,) = read_hf(repo / "empty")["small.yaml"]
    assert entry["value"] == round(5 / 12 * 100, 4)


def test_a_failed_write_leaves_nothing(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    scored_repo(repo)

    def full_disk(src: object, dst: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "rename", full_disk)
    err = error_of(capsys, "HEAD", "--out", "out")
    assert "cannot write out: no space left on the device" in err
    monkeypatch.undo()
    assert sorted(p.name for p in repo.iterdir()) == [".git", "datasets", "metrics"]  # no temp


def test_the_same_figures_are_the_same_evaluation(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scored_repo(repo)
    capsys.readouterr()
    assert main(["export", "workspace", "--out", "eee"]) == 0
    assert "workspace: 1 figures of 1 workloads (small)" in capsys.readouterr().out
    log, records, _, _ = read_eee(repo / "eee")
    assert log.evaluation_timestamp is None
    (repo / "notes.md").write_text("an unrelated commit\n")
    commit(repo, "notes")
    assert main(["export", "HEAD", "--out", "head"]) == 0
    at_head, _, _, _ = read_eee(repo / "head")
    assert at_head.evaluation_id == log.evaluation_id  # same files, same id and file names
    assert at_head.evaluation_timestamp == git(repo, "log", "-1", "--format=%ct", "HEAD~1").strip()
    path = repo / "metrics/verdicts/small.jsonl"  # the run changes: a new evaluation
    path.write_text(path.read_text().replace('"extracted":"7"', '"extracted":"8"', 1))
    assert main(["export", "workspace", "--out", "changed"]) == 0
    changed, _, _, _ = read_eee(repo / "changed")
    assert changed.evaluation_id != log.evaluation_id
    assert [r.evaluation.is_correct for r in records] == [True] * 5 + [False] * 7
    metrics = json.loads((repo / "metrics/small.json").read_text())
    assert log.evaluation_results[0].score_details.score == metrics["accuracy"]
