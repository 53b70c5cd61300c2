"""Never lose, never repeat: journal keys, torn lines, and a killed run resumed."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from infer_helpers import eval_row, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main
from stages.inference.journal import Journal, canonical, key_prefix, request_key, run_key

ATLAS = [sys.executable, "-c", "from stages.cli import app; app()"]


def test_keys_hash_the_canonical_json_of_model_decoding_body_and_repeat() -> None:
    decoding = {"temperature": 0.0, "seed": 0}
    body = {"messages": [{"role": "user", "content": "é"}], "model": "m"}
    key = request_key(key_prefix("m", "r1", decoding), canonical(body), 2)
    expected = hashlib.sha256(
        '["m","r1",{"seed":0,"temperature":0.0},{"messages":[{"content":"é","role":"user"}],'
        '"model":"m"},2]'.encode()
    ).hexdigest()
    assert key == expected
    assert (
        run_key("m", "r1", decoding)
        == hashlib.sha256(b'["m","r1",{"seed":0,"temperature":0.0}]').hexdigest()
    )
    assert request_key(key_prefix("other", "r1", decoding), canonical(body), 2) != key


def test_torn_last_line_is_dropped_and_its_request_sent_again(
    project: Path, stub: StubServer
) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url, run={"concurrency": 1})
    assert main(["infer", "w"]) == 0
    journal = project / "results" / "w" / "responses.jsonl"
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(lines[:2]) + lines[2][:40])  # crash in the middle of line 3
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 4
    repaired = journal.read_bytes().splitlines(keepends=True)
    assert repaired[:2] == lines[:2] and len(repaired) == 3
    assert [json.loads(line)["id"] for line in repaired] == ["q-0000", "q-0001", "q-0002"]


def test_journal_reader_keeps_complete_lines(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(b'{"key": "a", "run_key": "x"}\n{"key": "b", "ru')
    journal = Journal(path)
    assert journal.keys == {"a"}
    assert path.read_bytes() == b'{"key": "a", "run_key": "x"}\n'


def _lines(path: Path) -> int:
    return len(path.read_bytes().splitlines()) if path.exists() else 0


def test_killed_run_rerun_sends_only_the_missing_requests(project: Path, stub: StubServer) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(10)])
    write_params(project, stub.url, run={"concurrency": 2, "timeout_s": 60})
    stub.config.hang_after = 4  # requests 5 and 6 never finish: the run is stuck half way
    journal = project / "results" / "w" / "responses.jsonl"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    process = subprocess.Popen([*ATLAS, "infer", "w"], cwd=project, env=env,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while (_lines(journal) < 4 or stub.stats.requests < 6) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert _lines(journal) == 4 and stub.stats.requests == 6
    stub.config.hang_after = None
    before = stub.stats.requests
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests - before == 6
    ids = [json.loads(line)["id"] for line in journal.read_text().splitlines()]
    assert sorted(ids) == [f"q-{i:04d}" for i in range(10)]
    manifest = json.loads((project / "results" / "w" / "manifest.json").read_text())
    assert manifest["counts"]["finished_before"] == 4 and manifest["counts"]["sent"] == 6


def test_changing_the_model_sends_everything_again_under_a_new_run_key(
    project: Path, stub: StubServer
) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    write_params(project, stub.url, model={"name": "stub-model", "revision": "r2"})
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 4
    journal = project / "results" / "w" / "responses.jsonl"
    run_keys = [json.loads(line)["run_key"] for line in journal.read_text().splitlines()]
    manifest = json.loads((project / "results" / "w" / "manifest.json").read_text())
    assert run_keys[0] == run_keys[1] != run_keys[2] == run_keys[3] == manifest["run_key"]
    assert manifest["counts"]["requests"] == 2 and manifest["counts"]["finished_before"] == 0


def test_repeats_are_separate_requests(project: Path, stub: StubServer) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, stub.url, decoding={"temperature": 0.7, "seed": 5})
    assert main(["infer", "w"]) == 0
    journal = project / "results" / "w" / "responses.jsonl"
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    assert sorted(r["repeat"] for r in records) == [0, 1, 2]  # journaled as they finish
    assert len({r["key"] for r in records}) == 3 and stub.stats.requests == 3


def test_a_journal_linked_into_a_cache_is_copied_before_appending(tmp_path: Path) -> None:
    cached = tmp_path / "cache" / "ab12"
    cached.parent.mkdir()
    cached.write_bytes(b'{"key": "a", "run_key": "x"}\n')
    for name, link in (("sym.jsonl", Path.symlink_to), ("hard.jsonl", Path.hardlink_to)):
        path = tmp_path / name
        link(path, cached)
        with Journal(path) as journal:
            journal.append({"key": "b", "run_key": "x"})
        assert not path.is_symlink() and path.stat().st_nlink == 1
        assert path.read_bytes() == b'{"key": "a", "run_key": "x"}\n{"key": "b", "run_key": "x"}\n'
    assert cached.read_bytes() == b'{"key": "a", "run_key": "x"}\n'
