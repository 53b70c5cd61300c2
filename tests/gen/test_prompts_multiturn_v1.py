"""prompts-multiturn-v1: byte-identical regeneration, schema-valid rows whose follow-up turns
come from the generator's pools, and unique openings over every topic."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from collections import Counter
from pathlib import Path

from stages.datasets.check import first_difference
from stages.datasets.rows import PromptRow
from tests.conftest import run_generator

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "_gen"))
_spec = importlib.util.spec_from_file_location(
    "multiturn_gen", REPO / "_gen" / "prompts-multiturn-v1.py"
)
assert _spec is not None and _spec.loader is not None
GEN = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(GEN)
COMMITTED = REPO / "datasets" / "prompts-multiturn-v1"
ROWS = [json.loads(line) for line in (COMMITTED / "rows.jsonl").read_text("utf-8").splitlines()]


def test_two_runs_give_the_committed_bytes(tmp_path: Path) -> None:
    run_generator("prompts-multiturn-v1", tmp_path / "a")
    run_generator("prompts-multiturn-v1", tmp_path / "b")
    assert first_difference(tmp_path / "a", tmp_path / "b") is None
    assert first_difference(COMMITTED, tmp_path / "a") is None


def test_rows_are_conversations_with_two_or_three_follow_ups() -> None:
    assert len(ROWS) == 48
    for row in ROWS:
        PromptRow.model_validate(row)
        assert row["messages"][-1]["role"] == "user"
        chars = sum(len(m["content"]) for m in row["messages"])  # the first turn only
        assert row["approx_tokens"] == math.ceil(chars / 4) and row["bucket"] == "xs"
        assert 2 <= len(row["turns"]) <= 3 and len(set(row["turns"])) == len(row["turns"])
        assert all(GEN._followup_ok(turn) for turn in row["turns"]), row["id"]
    assert Counter(len(r["turns"]) for r in ROWS) == {2: 24, 3: 24}
    assert sum(r["messages"][0]["role"] == "system" for r in ROWS) == 16


def test_openings_are_unique_and_cover_every_topic() -> None:
    openings = [r["messages"][-1]["content"] for r in ROWS]
    assert len(set(openings)) == len(openings)
    assert Counter(r["topic"] for r in ROWS) == {topic: 8 for topic in GEN.OPENINGS}
