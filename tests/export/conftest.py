"""Fixtures for the export tests: the compare tests' helpers on the path, and a git repository
as the working directory."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE.parent / "compare"):
    if str(folder) not in sys.path:
        sys.path.append(str(folder))

from compare_helpers import git  # noqa: E402


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = tmp_path / "project"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "test")
    git(root, "config", "user.email", "test@atlas")
    monkeypatch.chdir(root)
    yield root
