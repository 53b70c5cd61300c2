"""Fresh-seed instances: byte-identical per seed, new items per seed, published bytes untouched,
and an end-to-end run against an oracle that knows only the public items."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from statsmodels.stats.proportion import confint_proportions_2indep

from stages.cli import main
from stages.datasets.fresh import make_fresh
from stages.datasets.fresh_score import newcombe
from stages.datasets.generate import generate
from stages.datasets.load import load_dataset
from tests.conftest import REPO
from tests.stub_server import StubConfig, StubServer


def _add_generator() -> None:
    text = (REPO / "_gen" / "TEMPLATE.py").read_text(encoding="utf-8")
    text = text.replace('DATASET_ID = "eval-example-v1"', 'DATASET_ID = "eval-add-v1"')
    Path("_gen/eval-add-v1.py").write_text(text, "utf-8")
    generate("eval-add-v1", budget_mb=25)


def test_same_seed_same_bytes_other_seed_other_items(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _add_generator()
    published = Path("datasets/eval-add-v1/rows.jsonl").read_bytes()
    first = make_fresh("eval-add-v1", 5).joinpath("rows.jsonl").read_bytes()
    shutil.rmtree("fresh")
    again = make_fresh("eval-add-v1", 5).joinpath("rows.jsonl").read_bytes()
    other = make_fresh("eval-add-v1", 6).joinpath("rows.jsonl").read_bytes()
    assert first == again
    assert first != other and first != published
    card = json.loads(Path("fresh/seed-5/eval-add-v1/dataset.json").read_text())
    assert card["generator"] == {"fresh_seed": 5, "path": "_gen/eval-add-v1.py", "seed": 20261129}
    fresh_rows = load_dataset("eval-add-v1", Path("fresh/seed-5")).rows
    public_rows = load_dataset("eval-add-v1").rows
    # Same distribution: row i keeps its family and difficulty; its numbers are new.
    assert [r["difficulty"] for r in fresh_rows] == [r["difficulty"] for r in public_rows]
    # The template's easy sums (2..20 + 2..20) collide often: a fresh draw that repeats a public
    # item or an earlier row is drawn again, so the instance has new, distinct prompts.
    fresh_prompts = [r["prompt"] for r in fresh_rows]
    assert len(set(fresh_prompts)) == 100
    assert not set(fresh_prompts) & {r["prompt"] for r in public_rows}
    # A stray ATLAS_FRESH_SEED in the caller's shell never reaches the published bytes.
    monkeypatch.setenv("ATLAS_FRESH_SEED", "9")
    generate("eval-add-v1", budget_mb=25)
    assert Path("datasets/eval-add-v1/rows.jsonl").read_bytes() == published


def test_fresh_command_writes_outside_datasets(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _add_generator()
    assert main(["dataset", "fresh", "eval-add-v1", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("wrote fresh/seed-3/eval-add-v1 (100 rows, ")
    assert sorted(os.listdir("datasets")) == ["eval-add-v1", "eval-math-v1", "registry.json"]


def test_newcombe_interval_matches_statsmodels() -> None:
    low, high = newcombe(38, 40, 30, 120)
    want = confint_proportions_2indep(38, 40, 30, 120, method="newcomb")
    assert (low, high) == pytest.approx(want, abs=1e-9)


def _oracle(public: list[dict[str, Any]]) -> StubConfig:
    answers = {row["prompt"]: row["answer"] for row in public}
    config = StubConfig()

    def answer(body: dict[str, Any]) -> None:
        prompt = body["messages"][-1]["content"]
        config.reply = f"Answer: {answers[prompt]}" if prompt in answers else "Answer: none"

    config.on_request = answer
    return config


def test_oracle_that_knows_only_public_items_shows_a_positive_gap(project: Path) -> None:
    _add_generator()
    public = load_dataset("eval-add-v1").rows
    seeds = [11, 12, 13]
    with StubServer(_oracle(public)) as stub:
        params = {
            "model": {"base_url": stub.url, "name": "oracle", "revision": "r1"},
            "decoding": {"temperature": 0.0, "max_tokens": 16, "seed": 0},
            "run": {"concurrency": 1, "timeout_s": 10, "max_retries": 0, "limit": None},
            "workloads": {"add": {"dataset": "eval-add-v1", "limit": 40, "fresh_seeds": seeds}},
        }
        Path("params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
        assert main(["infer", "add"]) == 0
        assert stub.stats.requests == 40 * 4
    assert main(["score", "add"]) == 0
    block = json.loads(Path("metrics/add.json").read_text())["fresh"]

    known = {row["prompt"] for row in public}
    right = {}
    for seed in seeds:
        rows = load_dataset("eval-add-v1", Path(f"fresh/seed-{seed}")).rows[:40]
        right[seed] = sum(row["prompt"] in known for row in rows)
        instance = block["instances"][str(seed)]
        assert instance["n"] == 40
        assert instance["accuracy"] == round(right[seed] / 40, 4)
        assert instance["overlap"] == right[seed]  # only repeated items can be answered
    assert block["public"] == {"n": 40, "accuracy": 1.0}
    pooled = sum(right.values())
    assert block["gap"] == round(1 - pooled / 120, 4)
    low, high = confint_proportions_2indep(40, 40, pooled, 120, method="newcomb")
    assert block["gap_ci95"] == {"low": round(low, 4), "high": round(high, 4)}
    assert 0 < block["gap_ci95"]["low"] < block["gap"] <= block["gap_ci95"]["high"] <= 1
    assert block["seeds"] == seeds and block["sd"] is not None
    assert json.loads(Path("results/add/fresh/index.json").read_text()) == {"seeds": seeds}


@pytest.mark.parametrize(
    ("dataset_id", "seed"),
    [
        ("eval-math-v2", 101),  # its prove_all rejected a duplicate prompt: drawn again
        ("eval-knowledge-v2", 102),  # its generate raised IndexError on one draw: drawn again
        ("eval-code-v1", 102),  # its prove rejected a draw ("wrong one passes"): drawn again
    ],
)
def test_published_generators_redraw_rejected_fresh_rows(
    dataset_id: str, seed: int, tmp_path: Path
) -> None:
    path = make_fresh(dataset_id, seed, root=REPO, base=tmp_path / "fresh")
    rows = load_dataset(dataset_id, path.parent).rows
    public = load_dataset(dataset_id, REPO / "datasets").rows
    assert len(rows) == len(public)
    assert [r["category"] for r in rows] == [r["category"] for r in public]
    assert len({r["prompt"] for r in rows}) == len(rows)
