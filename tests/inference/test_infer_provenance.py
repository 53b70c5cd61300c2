"""Provenance per record, drift re-sent or refused, and one seed per repeat (issue 11)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from infer_helpers import eval_row, write_dataset, write_params
from stub_server import StubConfig, StubServer

from stages.cli import main
from stages.inference.endpoint import Endpoint
from stages.inference.plan import plan_workload
from stages.inference.provenance import Observed, drift, manifest_entries
from stages.inference.run import run_pass

ONE, TWO = "{{ messages }} template ONE", "{{ messages }} template TWO"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _records(project: Path) -> list[dict[str, Any]]:
    text = (project / "results" / "w" / "responses.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def _manifest(project: Path) -> dict[str, Any]:
    return json.loads((project / "results" / "w" / "manifest.json").read_text())


def _entry(url: str, template: str | None, records: int, fp: str | None = None) -> dict[str, Any]:
    return {
        "endpoint": url,
        "chat_template_sha256": _sha(template) if template else None,
        "system_fingerprint": fp,
        "engine": None,
        "server_defaults_sha256": None,
        "records": records,
    }


def test_template_change_resends_and_the_manifest_lists_both(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    stub.config.props_template = ONE
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    assert {r["provenance"]["chat_template_sha256"] for r in _records(project)} == {_sha(ONE)}
    assert _manifest(project)["chat_templates"] == {_sha(ONE): ONE}

    stub.config.props_template = TWO  # same model and revision, another template served
    capsys.readouterr()
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 6
    err = capsys.readouterr().err
    assert f"w: the endpoint changed: 3 answers made under chat template {_sha(ONE)[:12]}" in err
    manifest = _manifest(project)
    assert manifest["provenance"] == [_entry(stub.url, TWO, 3)]
    assert manifest["superseded"] == [_entry(stub.url, ONE, 3)]
    assert manifest["counts"]["resent_drifted"] == 3
    assert manifest["chat_templates"] == {_sha(TWO): TWO}

    assert main(["infer", "w"]) == 0  # nothing changed since: nothing sent
    assert stub.stats.requests == 6 and _manifest(project)["superseded"] == []


def test_no_resend_on_drift_refuses_with_exit_4_and_writes_nothing(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    stub.config.props_template = ONE
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    journal = (project / "results" / "w" / "responses.jsonl").read_bytes()
    manifest = (project / "results" / "w" / "manifest.json").read_bytes()
    stub.config.props_template = TWO
    capsys.readouterr()
    assert main(["infer", "w", "--no-resend-on-drift"]) == 4
    err = capsys.readouterr().err
    assert err.startswith("atlas: error: w: the endpoint changed since these answers were")
    assert "rerun without --no-resend-on-drift to send them again" in err
    assert stub.stats.requests == 2
    assert (project / "results" / "w" / "responses.jsonl").read_bytes() == journal
    assert (project / "results" / "w" / "manifest.json").read_bytes() == manifest


def test_fingerprint_change_is_probed_once_then_resent(project: Path, stub: StubServer) -> None:
    stub.config.fingerprint = "fp_a"
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    assert [r["provenance"]["system_fingerprint"] for r in _records(project)] == ["fp_a"] * 2
    assert main(["infer", "w"]) == 0  # same fingerprint: one probe, nothing re-sent
    assert stub.stats.requests == 3 and stub.stats.bodies[2]["max_tokens"] == 1
    stub.config.fingerprint = "fp_b"
    assert main(["infer", "w"]) == 0  # probe sees fp_b: both answers sent again
    assert stub.stats.requests == 6
    manifest = _manifest(project)
    assert manifest["provenance"] == [_entry(stub.url, None, 2, "fp_b")]
    assert manifest["superseded"] == [_entry(stub.url, None, 2, "fp_a")]


def test_answers_of_two_endpoints_are_counted_per_endpoint(project: Path) -> None:
    """base_url changes between runs: old answers stay credited to the endpoint that made them."""
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(4)])
    with StubServer(StubConfig()) as a, StubServer(StubConfig()) as b:
        write_params(project, a.url, run={"limit": 2})
        assert main(["infer", "w"]) == 0
        write_params(project, b.url, run={"limit": None})
        assert main(["infer", "w"]) == 0
        assert (a.stats.requests, b.stats.requests) == (2, 2)
        by_id = {r["id"]: r["provenance"]["endpoint"] for r in _records(project)}
        assert by_id == {"q-0000": a.url, "q-0001": a.url, "q-0002": b.url, "q-0003": b.url}
        expected = [_entry(a.url, None, 2), _entry(b.url, None, 2)]  # equal counts: by URL
        assert _manifest(project)["provenance"] == sorted(expected, key=lambda e: e["endpoint"])


def test_round_robin_over_two_urls_counts_both(project: Path) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(6)])
    with StubServer(StubConfig()) as a, StubServer(StubConfig()) as b:
        write_params(project, [a.url, b.url], run={"concurrency": 2})
        assert main(["infer", "w"]) == 0
        expected = [_entry(a.url, None, 3), _entry(b.url, None, 3)]
        assert _manifest(project)["provenance"] == sorted(expected, key=lambda e: e["endpoint"])


def test_each_repeat_sends_its_own_seed(project: Path, stub: StubServer) -> None:
    stub.config.reply_fn = lambda body: f"sample drawn with seed {body['seed']}"
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1), eval_row(2)])
    write_params(project, stub.url, decoding={"temperature": 0.7, "seed": 5})
    assert main(["infer", "w"]) == 0
    records = sorted(_records(project), key=lambda r: (r["id"], r["repeat"]))
    assert [(r["id"], r["repeat"], r["seed"]) for r in records] == [
        ("q-0001", 0, 5), ("q-0001", 1, 6), ("q-0001", 2, 7),
        ("q-0002", 0, 5), ("q-0002", 1, 6), ("q-0002", 2, 7),
    ]  # fmt: skip
    assert [r["output"] for r in records[:3]] == [
        "sample drawn with seed 5", "sample drawn with seed 6", "sample drawn with seed 7"
    ]  # fmt: skip
    assert sorted(b["seed"] for b in stub.stats.bodies) == [5, 5, 6, 6, 7, 7]
    assert len({r["key"] for r in records}) == 6
    manifest = _manifest(project)
    assert manifest["seeds"] == [5, 6, 7] and manifest["decoding"]["seed"] == 5


def test_repeats_go_out_repeat_by_repeat(project: Path, stub: StubServer) -> None:
    """A prompt is never sent right after itself (a server reusing its KV cache would compute
    the repeat's last prompt token alone, which changes its outputs)."""
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1), eval_row(2)])
    write_params(project, stub.url, decoding={"temperature": 0.7, "seed": 5},
                 run={"concurrency": 1})  # fmt: skip
    assert main(["infer", "w"]) == 0
    sent = [(b["messages"][0]["content"], b["seed"]) for b in stub.stats.bodies]
    assert sent == [
        ("What is 1 + 1?", 5), ("What is 2 + 1?", 5), ("What is 1 + 1?", 6),
        ("What is 2 + 1?", 6), ("What is 1 + 1?", 7), ("What is 2 + 1?", 7),
    ]  # fmt: skip


