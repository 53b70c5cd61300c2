"""Regeneration under two PYTHONHASHSEED values, differences by row and field, and the
generate-measure-move gen stage that never writes an over-budget dataset into datasets/."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from stages.cli import main
from stages.datasets.check import run_check
from stages.datasets.generate import generate
from stages.datasets.regen import field_difference, first_difference, run_generator

# A generator that depends on string-hash order: its option order changes with PYTHONHASHSEED.
HASH_ORDER = """
import random, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib

def generate(rng: random.Random, idx: int) -> dict:
    options = list({"alpha", "beta", "gamma", "delta", "epsilon", "zeta"})
    return {"id": f"hash-{idx + 1:04d}", "category": "c", "difficulty": "easy",
            "prompt": f"Question {idx}: which comes first?", "choices": options,
            "answer": "A", "scorer": "mc", "meta": {}}

lib.run(dataset_id="eval-hash-v1", kind="eval", description="planted", count=3,
         generator_file="_gen/eval-hash-v1.py", seed=1, default_scorer="mc",
         created="2026-01-01", generate=generate, prove=lambda row: None)
"""

# A generator whose single file is about 2 MB.
BIG = """
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib

lib.run(dataset_id="eval-big-v1", kind="eval", description="big", count=1,
         generator_file="_gen/eval-big-v1.py", seed=1, default_scorer="exact",
         created="2026-01-01", prove=lambda row: None,
         generate=lambda rng, idx: {"id": "big-1", "category": "c", "difficulty": "easy",
                                    "prompt": "x" * 2_000_000, "answer": "x", "scorer": "exact"})
"""


def test_field_difference_names_the_first_path() -> None:
    a = {"id": "r1", "meta": {"clues": [[1, 2], [3, 4]]}, "answer": "A"}
    b = {"id": "r1", "meta": {"clues": [[1, 2], [3, 5]]}, "answer": "A"}
    assert field_difference(a, b) == ("meta.clues[1][1]", 4, 5)
    assert field_difference([1, 2], [1, 2, 3]) == (" (length)", 2, 3)
    assert field_difference({"x": 1}, {"x": 1.0}) == ("x", 1, 1.0)
    assert field_difference(a, a) is None


@pytest.mark.parametrize("committed_seed", ["0", "1", "2", "random"])
def test_hash_order_generator_fails_every_time_with_the_row_named(
    project: Path, committed_seed: str
) -> None:
    Path("_gen/eval-hash-v1.py").write_text(HASH_ORDER, encoding="utf-8")
    out = Path("datasets/eval-hash-v1")
    assert run_generator(Path("_gen/eval-hash-v1.py"), out, project, committed_seed) is None
    for _ in range(2):
        failures = [f for f in run_check(25).failures if "reproducible" in f]
        assert len(failures) == 1, failures
        assert "not reproducible under PYTHONHASHSEED=" in failures[0]
        assert ": row hash-0001, field choices[" in failures[0]


def test_first_difference_reports_files_then_rows_then_card(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        d.mkdir()
        (d / "dataset.json").write_text('{"rows": 1}', encoding="utf-8")
        (d / "rows.jsonl").write_text('{"id": "r1", "x": 1}\n', encoding="utf-8")
    assert first_difference(a, b) is None
    (b / "dataset.json").write_text('{"rows": 2}', encoding="utf-8")
    assert first_difference(a, b) == "dataset.json field rows: committed 1, regenerated 2"
    (b / "rows.jsonl").write_text('{"id": "r2", "x": 1}\n', encoding="utf-8")
    assert first_difference(a, b) == "row 1: committed id 'r1', regenerated id 'r2'"
    (b / "extra.png").write_bytes(b"png")
    assert first_difference(a, b) == "extra.png is produced but not committed"


def test_generate_moves_the_dataset_in_only_after_measuring(project: Path) -> None:
    before = {p: p.read_bytes() for p in Path("datasets").rglob("*") if p.is_file()}
    Path("_gen/eval-big-v1.py").write_text(BIG, encoding="utf-8")
    with pytest.raises(Exception) as caught:
        generate("eval-big-v1", budget_mb=1.0)
    message = str(caught.value)
    assert "budget: with eval-big-v1 at 2.00 MB" in message
    assert (
        "over the 1 MB limit (check.budget_mb); largest: eval-big-v1 2.00 MB, eval-math-v1"
        in message
    )
    assert "nothing was written into datasets" in message
    after = {p: p.read_bytes() for p in Path("datasets").rglob("*") if p.is_file()}
    assert after == before
    assert not [p for p in Path(".").iterdir() if p.name.startswith(".atlas-gen-")]
    generate("eval-big-v1", budget_mb=25)
    assert Path("datasets/eval-big-v1/rows.jsonl").stat().st_size > 2_000_000


def test_generate_command_replaces_a_dataset_with_the_same_bytes(project: Path) -> None:
    rows = Path("datasets/eval-math-v1/rows.jsonl")
    old = rows.read_bytes()
    assert main(["dataset", "generate", "eval-math-v1"]) == 0
    assert rows.read_bytes() == old
    assert sorted(p.name for p in Path(".").iterdir() if p.name.startswith(".")) == []


def test_check_names_the_largest_datasets_when_over_budget(project: Path) -> None:
    shutil.copytree("datasets/eval-math-v1", "datasets/eval-copy-v1")
    card = json.loads(Path("datasets/eval-copy-v1/dataset.json").read_text())
    card["id"] = "eval-copy-v1"
    Path("datasets/eval-copy-v1/dataset.json").write_text(json.dumps(card))
    os.truncate("datasets/eval-copy-v1/rows.jsonl", 0)
    report = run_check(0.05, regenerate_all=False)
    budget = [f for f in report.failures if f.startswith("budget:")]
    assert len(budget) == 1
    assert (
        "over the 0.05 MB limit (check.budget_mb); largest: eval-math-v1 0.06 MB, "
        "eval-copy-v1 0.00 MB; store a recipe" in budget[0]
    )
