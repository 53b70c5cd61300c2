"""Issue 33, "done means": ``atlas compare`` between a revision whose model runs out while
thinking on 3 of 12 items and one whose model does not names the difference. End to end: each
revision's journal is scored by ``atlas score`` (the real exact scorer), both are committed, and
``atlas compare`` reads them with git."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from compare_helpers import commit

from stages.cli import main
from tests.scoring.test_stage_score import write_dataset

RUN_KEY = {"A": "a" * 64, "B": "b" * 64}
IDS = [f"sum-{i:03d}" for i in range(12)]
RAN_OUT = {"sum-002", "sum-005", "sum-009"}


def _dataset(root: Path) -> str:
    rows = [
        {"id": i, "category": "sum", "difficulty": "easy", "prompt": f"{n} + {n}?",
         "answer": str(2 * n), "scorer": "exact", "meta": {}}
        for n, i in enumerate(IDS)
    ]  # fmt: skip
    sha = write_dataset(root, "eval-sum-v1", "eval", rows)
    (root / "params.yaml").write_text("workloads:\n  sum:\n    dataset: eval-sum-v1\n")
    (root / ".gitignore").write_text("/results/\n")  # as in the project: raw results are DVC's
    return sha


def _run(root: Path, sha: str, revision: str, ran_out: set[str]) -> None:
    """A journal of one revision: every item answered right with its thinking closed, but those
    in ``ran_out``, whose 64-token budget ended inside the thinking."""
    results = root / "results" / "sum"
    results.mkdir(parents=True, exist_ok=True)
    manifest = {
        "run_key": RUN_KEY[revision],
        "model": {"name": "thinker", "revision": revision},
        "decoding": {"temperature": 0.0, "max_tokens": 64},
        "dataset": {"id": "eval-sum-v1", "sha256": sha},
    }
    (results / "manifest.json").write_text(json.dumps(manifest))
    lines = []
    for n, item in enumerate(IDS):
        thinking = f"<think>{n} plus {n} is {2 * n}, since adding a number to itself doubles it"
        answer = (
            {"output": thinking, "finish_reason": "length"}
            if item in ran_out
            else {"output": f"{thinking}</think>\nAnswer: {2 * n}", "finish_reason": "stop"}
        )
        lines.append(
            {"run_key": RUN_KEY[revision], "id": item, "repeat": 0, "error": None,
             "tool_calls": None, **answer}
        )  # fmt: skip
    (results / "responses.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["score", "sum"]) == 0


@pytest.fixture
def revisions(repo: Path) -> Path:
    sha = _dataset(repo)
    _run(repo, sha, "A", set())
    commit(repo, "A: never runs out")
    _run(repo, sha, "B", RAN_OUT)
    commit(repo, "B: runs out on 3 of 12")
    return repo


def test_compare_names_a_revision_that_runs_out_more_often(
    revisions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["compare", "HEAD~1", "HEAD"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 100
    table = {line.split()[0] + (" " + line.split()[1] if line.startswith("sum ") else ""): line
             for line in out.splitlines() if line.startswith("sum")}  # fmt: skip
    # 3 flips of 12 each way: McNemar's exact p = 2 / 2^3 = 0.25, Holm over the 2 rows -> 0.5.
    assert re.match(r"sum exhausted +12 +0\.0 +25\.0 +\+25\.0 +-\S+\.\.\+\S+ +0\.500 +-0/\+3 ", (
        table["sum exhausted"]
    ))  # fmt: skip
    assert re.match(r"sum +12 +100\.0 +75\.0 +-25\.0 ", table["sum 12"])
    assert "exhausted rows: % of answered records that ran out while thinking" in out
    note = " ".join(out.split())  # the note is wrapped at 100 columns
    assert re.search(
        r"sum: ran out while thinking on 0 of 12 answered records at A and 3 at B: B runs out "
        r"more often \(Δ \+25\.0 points, 95% CI -\S+\.\.\+\S+; no detectable difference\); at B "
        r"only: sum-002, sum-005, sum-009",
        note,
    )


def test_the_row_in_json_and_the_other_way_round(
    revisions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["compare", "HEAD", "HEAD~1", "--json"]) == 0
    rows = {r["measure"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    row = rows["exhausted"]
    assert (row["n"], row["a"], row["b"], row["delta"]) == (12, 0.25, 0.0, -0.25)
    assert row["right_to_wrong"] == sorted(RAN_OUT) and row["wrong_to_right"] == []
    assert (row["test"], row["p"], row["p_adjusted"]) == ("mcnemar-exact", 0.25, 0.5)
    low, high = row["ci95"]["low"], row["ci95"]["high"]
    assert low < -0.25 < 0 < high  # Tango's interval: 3 of 12 is not enough for a verdict
    assert row["verdict"] == "no detectable difference"
    assert (rows["accuracy"]["a"], rows["accuracy"]["b"]) == (0.75, 1.0)
