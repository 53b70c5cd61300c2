"""``atlas score`` with answers that ran out while thinking (issue 33): the scored records, the
verdict lines and ``metrics/<w>.json`` carry the outcome; accuracy keeps every record in its
denominator; a run where nothing ran out writes what it wrote before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stages.cli import main
from stages.scoring.stage import score_workload
from stages.scoring.verdict import Verdict
from tests.scoring.test_stage_score import write_dataset

RK = "e" * 64
ROWS = [
    {
        "id": f"t-{i}",
        "category": "sum",
        "difficulty": "easy",
        "prompt": f"Q {i}",
        "answer": "2",
        "scorer": "exact",
        "meta": {},
    }
    for i in range(1, 7)
]
TIMEOUT = {"kind": "timeout", "message": "120 s"}
ANSWERS: dict[str, dict[str, Any]] = {
    "t-1": {"output": "Answer: 2", "finish_reason": "stop"},  # right
    "t-2": {"output": "<think>1 + 1 is", "finish_reason": "length"},  # cut inside the thinking
    "t-3": {"output": "", "finish_reason": "length"},  # thinking in its own channel, no text
    "t-4": {"output": "<think>1 + 1</think>The answer is", "finish_reason": "length"},  # wrong
    "t-5": {"output": "", "finish_reason": None, "error": TIMEOUT},  # failed
    "t-6": {"output": "<think>1 + 1</think>", "finish_reason": "stop"},  # stopped: wrong
}
EXHAUSTED = {"t-2": "length_open_think", "t-3": "length"}


def _project(root: Path, answers: dict[str, dict[str, Any]]) -> None:
    sha = write_dataset(root, "eval-think-v1", "eval", ROWS)
    (root / "params.yaml").write_text("workloads:\n  think:\n    dataset: eval-think-v1\n")
    results = root / "results" / "think"
    results.mkdir(parents=True)
    manifest = {
        "run_key": RK,
        "model": {"name": "m", "revision": "r"},
        "decoding": {"temperature": 0.0},
        "dataset": {"id": "eval-think-v1", "sha256": sha},
    }
    (results / "manifest.json").write_text(json.dumps(manifest))
    lines = [
        {"run_key": RK, "id": i, "repeat": 0, "error": None, "tool_calls": None, **a}
        for i, a in answers.items()
    ]
    (results / "responses.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))


def _lines(path: str) -> dict[str, dict[str, Any]]:
    found = [json.loads(x) for x in Path(path).read_text().splitlines()]
    return {x["id"]: x for x in found}


def test_exhausted_answers_are_counted_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(tmp_path, ANSWERS)
    monkeypatch.chdir(tmp_path)
    assert main(["score", "think"]) == 0
    assert "6 records, accuracy 0.1667 (flexible 0.1667), 1 failed, 2 exhausted while thinking" in (
        capsys.readouterr().out
    )
    metrics = json.loads(Path("metrics/think.json").read_text())
    # Accuracy's denominator is every record: 1 right of 6 (2 exhausted, 1 failed, 2 wrong).
    assert (metrics["n"], metrics["correct"], metrics["accuracy"]) == (6, 1, 0.166667)
    assert metrics["failures"] == {"t-5": "timeout"}
    assert metrics["exhausted"] == {"n": 6, "count": 2, "share": 0.333333, "records": EXHAUSTED}
    assert metrics["signature"]["outcomes"] == {"exhausted": "exhausted-1"}
    verdicts = _lines("metrics/verdicts/think.jsonl")
    assert {i for i, v in verdicts.items() if "exhausted" in v} == set(EXHAUSTED)
    assert verdicts["t-2"] == {
        "id": "t-2", "repeat": 0, "cluster": "t-2", "correct": False, "flexible": False,
        "failed": None, "extracted": "", "exhausted": True,
    }  # fmt: skip
    scored = _lines("results/think/scored.jsonl")
    assert {i: s["exhausted"] for i, s in scored.items() if "exhausted" in s} == EXHAUSTED
    assert scored["t-3"]["why"].startswith(
        "exhausted while thinking: no answer text (finish_reason length); the scorer said:"
    )


def _always_right(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    return Verdict(row["scorer"], True, 1.0, response["output"], "accepted", {})


def test_an_exhausted_answer_is_never_right(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Some scorers accept an empty text (splice finds no weld in it, an instruction rule may
    hold vacuously): an answer that ran out is still not right, under either reading."""
    _project(tmp_path, ANSWERS)
    monkeypatch.chdir(tmp_path)
    metrics = score_workload("think", _always_right, {"exact": "exact-1"})
    assert (metrics["correct"], metrics["correct_flexible"]) == (3, 3)  # t-1, t-4, t-6
    assert metrics["exhausted"]["records"] == EXHAUSTED


def test_a_run_that_never_ran_out_writes_what_it_wrote_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SmolLM2's runs stop for length after giving text: not exhausted, and no file changes."""
    answers = {
        "t-1": {"output": "Answer: 2", "finish_reason": "stop"},
        "t-2": {"output": "Answer: 2 because 1 + 1 is", "finish_reason": "length"},
        "t-3": {"output": "", "finish_reason": "stop"},
    }
    _project(tmp_path, answers)
    monkeypatch.chdir(tmp_path)
    assert main(["score", "think"]) == 0
    metrics = json.loads(Path("metrics/think.json").read_text())
    assert "exhausted" not in metrics and "outcomes" not in metrics["signature"]
    keys = {"id", "repeat", "cluster", "correct", "flexible", "failed", "extracted"}
    assert all(set(v) == keys for v in _lines("metrics/verdicts/think.jsonl").values())
    assert all("exhausted" not in s for s in _lines("results/think/scored.jsonl").values())