def test_greedy_runs_send_the_seed_once_and_refuse_repeats(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    [record] = _records(project)
    assert record["seed"] == 0 and _manifest(project)["seeds"] == [0]
    write_params(project, stub.url, decoding={"repeats": 3})
    capsys.readouterr()
    assert main(["infer", "w"]) == 2
    assert "repeats > 1 with temperature 0" in capsys.readouterr().err


def test_drift_rule_and_manifest_grouping() -> None:
    made = {"endpoint": "u", "chat_template_sha256": "a" * 64, "system_fingerprint": "fp1",
            "engine": None, "server_defaults_sha256": None}  # fmt: skip
    record = {"provenance": made}
    assert drift(record, Observed(frozenset({"a" * 64}), None)) is None
    assert drift(record, Observed(frozenset({"a" * 64}), None, frozenset({"fp1"}))) is None
    assert drift(record, Observed(frozenset({"a" * 64}), None, frozenset({"fp2"}))) == (
        "system_fingerprint fp1 (now fp2)"
    )
    assert drift(record, Observed(frozenset({"b" * 64}), None)) == (
        f"chat template {'a' * 12} (the endpoint now serves {'b' * 12})"
    )
    assert drift(record, Observed(frozenset({"a" * 64}), "e1")) == "engine none (now e1)"
    legacy = {"key": "k"}  # journaled before provenance existed
    assert drift(legacy, Observed(frozenset({None}), None)) is None
    assert drift(legacy, Observed(frozenset({"a" * 64}), None)) is not None
    entries = manifest_entries([record, legacy, record])
    assert entries == [
        {**made, "records": 2},
        {"endpoint": None, "chat_template_sha256": None, "system_fingerprint": None,
         "engine": None, "server_defaults_sha256": None, "records": 1},
    ]  # fmt: skip


def test_nothing_to_send_never_starts_the_embedded_server(project: Path, stub: StubServer) -> None:
    """The embedded endpoint shows its template and engine before its server runs; a rerun with
    everything journaled under them starts no server at all."""
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    plan = plan_workload("w")
    started: list[str] = []

    def start() -> str:
        started.append("server")
        return stub.url

    lazy = Endpoint([], {}, ["embedded:x.gguf"], [None], starter=start)
    journal = project / "results" / "w" / "responses.jsonl"
    done = run_pass(plan, lazy, journal, 2, "w")
    assert (len(done.records), done.fresh, started) == (2, [], [])
    again = project / "results" / "w" / "other.jsonl"  # an empty journal: both to send
    sent = run_pass(plan, lazy, again, 2, "w")
    assert (len(sent.fresh), started, lazy.urls) == (2, ["server"], [stub.url])
    assert {r["provenance"]["endpoint"] for r in sent.fresh} == {"embedded:x.gguf"}
