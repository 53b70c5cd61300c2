"""Shards (issue 23): ``atlas infer W --shard I/N`` sends every Nth request and level, ``atlas
merge W`` joins the shards into the journal scoring reads — equal to an unsharded run, verdict for
verdict — and refuses shards of different runs or datasets, a missing shard or an unfinished one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from infer_helpers import eval_row, oracle, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main

LOAD = {"mode": "concurrency", "levels": [1, 2, 4]}


def _half_right(body: dict[str, Any]) -> str:
    """Right for even questions, wrong for odd ones: verdicts that differ between items."""
    answer = oracle(body)
    return answer if int(answer.split()[-1]) % 2 else "Answer: 0"


def _project(root: Path, url: str, revision: str = "r1") -> None:
    write_dataset(root, "eval-t-v1", "eval", [eval_row(i) for i in range(11)])
    write_params(root, url, workloads={"w": {"dataset": "eval-t-v1", "load": LOAD}})
    params = root / "params.yaml"
    params.write_text(params.read_text().replace("revision: r1", f"revision: {revision}"))


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _answers(path: Path) -> dict[str, tuple[str, str]]:
    return {r["key"]: (r["id"], r["output"]) for r in _lines(path)}


def test_shards_merged_equal_an_unsharded_run(
    tmp_path: Path, stub: StubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    stub.config.reply_fn = _half_right
    whole, split = tmp_path / "whole", tmp_path / "split"
    for root in (whole, split):
        root.mkdir()
        _project(root, stub.url)
    monkeypatch.chdir(whole)
    assert main(["infer", "w"]) == 0 and main(["score", "w"]) == 0
    monkeypatch.chdir(split)
    for index in range(3):
        before = len(stub.stats.bodies)
        assert main(["infer", "w", "--shard", f"{index}/3"]) == 0
        shard = split / "results" / "w" / "shards" / f"{index}-of-3"
        ids = [r["id"] for r in _lines(shard / "responses.jsonl")]
        assert sorted(ids) == [f"q-{i:04d}" for i in range(index, 11, 3)]
        assert sorted(p.name for p in (shard / "load").glob("*.jsonl")) == [
            f"concurrency-{LOAD['levels'][index]}.jsonl"
        ]
        assert len(stub.stats.bodies) - before == len(ids) + 11  # its items, and its level whole
    assert not (split / "results" / "w" / "responses.jsonl").exists()
    assert main(["merge", "w"]) == 0 and main(["score", "w"]) == 0
    for name in ("responses.jsonl", "load/concurrency-1.jsonl", "load/concurrency-4.jsonl"):
        assert _answers(split / "results" / "w" / name) == _answers(whole / "results" / "w" / name)
    for name in ("metrics/verdicts/w.jsonl", "metrics/w.json"):
        assert (split / name).read_bytes() == (whole / name).read_bytes()
    merged = json.loads((split / "results/w/manifest.json").read_text())
    assert merged["ids"] == [f"q-{i:04d}" for i in range(11)]
    assert merged["counts"]["requests"] == merged["counts"]["ok"] == 11
    assert merged["endpoints"] == [
        {"endpoint": stub.url, "weight": 1.0, "records": 11, "failed_over_from": 0}
    ]
    assert [p["shard"] for p in merged["shards"]["parts"]] == ["0/3", "1/3", "2/3"]
    serving = json.loads((split / "metrics/w.serving.json").read_text())
    assert sorted(serving["concurrency"]) == ["1", "2", "4"]
    assert serving["main"]["requests"] == 11 and serving["main"]["requests_per_s"] is None
    assert sorted(serving["main"]["shards"]) == ["0/3", "1/3", "2/3"]
    lines = (split / "results/w/responses.jsonl").read_bytes()
    assert main(["merge", "w"]) == 0  # merging again adds nothing
    assert (split / "results/w/responses.jsonl").read_bytes() == lines


def test_merge_refuses_a_missing_shard_another_run_and_another_dataset(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(project, stub.url)
    assert main(["infer", "w", "--shard", "0/2"]) == 0
    capsys.readouterr()
    assert main(["merge", "w"]) == 2
    assert (
        "atlas: error: results/w/shards: shard 1/2 of 2 is missing (run `atlas infer w --shard "
        "1/2` where it should run)"
    ) in capsys.readouterr().err
    _project(project, stub.url, revision="r2")  # the second shard ran another revision
    assert main(["infer", "w", "--shard", "1/2"]) == 0
    capsys.readouterr()
    assert main(["merge", "w"]) == 2
    err = capsys.readouterr().err
    assert "atlas: error: results/w/shards/0-of-2: run key " in err
    assert "shards of different runs cannot be merged" in err
    manifest = project / "results/w/shards/0-of-2/manifest.json"
    _project(project, stub.url)  # back to r1: shard 1 is now the odd one; fix it by rerunning
    assert main(["infer", "w", "--shard", "1/2"]) == 0
    data = json.loads(manifest.read_text())
    data["dataset"]["sha256"] = "0" * 64
    manifest.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["merge", "w"]) == 2
    assert "shards of another dataset cannot be merged" in capsys.readouterr().err
    assert not (project / "results/w/responses.jsonl").exists()  # nothing half written


def test_an_unfinished_shard_and_a_bad_shard_option_are_refused(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(project, stub.url)
    assert main(["infer", "w", "--shard", "0/1"]) == 0
    (project / "results/w/shards/0-of-1/manifest.json").unlink()  # as a killed shard leaves it
    capsys.readouterr()
    assert main(["merge", "w"]) == 2
    assert (
        "atlas: error: results/w/shards/0-of-1: unfinished (no manifest: stopped before its "
        "end?); run `atlas infer w --shard 0/1` again"
    ) in capsys.readouterr().err
    for bad in ("3/3", "1", "a/b"):
        assert main(["infer", "w", "--shard", bad]) == 2
        assert "expected I/N with 0 <= I < N" in capsys.readouterr().err
