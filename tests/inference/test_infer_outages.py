"""Failures are not finished: an outage ends in exit code 3 and a rerun repairs it (issue 11)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from infer_helpers import eval_row, oracle, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main
from stages.inference.failures import TooManyFailures, check_failed_share


def _records(project: Path) -> list[dict[str, Any]]:
    text = (project / "results" / "w" / "responses.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def _asked(bodies: list[dict[str, Any]]) -> list[str]:
    return sorted(b["messages"][-1]["content"] for b in bodies)


def _outage(project: Path, stub: StubServer) -> None:
    """Ten items; the endpoint dies after answering four of them."""
    stub.config.reply_fn = oracle
    stub.config.down_after = 4
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(10)])
    write_params(project, stub.url, run={"concurrency": 1, "max_retries": 1})


def test_outage_exits_3_and_a_rerun_sends_exactly_the_failed_requests(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    _outage(project, stub)
    assert main(["infer", "w"]) == 3
    err = capsys.readouterr().err
    assert (
        "atlas: error: w: 6 of 10 requests failed (connection 6), more than the 0.05 tolerated; "
        "all 6 are connection errors: is the endpoint up? A rerun sends only the failed requests "
        "again (--keep-failed keeps failures as results)"
    ) in err
    failed = [r for r in _records(project) if r["error"] is not None]
    assert len(failed) == 6 and {r["attempts"] for r in failed} == {2}
    manifest = json.loads((project / "results" / "w" / "manifest.json").read_text())
    assert manifest["counts"]["failed_by_kind"] == {"connection": 6}

    stub.config.down_after = None  # the endpoint is back
    before = len(stub.stats.bodies)
    assert main(["infer", "w"]) == 0
    resent = stub.stats.bodies[before:]
    assert _asked(resent) == sorted(f"What is {i} + 1?" for i in range(4, 10))
    manifest = json.loads((project / "results" / "w" / "manifest.json").read_text())
    counts = manifest["counts"]
    assert (counts["finished_before"], counts["sent"], counts["resent_failed"]) == (4, 6, 6)
    assert (counts["ok"], counts["failed"]) == (10, 0)
    assert main(["score", "w"]) == 0
    metrics = json.loads((project / "metrics" / "w.json").read_text())
    assert (metrics["n"], metrics["correct"], metrics["accuracy"]) == (10, 10, 1.0)


def test_keep_failed_keeps_failures_and_scoring_counts_them_wrong(
    project: Path, stub: StubServer
) -> None:
    _outage(project, stub)
    assert main(["infer", "w"]) == 3
    stub.config.down_after = None
    before = stub.stats.requests
    assert main(["infer", "w", "--keep-failed"]) == 3  # still 6 of 10 failed
    assert stub.stats.requests == before
    assert main(["score", "w"]) == 0
    metrics = json.loads((project / "metrics" / "w.json").read_text())
    assert (metrics["n"], metrics["correct"], metrics["failed"]) == (10, 4, 6)


def test_every_request_refused_names_the_cause(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    stub.config.fail_status, stub.config.fail_first = 404, 100  # a wrong path or model name
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 3
    assert (
        "w: 3 of 3 requests failed (http_4xx 3), more than the 0.05 tolerated; every request "
        "failed with HTTP 4xx answers: check model.base_url, model.name and the API key. "
        "A rerun sends only the failed requests again"
    ) in capsys.readouterr().err


def test_context_overflows_do_not_count_towards_the_failed_share(
    project: Path, stub: StubServer
) -> None:
    stub.config.overflow_chars = 15  # "What is 3 + 1?" (14 chars) fits, "What is 100 + 1?" not
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in (1, 2, 3, 100)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0  # 1 of 4 overflowed: a result, not an outage
    assert main(["infer", "w"]) == 0  # sent again (a larger context may take it), fails again
    assert stub.stats.requests == 5
    assert main(["score", "w"]) == 0
    metrics = json.loads((project / "metrics" / "w.json").read_text())
    assert (metrics["n"], metrics["correct"], metrics["failed"]) == (4, 0, 1)


def test_a_workload_may_tolerate_its_known_failures(project: Path, stub: StubServer) -> None:
    stub.config.fail_status, stub.config.fail_first = 500, 100  # e.g. images on a text model
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, stub.url, run={"max_retries": 0})
    assert main(["infer", "w"]) == 3
    workloads = {"w": {"dataset": "eval-t-v1", "max_failed_share": 1.0}}
    write_params(project, stub.url, run={"max_retries": 0}, workloads=workloads)
    assert main(["infer", "w"]) == 0  # sent again, fails again, tolerated
    assert stub.stats.requests == 2


def test_failed_share_threshold_and_cause_wording() -> None:
    check_failed_share("w", {"timeout": 1}, 20, 0.05)  # exactly 0.05: tolerated
    with pytest.raises(TooManyFailures) as caught:
        check_failed_share("w", {"timeout": 2, "http_5xx": 1}, 20, 0.05)
    assert caught.value.exit_code == 3
    assert str(caught.value) == (
        "w: 3 of 20 requests failed (http_5xx 1, timeout 2), more than the 0.05 tolerated; "
        "most failures are total timeouts: is the server trickling? (see run.timeout_s). "
        "A rerun sends only the failed requests again (--keep-failed keeps "
        "failures as results)"
    )
    with pytest.raises(TooManyFailures, match="the failure is one of server errors"):
        check_failed_share("w", {"http_5xx": 1}, 2, 0.0)
    check_failed_share("w", {"context_overflow": 5}, 10, 0.05)  # not counted
    with pytest.raises(TooManyFailures) as caught:
        check_failed_share("w", {"context_overflow": 5, "connection": 5}, 10, 0.05)
    assert str(caught.value) == (
        "w: 5 of 10 requests failed (connection 5; and 5 context_overflow, not counted), more "
        "than the 0.05 tolerated; all 5 are connection errors: is the endpoint up? A rerun sends "
        "only the failed requests again (--keep-failed keeps failures as results)"
    )


def test_a_non_sse_200_is_an_invalid_response_and_not_retried(
    project: Path, stub: StubServer
) -> None:
    stub.config.raw_200 = ("text/html; charset=utf-8", b"<html><body>Sign in</body></html>")
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 3
    [record] = _records(project)
    assert record["error"] == {
        "kind": "invalid_response",
        "message": "200 with Content-Type 'text/html; charset=utf-8', not an SSE stream: "
        "b'<html><body>Sign in</body></html>'",
    }
    assert record["attempts"] == 1 and stub.stats.requests == 1


def test_a_json_error_body_with_200_is_an_invalid_response(project: Path, stub: StubServer) -> None:
    stub.config.raw_200 = ("application/json", b'{"error": {"message": "model overloaded"}}')
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 3
    [record] = _records(project)
    assert record["error"]["kind"] == "invalid_response"
    assert record["error"]["message"] == (
        "200 with Content-Type 'application/json', not an SSE stream: "
        'b\'{"error": {"message": "model overloaded"}}\''
    )
    assert stub.stats.requests == 1
