"""Issue 19: a model that sends the prompt back must not score under strict. Sending each row's
own prompt as the answer scored on these numeric rows of default suites, each because the last
number of the prompt equals the gold (strict read the last number of the whole reply)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stages.datasets.audit_text import prompt_text
from stages.scoring.registry import score_row

REPO = Path(__file__).resolve().parents[2]
ECHOED = [
    ("eval-math-v1", "math-0006"),
    ("eval-math-v1", "math-0012"),
    ("eval-math-v1", "math-0066"),
    ("eval-reasoning-v3", "reason3-0116"),
    ("eval-security-v3", "sec3-0018"),
    ("eval-security-v3", "sec3-0104"),
]


def _row(dataset: str, row_id: str) -> dict[str, object]:
    for line in (REPO / "datasets" / dataset / "rows.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        if row["id"] == row_id:
            return dict(row)
    raise AssertionError(f"{row_id} not in {dataset}")


@pytest.mark.parametrize(("dataset", "row_id"), ECHOED)
def test_the_prompt_sent_back_scores_wrong_under_strict(dataset: str, row_id: str) -> None:
    row = _row(dataset, row_id)
    assert row["scorer"] == "numeric"
    echo = prompt_text(row)
    for reply in (echo, echo + "\n\n" + echo):
        verdict = score_row(row, {"output": reply, "error": None}, Path("."))
        assert verdict.correct is False, reply[-80:]
    reply = f"{echo}\nAnswer: {row['answer']}"
    answered = score_row(row, {"output": reply, "error": None}, Path("."))
    assert answered.correct is True  # the echo followed by an answer line still counts


def test_a_contains_row_whose_prompt_holds_its_gold_is_reported_by_the_audit() -> None:
    # multi2-0065: "Hoje é quinta-feira ... daqui a 42 dias?" — 42 days on is Thursday again,
    # so the echoed prompt contains the gold and `contains` takes it. No scorer rule can tell an
    # echo from a reply here: the audit reports the row (eval-multilingual-v3 fixes the item).
    from stages.datasets.strength import strength

    row = _row("eval-multilingual-v2", "multi2-0065")
    found = strength([row], REPO / "datasets" / "eval-multilingual-v2")
    assert [f.split(":")[1].strip().split(" '")[0] for f in found.echoes.failures] == [
        "echo", "echo twice", "echo filled",
    ]  # fmt: skip
