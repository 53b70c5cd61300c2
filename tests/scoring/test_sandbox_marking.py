"""Issue 24: the isolation of every code verdict is in the metrics, the verdict lines and the
report; the basic sandbox is refused unless opted in, and then every figure is marked unsafe."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from stages.cli import main
from stages.scoring import sandbox

REPO = Path(__file__).resolve().parents[2]
RK = "e" * 64


def _code_run(root: Path, unsafe: bool = False) -> list[dict[str, Any]]:
    """eval-code-v1 limited to 2 rows, answered with each row's reference solution."""
    shutil.copytree(REPO / "datasets" / "eval-code-v1", root / "datasets" / "eval-code-v1")
    rows_file = root / "datasets/eval-code-v1/rows.jsonl"
    rows = [json.loads(line) for line in rows_file.read_text().splitlines()[:2]]
    extra = "    unsafe_sandbox: true\n" if unsafe else ""
    (root / "params.yaml").write_text(
        f"workloads:\n  code:\n    dataset: eval-code-v1\n    limit: 2\n{extra}"
    )
    results = root / "results" / "code"
    results.mkdir(parents=True)
    manifest = {
        "run_key": RK,
        "model": {"name": "m", "revision": "r"},
        "decoding": {"temperature": 0.0},
        "dataset": {
            "id": "eval-code-v1",
            "sha256": hashlib.sha256(rows_file.read_bytes()).hexdigest(),
        },
    }
    (results / "manifest.json").write_text(json.dumps(manifest))
    records = [
        {"run_key": RK, "id": r["id"], "repeat": 0, "error": None,
         "output": f"```python\n{r['meta']['reference_solution']}```"}
        for r in rows
    ]  # fmt: skip
    (results / "responses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return rows


def _verdicts(root: Path) -> list[dict[str, Any]]:
    text = (root / "metrics/verdicts/code.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def test_the_real_sandbox_is_recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _code_run(tmp_path)
    monkeypatch.chdir(tmp_path)
    mode = sandbox.isolation_mode()
    if mode == "basic":
        pytest.skip("no bubblewrap or namespaces here")
    assert main(["score", "code"]) == 0
    metrics = json.loads(Path("metrics/code.json").read_text())
    assert (metrics["correct"], metrics["sandbox"]) == (
        2,
        {"isolation": {mode: 2}, "unsafe": False},
    )
    assert [v["isolation"] for v in _verdicts(tmp_path)] == [mode, mode]
    assert main(["report"]) == 0
    report = Path("report.md").read_text()
    assert f"code_exec verdicts by sandbox: {mode} 2." in report and "UNSAFE" not in report
    assert "unsafe_sandbox" not in json.loads(Path("metrics/summary/code.json").read_text())


def test_basic_is_refused_then_marked_unsafe_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _code_run(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sandbox, "isolation_mode", lambda: "basic")
    monkeypatch.setattr(sandbox, "_unsafe_allowed", False)
    assert main(["score", "code"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("atlas: error: row code-0001: code_exec needs a real sandbox")
    assert "apt-get install bubblewrap" in err and "--unsafe-sandbox" in err
    assert not Path("metrics/code.json").exists()  # nothing written
    assert main(["score", "code", "--unsafe-sandbox"]) == 0
    assert "warning: code_exec ran in the basic sandbox" in capsys.readouterr().err
    metrics = json.loads(Path("metrics/code.json").read_text())
    assert metrics["sandbox"] == {"isolation": {"basic": 2}, "unsafe": True}
    assert [v["isolation"] for v in _verdicts(tmp_path)] == ["basic", "basic"]
    assert main(["report"]) == 0
    report = Path("report.md").read_text()
    assert "| code | eval-code-v1 | eval | 2 | 2 | 100.0 % UNSAFE |" in report
    assert "**UNSAFE**: code_exec verdicts by sandbox: basic 2." in report
    assert (
        "<strong>UNSAFE</strong>: code_exec verdicts by sandbox: basic 2."
        in Path("report.html").read_text()
    )
    assert json.loads(Path("metrics/summary/code.json").read_text())["unsafe_sandbox"] is True


def test_the_params_flag_opts_in_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _code_run(tmp_path, unsafe=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sandbox, "isolation_mode", lambda: "basic")
    monkeypatch.setattr(sandbox, "_unsafe_allowed", False)
    assert main(["score", "code"]) == 0
    assert json.loads(Path("metrics/code.json").read_text())["sandbox"]["unsafe"] is True
