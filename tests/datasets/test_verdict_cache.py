"""The store of mutation-testing verdicts: a verdict the program decided is reused, one the
machine decided (killed, timed out) is not, and any change to what it depends on is a new key."""

from __future__ import annotations

from pathlib import Path

import pytest

from stages.datasets import mutation, verdict_cache
from tests.datasets import planted


def test_decided_verdicts_are_reused_and_keys_follow_their_inputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ATLAS_AUDIT_CACHE", str(tmp_path))
    row = planted.code_row("code-1", planted.WEAK)
    first = mutation.mutation([row])
    assert len(list(tmp_path.glob("*.json"))) == 4  # reference + 3 mutants, all decided
    calls: list[str] = []
    monkeypatch.setattr(mutation, "score", lambda *a: calls.append("ran"))  # must not run
    again = mutation.mutation([row])
    assert calls == [] and again.survivors == first.survivors
    other = dict(row, tests=row["tests"] + "\nassert border_sum([[1]]) == 1")
    assert verdict_cache.key(row, "x") != verdict_cache.key(other, "x")
    assert verdict_cache.key(row, "x") != verdict_cache.key(row, "y")


def test_machine_decided_verdicts_are_not_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ATLAS_AUDIT_CACHE", str(tmp_path))
    row = planted.code_row("code-1", planted.WEAK)
    verdict_cache.store(row, "a", False, "killed after the 10 s wall-clock limit")
    verdict_cache.store(row, "b", False, "test 1 of 2 failed: 'assert f(1) == 2'")
    verdict_cache.store(row, "c", True, "2 tests passed")
    assert [verdict_cache.stored(row, r) for r in "abc"] == [None, False, True]
    monkeypatch.setenv("ATLAS_AUDIT_CACHE", "")
    assert verdict_cache.directory() is None and verdict_cache.stored(row, "c") is None
