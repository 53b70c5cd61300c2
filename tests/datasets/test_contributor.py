"""The contributor path: ``atlas dataset new`` and ``atlas dataset publish``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stages.cli import main
from stages.params import dataset_ids
from tests.conftest import run_generator


def test_new_dataset_copies_template_and_registers_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["dataset", "new", "eval-algebra-v1"]) == 0
    assert capsys.readouterr().out == (
        "wrote _gen/eval-algebra-v1.py; edit it (a task family of its own goes in "
        "_gen/families/<suite>/<family>.py; after adding an import, `atlas dataset stages`), "
        "then `dvc repro` and `atlas dataset publish eval-algebra-v1`\n"
    )
    script = Path("_gen/eval-algebra-v1.py").read_text(encoding="utf-8")
    assert 'DATASET_ID = "eval-algebra-v1"' in script
    assert dataset_ids() == ["eval-math-v1", "eval-algebra-v1"]
    run_generator("eval-algebra-v1", project / "datasets" / "eval-algebra-v1", project)
    card = json.loads(Path("datasets/eval-algebra-v1/dataset.json").read_text())
    assert card["id"] == "eval-algebra-v1"
    assert card["generator"] == {"path": "_gen/eval-algebra-v1.py", "seed": 20261129}
    assert main(["check"]) == 0


@pytest.mark.parametrize(
    "bad", ["math-v1", "eval-Math-v1", "eval-math", "evals-math-v1", "eval-math-v1x"]
)
def test_new_dataset_rejects_bad_ids(
    project: Path, bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["dataset", "new", bad]) == 2
    assert f"invalid dataset id {bad!r}" in capsys.readouterr().err
    assert not Path(f"_gen/{bad}.py").exists()


def test_new_dataset_refuses_an_existing_id(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["dataset", "new", "eval-math-v1"]) == 2
    assert "_gen/eval-math-v1.py already exists" in capsys.readouterr().err


def test_publish_pins_every_file_and_refuses_repinning_changes(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["dataset", "publish", "eval-math-v1"]) == 0
    registry = json.loads(Path("datasets/registry.json").read_text())
    assert sorted(registry["published"]["eval-math-v1"]) == ["dataset.json", "rows.jsonl"]
    Path("datasets/eval-math-v1/rows.jsonl").write_text("{}\n", encoding="utf-8")
    assert main(["dataset", "publish", "eval-math-v1"]) == 2
    assert (
        "already published with other bytes; a change needs a new -v2 id" in capsys.readouterr().err
    )
