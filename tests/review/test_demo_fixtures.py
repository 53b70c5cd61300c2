"""The committed DEMO verdicts (review/verdicts/kouman-demo/) fit the blind ids that
``atlas review export`` produces for the kouman-demo study, so ``dvc repro`` can import them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from stages.cli import main

REPO = Path(__file__).resolve().parents[2]
# What params.yaml needs for the worked example (added to a copy when it lacks them).
CARD = {
    "name": "SmolLM2-135M-Instruct",
    "developer": "Hugging Face",
    "parameters": "135M",
    "context_length": 8192,
    "knowledge_cutoff": "unknown",
    "languages": ["en"],
}
WORKLOADS = {
    "identity": {"dataset": "eval-identity-v1", "limit": 16, "max_tokens": 128},
    "translation": {"dataset": "eval-translation-v1", "limit": 16, "max_tokens": 96},
}


@pytest.fixture
def demo_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, journal: Any) -> Path:
    shutil.copytree(REPO / "_gen", tmp_path / "_gen")
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    params["model"].setdefault("card", CARD)
    for name, workload in WORKLOADS.items():
        params["workloads"].setdefault(name, workload)
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params))
    for dataset in ("eval-identity-v1", "eval-translation-v1"):
        subprocess.run(
            [sys.executable, f"_gen/{dataset}.py", f"datasets/{dataset}"],
            check=True,
            cwd=tmp_path,
            capture_output=True,
        )
    shutil.copytree(REPO / "review/studies", tmp_path / "review/studies")
    shutil.copytree(REPO / "review/verdicts/kouman-demo", tmp_path / "review/verdicts/kouman-demo")
    monkeypatch.chdir(tmp_path)
    for name, workload in WORKLOADS.items():
        rows = Path(f"datasets/{workload['dataset']}/rows.jsonl").read_text().splitlines()
        limit = params["workloads"][name].get("limit") or params["run"]["limit"]
        journal(name, {json.loads(r)["id"]: "demo output" for r in rows[:limit]})
    return tmp_path


def test_demo_verdicts_import_cleanly(
    demo_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "export", "--study", "kouman-demo"]) == 0
    assert "verdict template" not in capsys.readouterr().out  # the fixtures already exist
    assert main(["review", "import", "--study", "kouman-demo"]) == 0
    metrics = json.loads(Path("metrics/review.kouman-demo.json").read_text())
    assert metrics["demo"] is True and metrics["unresolved"] == 0
    assert metrics["tracks"]["translation"]["groups"].keys() == {"en-fr", "fr-en"}
    for name in ("demo-a", "demo-b", "adjudication"):
        data = json.loads(Path(f"review/verdicts/kouman-demo/{name}.pass1.json").read_text())
        assert data["demo"] is True and data["notice"].startswith("DEMO DATA")
