"""``atlas score`` with the real scorer registry on the first rows of eval-math-v1.

Skipped until ``stages.scoring.registry`` exists (it is written alongside this stage).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from stages.cli import main

REPO = Path(__file__).resolve().parents[2]
RK = "d" * 64


def _math_run(root: Path, records: list[dict[str, Any]]) -> None:
    """A project in ``root``: eval-math-v1 limited to 3 rows, a run of it answering ``records``."""
    shutil.copytree(REPO / "datasets" / "eval-math-v1", root / "datasets" / "eval-math-v1")
    rows = (root / "datasets/eval-math-v1/rows.jsonl").read_bytes()
    (root / "params.yaml").write_text(
        "workloads:\n  math:\n    dataset: eval-math-v1\n    limit: 3\n"
    )
    results = root / "results" / "math"
    results.mkdir(parents=True)
    manifest = {
        "run_key": RK,
        "model": {"name": "m", "revision": "r"},
        "decoding": {"temperature": 0.0},
        "dataset": {"id": "eval-math-v1", "sha256": hashlib.sha256(rows).hexdigest()},
    }
    (results / "manifest.json").write_text(json.dumps(manifest))
    (results / "responses.jsonl").write_text(
        "".join(json.dumps({"run_key": RK, "repeat": 0, **r}) + "\n" for r in records)
    )


def test_real_scorers_on_eval_math(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    registry = pytest.importorskip("stages.scoring.registry")
    records = [
        {"id": "math-0001", "output": "13 + 70 = 83\nAnswer: 83", "error": None},  # gold 83
        {"id": "math-0002", "output": "Answer: 1/2", "error": None},  # gold 29/20
        {"id": "math-0003", "output": "", "error": {"kind": "timeout", "message": "120 s"}},
    ]
    _math_run(tmp_path, records)
    monkeypatch.chdir(tmp_path)
    assert main(["score", "math"]) == 0
    metrics = json.loads(Path("metrics/math.json").read_text())
    assert (metrics["n"], metrics["correct"], metrics["accuracy"]) == (3, 1, 0.333333)
    assert metrics["failures"] == {"math-0003": "timeout"}
    assert metrics["signature"]["scorers"] == {"numeric": registry.SCORER_VERSIONS["numeric"]}
    scored = [json.loads(x) for x in Path("results/math/scored.jsonl").read_text().splitlines()]
    assert [(s["extracted"], s["correct"]) for s in scored[:2]] == [("83", True), ("1/2", False)]


def test_strict_and_flexible_accuracy_side_by_side(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = [
        {"id": "math-0001", "output": "Answer: **83**", "error": None},  # strict: 83 in the line
        {"id": "math-0002", "output": "Answer: \\dfrac{29}{20}", "error": None},  # gold 29/20
        {"id": "math-0003", "output": "Answer: 72 or 73", "error": None},  # gold 72, hedged
    ]
    _math_run(tmp_path, records)
    monkeypatch.chdir(tmp_path)
    assert main(["score", "math"]) == 0
    metrics = json.loads(Path("metrics/math.json").read_text())
    assert (metrics["correct"], metrics["accuracy"]) == (1, 0.333333)
    assert (metrics["correct_flexible"], metrics["accuracy_flexible"]) == (2, 0.666667)
    for cells in metrics["breakdowns"].values():
        for cell in cells.values():
            assert {"accuracy", "accuracy_flexible", "correct_flexible"} <= set(cell)
    scored = [json.loads(x) for x in Path("results/math/scored.jsonl").read_text().splitlines()]
    assert [(s["correct"], s["correct_flexible"], s["extracted_flexible"]) for s in scored] == [
        (True, True, "83"),
        (False, True, "29/20"),
        (False, False, "72 or 73"),
    ]
