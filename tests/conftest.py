"""Shared fixtures: a throw-away project directory with the real generators and library."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def copy_gen(project: Path, *names: str) -> None:
    """Put ``_gen/common/`` and ``_gen/families/`` (what generators import: eval-math-v1 builds
    its rows with ``families.math.arithmetic``) and ``_gen/<name>`` into a project."""
    for shared in ("common", "families"):
        shutil.copytree(REPO / "_gen" / shared, project / "_gen" / shared,
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    for name in names:
        shutil.copy(REPO / "_gen" / name, project / "_gen" / name)


def run_generator(dataset_id: str, out: Path, repo: Path = REPO) -> None:
    """Run ``_gen/<id>.py OUT`` as the gen stage does."""
    subprocess.run(
        [sys.executable, str(repo / "_gen" / f"{dataset_id}.py"), str(out)],
        check=True,
        cwd=repo,
        capture_output=True,
    )


@pytest.fixture(autouse=True, scope="session")
def _audit_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The audit's verdict store (``stages.datasets.verdict_cache``) in a directory of the test
    session, never the user's cache."""
    patch = pytest.MonkeyPatch()
    patch.setenv("ATLAS_AUDIT_CACHE", str(tmp_path_factory.mktemp("audit-cache")))
    yield
    patch.undo()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A minimal project (params.yaml, _gen with eval-math-v1, its dataset, published as in the
    real corpus: the audit of issue 19 would fail it as a new dataset) as the cwd."""
    from stages.datasets.registry import publish

    copy_gen(tmp_path, "TEMPLATE.py", "eval-math-v1.py")
    (tmp_path / "params.yaml").write_text(
        "datasets:\n  - eval-math-v1\n\ncheck:\n  budget_mb: 25\n", encoding="utf-8"
    )
    run_generator("eval-math-v1", tmp_path / "datasets" / "eval-math-v1", tmp_path)
    publish("eval-math-v1", tmp_path / "datasets")
    monkeypatch.chdir(tmp_path)
    yield tmp_path
