"""Bad input is one sentence and exit 2; the API key is sent but never written anywhere."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from infer_helpers import eval_row, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main

KEY = "sk-test-5f0c2a9e-never-written"


def _written_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


def test_api_key_is_sent_but_appears_in_no_written_file(
    project: Path, stub: StubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ATLAS_TEST_KEY", KEY)
    stub.config.fail_status, stub.config.fail_first = 400, 1
    stub.config.error_body = f"bad key {KEY}"  # a server that echoes the key in an error
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url, run={"concurrency": 1})
    assert main(["infer", "w"]) == 3  # 1 of 3 failed: more than run.max_failed_share
    assert {h["authorization"] for h in stub.stats.headers} == {f"Bearer {KEY}"}
    files = _written_files(project)
    assert project / "results" / "w" / "manifest.json" in files
    assert [p for p in files if KEY.encode() in p.read_bytes()] == []
    first = json.loads((project / "results" / "w" / "responses.jsonl").read_text().split("\n")[0])
    assert first["error"]["message"] == '400: {"error": {"message": "bad key ***"}}'


def _fails(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("atlas: error: ") and "Traceback" not in err
    return err


def test_remote_endpoint_without_its_key_variable_stops_before_sending(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, "https://api.example.invalid/v1")
    err = _fails(["infer", "w"], capsys)
    assert err == (
        "atlas: error: params.yaml: model.api_key_env: the environment variable ATLAS_TEST_KEY "
        "is not set, and https://api.example.invalid/v1 needs an API key"
    )


def test_unknown_workload(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_params(project, "http://127.0.0.1:9/v1")
    err = _fails(["infer", "nope"], capsys)
    assert err == "atlas: error: unknown workload 'nope' (params.yaml lists: w)"


def test_missing_dataset(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_params(project, "http://127.0.0.1:9/v1")
    err = _fails(["infer", "w"], capsys)
    assert "dataset 'eval-t-v1' not found" in err


def test_invalid_params(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, "http://127.0.0.1:9/v1", decoding={"temperature": 0.5, "seed": None})
    err = _fails(["infer", "w"], capsys)
    assert "decoding" in err and "needs a seed" in err


def test_unreachable_endpoint_keeps_earlier_results(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    journal = project / "results" / "w" / "responses.jsonl"
    before = journal.read_bytes()
    capsys.readouterr()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again below: nothing listens there
    write_params(project, f"http://127.0.0.1:{port}/v1", model={"name": "other", "revision": "r9"})
    err = _fails(["infer", "w"], capsys)
    assert err.startswith(f"atlas: error: endpoint http://127.0.0.1:{port}/v1 is unreachable")
    assert journal.read_bytes() == before
