"""Endpoints with weights, health and failover (issue 23). What was seen: with one live stub and
one dead port in ``base_url``, ``atlas infer`` refused to start (exit 2, "endpoint ... is
unreachable") although the live replica could serve every request. Now a replica that is down
or fails mid-run is taken out and retried later, its requests go to the others (each journaled
once), weights shape the share each replica gets, and the manifest counts records per endpoint."""

from __future__ import annotations

import json
import socket
from collections import Counter
from pathlib import Path
from typing import Any

from infer_helpers import eval_row, write_dataset, write_params
from stub_server import StubConfig, StubServer

from stages.cli import main


def _dead_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"  # nothing listens there


def _journal(project: Path) -> list[dict[str, Any]]:
    text = (project / "results" / "w" / "responses.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def _manifest(project: Path) -> dict[str, Any]:
    return dict(json.loads((project / "results" / "w" / "manifest.json").read_text()))


def test_one_dead_replica_does_not_stop_the_run(
    project: Path, stub: StubServer, capsys: Any
) -> None:
    dead = _dead_url()
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(12)])
    write_params(project, [stub.url, dead])
    assert main(["infer", "w"]) == 0
    err = capsys.readouterr().err
    assert f"note: endpoint {dead} is unreachable" in err
    assert "sending to the other endpoints; it is tried again later" in err
    records = _journal(project)
    assert len(records) == len({r["key"] for r in records}) == 12 == stub.stats.requests
    assert all(r["error"] is None for r in records)
    assert {r["provenance"]["endpoint"] for r in records} == {stub.url}
    endpoints = _manifest(project)["endpoints"]
    assert endpoints == [
        {"endpoint": stub.url, "weight": 1.0, "records": 12, "failed_over_from": 0},
        {"endpoint": dead, "weight": 1.0, "records": 0, "failed_over_from": 0},
    ]


def test_every_replica_unreachable_still_stops_before_sending(project: Path, capsys: Any) -> None:
    dead = _dead_url()
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, [dead, _dead_url()])
    assert main(["infer", "w"]) == 2
    assert f"atlas: error: endpoint {dead} is unreachable" in capsys.readouterr().err


def test_weights_share_the_requests(project: Path) -> None:
    with StubServer(StubConfig()) as heavy, StubServer(StubConfig()) as light:
        write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(40)])
        base_url = [{"url": heavy.url, "weight": 3}, {"url": light.url, "weight": 1}]
        write_params(project, base_url, run={"concurrency": 1})
        assert main(["infer", "w"]) == 0
        assert (heavy.stats.requests, light.stats.requests) == (30, 10)
        by_endpoint = Counter(r["provenance"]["endpoint"] for r in _journal(project))
        assert by_endpoint == {heavy.url: 30, light.url: 10}
        weights = [(e["endpoint"], e["weight"]) for e in _manifest(project)["endpoints"]]
        assert weights == [(heavy.url, 3.0), (light.url, 1.0)]


def test_a_replica_killed_mid_run_fails_over_with_nothing_lost_or_twice(project: Path) -> None:
    """Replica B drops every connection after its 10th request (the process died); its requests in
    flight then and after go to A, without spending the retry budget (max_retries 0 here)."""
    with (
        StubServer(StubConfig(delay_s=0.02)) as a,
        StubServer(StubConfig(delay_s=0.02, down_after=10)) as b,
    ):
        write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(60)])
        write_params(project, [a.url, b.url], run={"concurrency": 4, "max_retries": 0})
        assert main(["infer", "w"]) == 0
        records = _journal(project)
        assert len(records) == len({r["key"] for r in records}) == 60
        assert all(r["error"] is None and r["attempts"] == 1 for r in records)
        answered = Counter(r["provenance"]["endpoint"] for r in records)
        assert answered[b.url] == 10 and answered[a.url] == 50
        failed_over = [r for r in records if r.get("failover")]
        assert failed_over and all(r["failover"] == [b.url] for r in failed_over)
        assert all(r["provenance"]["endpoint"] == a.url for r in failed_over)
        endpoints = {e["endpoint"]: e for e in _manifest(project)["endpoints"]}
        assert endpoints[b.url]["records"] == 10
        assert endpoints[b.url]["failed_over_from"] == len(failed_over)
        # A got every other item exactly once; B's dead connections may have been tried twice
        # (a pooled one, then a new one) before the request failed over
        sent_to_a = Counter(body["messages"][-1]["content"] for body in a.stats.bodies)
        assert a.stats.requests == 50 and max(sent_to_a.values()) == 1
