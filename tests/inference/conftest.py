"""Fixtures for the inference tests: the project as cwd, fast backoff, a loopback stub."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for path in (HERE, HERE.parent):  # appended: installed packages always win a name clash
    if str(path) not in sys.path:
        sys.path.append(str(path))

from stub_server import StubConfig, StubServer  # noqa: E402

from stages.inference import client  # noqa: E402


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project root as the working directory, with fast retry backoff."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(client, "BACKOFF_BASE_S", 0.01)
    monkeypatch.delenv("ATLAS_TEST_KEY", raising=False)
    return tmp_path


@pytest.fixture
def stub() -> Iterator[StubServer]:
    with StubServer(StubConfig()) as server:
        yield server
