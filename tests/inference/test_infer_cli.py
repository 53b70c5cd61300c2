"""The everyday CLI (issue 15): ``atlas workloads``, ``--limit``, ``--dry-run``, help examples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from infer_helpers import eval_row, prompt_row, write_dataset, write_params
from stub_server import StubServer

from stages.cli import app, main


def test_workloads_lists_dataset_rows_scorers_and_type(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [eval_row(1), eval_row(2, scorer="numeric", answer=3), eval_row(3)]
    write_dataset(project, "eval-t-v1", "eval", rows)
    write_dataset(project, "prompts-t-v1", "prompts", [prompt_row(1)])
    workloads = {
        "w": {"dataset": "eval-t-v1"},
        "serving": {"dataset": "prompts-t-v1", "perf": True},
        "gone": {"dataset": "eval-gone-v1"},
    }
    write_params(project, "http://127.0.0.1:9/v1", workloads=workloads)
    capsys.readouterr()
    assert main(["workloads"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "workload  dataset          rows  scorers        type",
        "gone      eval-gone-v1  missing  -              eval",
        "serving   prompts-t-v1        1  -              perf",
        "w         eval-t-v1           3  exact,numeric  eval",
    ]  # params.yaml order (the test helper writes it sorted)


def test_dry_run_prints_the_plan_and_sends_nothing(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    long_prompt = "Explain this. " * 30  # 420 chars: 105 tokens, bucket s
    rows = [eval_row(i) for i in range(5)] + [eval_row(5, prompt=long_prompt)]
    write_dataset(project, "eval-t-v1", "eval", rows)
    write_params(project, stub.url, run={"concurrency": 2})
    capsys.readouterr()
    assert main(["infer", "w", "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "w: eval-t-v1 (eval), 6 of 6 rows x 1 repeat(s) = 6 requests, seeds [0], "
        "max_tokens 32, concurrency 2"
    )
    assert out[1:5] == [
        "approx input tokens (ceil(chars / 4)) by length bucket:",
        "  xs        5 requests          20 tokens",
        "  s         1 requests         105 tokens",
        "  all       6 requests         125 tokens",
    ]
    assert out[5] == (
        "journal results/w/responses.jsonl: 0 answered (reused unless the endpoint changed), "
        "0 failed (sent again), 6 never sent -> 6 to send"
    )
    assert (
        out[-2]
        == "estimate: no earlier run (metrics/w.serving.json missing) to estimate the time from"
    )
    assert stub.stats.requests == 0 and not (project / "results").exists()


def test_limit_and_an_estimate_from_the_last_run(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(10)])
    write_params(project, stub.url)
    assert main(["infer", "w", "--limit", "4"]) == 0
    manifest = json.loads((project / "results" / "w" / "manifest.json").read_text())
    assert manifest["ids"] == ["q-0000", "q-0001", "q-0002", "q-0003"]
    assert manifest["workload"]["limit"] == 4
    serving = project / "metrics" / "w.serving.json"
    metrics = json.loads(serving.read_text())
    metrics["main"]["requests_per_s"] = 2.0  # pretend the last run measured 2 req/s
    serving.write_text(json.dumps(metrics))
    journal = project / "results" / "w" / "responses.jsonl"
    with journal.open("ab") as handle:
        handle.write(b'{"key": "torn')  # a crash mid-write: a dry run reads past it, untouched
    before = journal.read_bytes()
    capsys.readouterr()
    assert main(["infer", "w", "--dry-run"]) == 0
    assert journal.read_bytes() == before
    out = capsys.readouterr().out.splitlines()
    assert out[-5] == (
        "journal results/w/responses.jsonl: 4 answered (reused unless the endpoint changed), "
        "0 failed (sent again), 6 never sent -> 6 to send"
    )
    assert out[-4] == "engine: unidentified by the last run: no engine fields"
    assert out[-3] == "load levels: none"
    assert out[-2] == (
        "estimate: about 3 s for 6 requests at 2 req/s (last run, metrics/w.serving.json, "
        "concurrency 4)"
    )
    assert out[-1] == "nothing sent (--dry-run)"
    assert stub.stats.requests == 4
    assert metrics["main"]["endpoint"] == stub.url  # the serving metrics name what they measured


def test_dry_run_against_an_endpoint_never_measured_cannot_estimate(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 33: the last run measured another server (here the same stub under another URL,
    as a remote endpoint replacing the embedded one would be): its rate is not borrowed."""
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(6)])
    write_params(project, stub.url)
    assert main(["infer", "w", "--limit", "2"]) == 0
    other = stub.url.replace("127.0.0.1", "localhost")
    write_params(project, other)
    capsys.readouterr()
    assert main(["infer", "w", "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == (
        f"cannot estimate: no run against {other} was measured yet (the last one, "
        f"metrics/w.serving.json, measured {stub.url}: another server's rate says nothing of "
        "this one)"
    )
    assert out[-4] == "engine: not identified yet (no run against this endpoint): no engine fields"
    # serving metrics from before they named their endpoint, and no manifest to tell: no guess
    serving = project / "metrics" / "w.serving.json"
    document = json.loads(serving.read_text())
    del document["main"]["endpoint"]
    serving.write_text(json.dumps(document))
    (project / "results" / "w" / "manifest.json").unlink()
    assert main(["infer", "w", "--dry-run"]) == 0
    assert capsys.readouterr().out.splitlines()[-2] == (
        "cannot estimate: the last run's metrics (metrics/w.serving.json) do not say which "
        f"endpoint they measured, and {other} may be another server"
    )


@pytest.mark.parametrize(
    ("load", "line"),
    [
        (
            {"mode": "concurrency", "levels": [1, 4, 16]},
            "load levels: 3 (concurrency 1, 4, 16), each from its own journal under "
            "results/w/load/, not in the estimate",
        ),
        (
            {"mode": "rate", "rates": [2, 0.5], "repeats": 3},
            "load levels: 2 (rate 2, 0.5) x 3 repeats, each from its own journal under "
            "results/w/load/, not in the estimate",
        ),
    ],
)
def test_dry_run_counts_the_load_levels(
    project: Path,
    stub: StubServer,
    capsys: pytest.CaptureFixture[str],
    load: dict[str, Any],
    line: str,
) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url, workloads={"w": {"dataset": "eval-t-v1", "load": load}})
    capsys.readouterr()
    assert main(["infer", "w", "--dry-run"]) == 0
    assert capsys.readouterr().out.splitlines()[-3] == line
    assert stub.stats.requests == 0


def _commands(group: Any, prefix: str) -> list[tuple[str, Any]]:
    """Every command under a (Typer) click group, groups included; typer vendors its own click."""
    found: list[tuple[str, Any]] = [(prefix, group)]
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            found += _commands(command, f"{prefix} {name}")
        else:
            found.append((f"{prefix} {name}", command))
    return found


def test_every_command_and_sub_app_help_has_an_example() -> None:
    commands = _commands(typer.main.get_command(app), "atlas")
    assert len(commands) >= 17  # every command, sub-app and sub-app command
    missing = [name for name, command in commands if "Example: atlas" not in (command.help or "")]
    assert missing == []
