"""Shared fixtures: a throw-away project directory with the real generators and library."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def run_generator(dataset_id: str, out: Path, repo: Path = REPO) -> None:
    """Run ``_gen/<id>.py OUT`` as the gen stage does."""
    subprocess.run(
        [sys.executable, str(repo / "_gen" / f"{dataset_id}.py"), str(out)],
        check=True,
        cwd=repo,
        capture_output=True,
    )


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A minimal project (params.yaml, _gen with eval-math-v1, its dataset) as the cwd."""
    (tmp_path / "_gen").mkdir()
    for name in ("_lib.py", "_fresh.py", "TEMPLATE.py", "eval-math-v1.py"):
        shutil.copy(REPO / "_gen" / name, tmp_path / "_gen" / name)
    (tmp_path / "params.yaml").write_text(
        "datasets:\n  - eval-math-v1\n\ncheck:\n  budget_mb: 25\n", encoding="utf-8"
    )
    run_generator("eval-math-v1", tmp_path / "datasets" / "eval-math-v1", tmp_path)
    monkeypatch.chdir(tmp_path)
    yield tmp_path
