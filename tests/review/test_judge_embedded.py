"""The shipped judge for real (issue 21): the embedded SmolLM2 preset grades a study's track through
llama-server, prints its calibration against the study's demo verdicts labelled as demo, and a
rerun takes every grade from the journal. What it grades is the model's business; that every item
is either graded or counted unparsed, and that the figures stay withheld below the gate, is not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from stages.cli import main

REPO = Path(__file__).resolve().parents[2]
HUMAN = {"translation-0001": "4", "translation-0002": "3", "translation-0003": "4",
         "translation-0004": "2"}  # fmt: skip
IDENTITY = {"score": "2", "premise": "corrected", "fabrication": "no"}


@pytest.mark.embedded
def test_the_embedded_judge_prints_its_calibration_on_demo_verdicts(
    review_project: Path, fill: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    preset = yaml.safe_load((REPO / "params.yaml").read_text())["models"]["smollm2-135m"]
    judge = {"study": "demo", "max_tokens": 16, "min_kappa": 0.6, "min_items": 30,
             "max_unparsed_share": 0.1,
             "judges": {"smollm2": {"preset": "smollm2-135m", "base_url": "embedded",
                                    "slots": 1}}}  # fmt: skip
    params = Path("params.yaml")
    extra = yaml.safe_dump({"models": {"smollm2-135m": preset}, "judge": judge}, sort_keys=False)
    params.write_text(params.read_text() + extra)
    assert main(["review", "export", "--study", "demo"]) == 0
    key = json.loads(Path("results/review/demo/key.json").read_text())["items"]
    for reviewer in ("ana", "ben"):

        def label(blind: str, field: str) -> str:
            item = key[blind]
            return HUMAN[item["row_id"]] if item["track"] == "translation" else IDENTITY[field]

        fill(Path(f"review/verdicts/demo/{reviewer}.pass1.json"), label)
    assert main(["review", "import", "--study", "demo"]) == 0
    capsys.readouterr()

    assert main(["judge", "translation"]) == 0
    out = capsys.readouterr().out
    journal = Path("results/translation/judge/smollm2.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in journal]
    assert sorted(r["id"] for r in records) == sorted(HUMAN)
    assert all(r["error"] is None for r in records)
    assert {r["provenance"]["endpoint"] for r in records} == {
        "embedded:SmolLM2-135M-Instruct.Q4_1.gguf"
    }
    doc = json.loads(Path("metrics/translation.judge.json").read_text())
    assert doc["signature"]["judge"]["judges"]["smollm2"] == {
        "model": "SmolLM2-135M-Instruct-Q4_1", "revision": preset["revision"],
        "endpoint": "embedded",
    }  # fmt: skip
    cal = doc["calibration"]
    assert cal["demo"] is True and cal["resolved"] == 4 and cal["study"] == "demo"
    counts = [n for row in cal["confusion"].values() for n in row.values()]
    assert sum(counts) == 4
    assert cal["kappa_quadratic"]["items"] == 4 - cal["unparsed"]
    assert doc["figures"] is None and doc["provisional"] is True
    assert doc["withheld"].startswith("4 item(s) with a human final label < min_items 30")
    assert "calibration against study demo — DEMO verdicts" in out
    assert f"judge figures withheld: {doc['withheld']}" in out

    # Judged again: every grade comes from the journal, nothing is asked twice.
    assert main(["judge", "translation"]) == 0
    assert Path("results/translation/judge/smollm2.jsonl").read_text().splitlines() == journal
    assert json.loads(Path("metrics/translation.judge.json").read_text()) == doc
