"""Inputs checked at the door: changed published bytes and empty datasets are refused by both
``atlas infer`` and ``atlas score``, and no metrics file is touched (issue 11)."""

from __future__ import annotations

from pathlib import Path

import pytest
from infer_helpers import eval_row, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main
from stages.datasets.registry import publish

METRICS = ("w.json", "w.serving.json")


def _first_run(project: Path, stub: StubServer) -> dict[str, bytes]:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0 and main(["score", "w"]) == 0
    return {name: (project / "metrics" / name).read_bytes() for name in METRICS}


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(argv) == 2
    return capsys.readouterr().err


def test_a_published_dataset_whose_bytes_changed_is_refused(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    metrics = _first_run(project, stub)
    publish("eval-t-v1", project / "datasets")
    rows = project / "datasets" / "eval-t-v1" / "rows.jsonl"
    rows.write_bytes(rows.read_bytes().replace(b"What is 1 + 1?", b"What is 1 + 2?"))
    sent = stub.stats.requests
    for argv in (["infer", "w"], ["score", "w"], ["infer", "w", "--dry-run"]):
        err = _refused(argv, capsys)
        assert err == (
            "atlas: error: datasets/eval-t-v1/rows.jsonl changed since publication (eval-t-v1 "
            "is pinned in datasets/registry.json); a published dataset never changes: run "
            "`atlas check`, and publish a fix as a new -v2 id\n"
        )
    assert stub.stats.requests == sent
    assert {name: (project / "metrics" / name).read_bytes() for name in METRICS} == metrics


def test_a_file_added_to_a_published_dataset_is_refused(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    _first_run(project, stub)
    publish("eval-t-v1", project / "datasets")
    (project / "datasets" / "eval-t-v1" / "notes.txt").write_text("x")
    err = _refused(["infer", "w"], capsys)
    assert "datasets/eval-t-v1/notes.txt was added since publication" in err


def test_an_empty_dataset_is_refused_and_metrics_stay(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    metrics = _first_run(project, stub)
    (project / "datasets" / "eval-t-v1" / "rows.jsonl").write_bytes(b"")
    for argv in (["infer", "w"], ["score", "w"]):
        err = _refused(argv, capsys)
        assert err == (
            "atlas: error: datasets/eval-t-v1/rows.jsonl: no rows: dataset eval-t-v1 is empty\n"
        )
    assert {name: (project / "metrics" / name).read_bytes() for name in METRICS} == metrics


def test_an_intact_published_dataset_runs(project: Path, stub: StubServer) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
    publish("eval-t-v1", project / "datasets")
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0 and main(["score", "w"]) == 0
    assert stub.stats.requests == 2
