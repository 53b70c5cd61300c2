"""Issue 33 against a real server: the embedded llama-server answers ``/v1/responses`` too, and
with greedy decoding the same maths and tools items asked both ways give the same answers, the
same token counts and the same verdicts (llama.cpp turns a Responses request into the chat
request this project would have sent, so any difference is this project's doing)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from infer_helpers import REPO

WORKLOADS = {
    "math": {"dataset": "eval-math-v4", "limit": 3, "max_tokens": 48, "slots": 1},
    "tools": {"dataset": "eval-tools-v1", "limit": 3, "max_tokens": 48, "slots": 1},
}


def _run(root: Path, api: str) -> None:
    root.mkdir()
    for workload in WORKLOADS.values():
        shutil.copytree(REPO / "datasets" / workload["dataset"], root / "datasets" / workload[
            "dataset"])  # fmt: skip
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    params["run"]["limit"] = None
    params["run"]["timeout_s"] = 3600  # a loaded 2-core machine: no request may fail on time
    params["model"]["api"] = api
    params["workloads"] = WORKLOADS
    (root / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    for workload in WORKLOADS:
        for command in ("infer", "score"):
            done = subprocess.run(
                [sys.executable, "-c", "from stages.cli import app; app()", command, workload],
                cwd=root, capture_output=True, text=True, timeout=3600, check=False,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr


def _answers(root: Path, workload: str) -> list[tuple[Any, ...]]:
    lines = (root / "results" / workload / "responses.jsonl").read_text().splitlines()
    records = sorted((json.loads(line) for line in lines), key=lambda r: r["id"])
    return [
        (r["id"], r["output"], [c["function"] for c in r["tool_calls"] or []], r["finish_reason"],
         r["usage"]["prompt_tokens"], r["usage"]["completion_tokens"], r["error"])
        for r in records
    ]  # fmt: skip


def _verdicts(root: Path, workload: str) -> list[tuple[str, bool]]:
    lines = (root / "metrics" / "verdicts" / f"{workload}.jsonl").read_text().splitlines()
    return [(v["id"], v["correct"]) for v in map(json.loads, lines)]


@pytest.mark.embedded
def test_embedded_server_answers_both_protocols_alike(tmp_path: Path) -> None:
    _run(tmp_path / "chat", "chat")
    _run(tmp_path / "responses", "responses")
    for workload in WORKLOADS:
        chat = _answers(tmp_path / "chat", workload)
        assert all(a[-1] is None and (a[1].strip() or a[2]) for a in chat), workload
        assert _answers(tmp_path / "responses", workload) == chat, workload
        verdicts = _verdicts(tmp_path / "responses", workload)
        assert verdicts == _verdicts(tmp_path / "chat", workload), workload
