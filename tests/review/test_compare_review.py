"""`atlas compare` pairs two revisions on a review track (issue 21): the humans' final labels are
verdict lines of workload ``<w>.review``, compared as a graded measure on the rubric's scale."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from stages.cli import main

FIRST = {"translation-0001": "4", "translation-0002": "3", "translation-0003": "4",
         "translation-0004": "2"}  # fmt: skip
SECOND = {"translation-0001": "3", "translation-0002": "3", "translation-0003": "1",
          "translation-0004": "2"}  # fmt: skip


def git(*args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        check=True, capture_output=True,
    )  # fmt: skip


def review(fill: Any, scores: dict[str, str]) -> None:
    """Fill both reviewers' verdicts with ``scores`` (consensus) and import them."""
    key = json.loads(Path("results/review/demo/key.json").read_text())["items"]
    for reviewer in ("ana", "ben"):
        path = Path(f"review/verdicts/demo/{reviewer}.pass1.json")
        path.unlink(missing_ok=True)
    assert main(["review", "export", "--study", "demo"]) == 0
    for reviewer in ("ana", "ben"):

        def label(blind: str, field: str) -> str:
            item = key[blind]
            if item["track"] == "translation":
                return scores[item["row_id"]]
            return {"score": "2", "premise": "corrected", "fabrication": "no"}[field]

        fill(Path(f"review/verdicts/demo/{reviewer}.pass1.json"), label)
    assert main(["review", "import", "--study", "demo"]) == 0


def test_compare_pairs_two_revisions_on_the_human_review_track(
    review_project: Path, fill: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "export", "--study", "demo"]) == 0
    review(fill, FIRST)
    git("init", "-q")
    git("add", "metrics", "review", "datasets", "params.yaml")
    git("commit", "-qm", "A: first review")
    review(fill, SECOND)
    git("add", "metrics", "review")
    git("commit", "-qm", "B: second review")
    capsys.readouterr()
    assert main(["compare", "HEAD~1", "HEAD", "-w", "translation.review", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    (row,) = [r for r in rows if r["workload"] == "translation.review"]
    assert row["measure"] == "review"
    assert row["n"] == 4 and row["items"] == 4
    assert row["a"] == pytest.approx(13 / 4) and row["b"] == pytest.approx(9 / 4)
    assert row["delta"] == pytest.approx(-1.0)
    assert tuple(row["scale"]) == (0.0, 4.0)
    assert main(["compare", "HEAD~1", "HEAD", "-w", "translation.review"]) == 0
    assert "translation.review" in capsys.readouterr().out
