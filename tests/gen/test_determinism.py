"""Every generator is deterministic: two runs give identical bytes, equal to the committed data.

One test per generator (parametrised over ``_gen/*.py``), so a new dataset is covered as soon as
its generator lands. Running the generator also runs its ``prove`` functions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stages.datasets.check import first_difference
from tests.conftest import REPO, run_generator

GENERATORS = sorted(
    p.stem
    for p in (REPO / "_gen").glob("*.py")
    if not p.name.startswith("_") and p.stem != "TEMPLATE"
)


@pytest.mark.parametrize("dataset_id", GENERATORS)
def test_generator_is_byte_identical_on_rerun(dataset_id: str, tmp_path: Path) -> None:
    first, second = tmp_path / "a" / dataset_id, tmp_path / "b" / dataset_id
    run_generator(dataset_id, first)
    run_generator(dataset_id, second)
    assert first_difference(first, second) is None
    committed = REPO / "datasets" / dataset_id
    assert committed.is_dir(), f"{dataset_id} has a generator but no committed dataset"
    assert first_difference(committed, first) is None


def test_template_generates_a_valid_dataset(tmp_path: Path) -> None:
    out = tmp_path / "eval-example-v1"
    run_generator("TEMPLATE", out)
    assert sorted(p.name for p in out.iterdir()) == ["dataset.json", "rows.jsonl"]
    assert len(out.joinpath("rows.jsonl").read_text(encoding="utf-8").splitlines()) == 100
