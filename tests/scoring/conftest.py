"""Where the machine offers only the basic sandbox (no bubblewrap, not root), the scoring tests
that are about scoring, not isolation, opt in to it as a user would (``--unsafe-sandbox``); the
refusal itself is tested with the opt-in taken away (``test_sandbox_marking.py``)."""

from __future__ import annotations

import contextlib

import pytest

from stages.errors import AtlasError
from stages.scoring import sandbox


@pytest.fixture(autouse=True)
def _basic_only_machine_opts_in(monkeypatch: pytest.MonkeyPatch) -> None:
    with contextlib.suppress(AtlasError):  # a broken sandbox fails the code tests themselves
        if sandbox.isolation_mode() == "basic":
            monkeypatch.setattr(sandbox, "_unsafe_allowed", True)
