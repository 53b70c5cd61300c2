"""instruction scorer: delegates to the dataset's rules.py and agrees with its example_pass."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from stages.errors import AtlasError
from stages.io import iter_jsonl
from stages.scoring import instruction

FAKE_RULES = """
def evaluate(answer, text):
    failed = []
    for rule in answer["all"]:
        if "max_words" in rule and len(text.split()) > rule["max_words"]:
            failed.append(rule)
        if "ends_with" in rule and not text.endswith(rule["ends_with"]):
            failed.append(rule)
        if "starts_with" in rule and not text.startswith(rule["starts_with"]):
            failed.append(rule)
    return (not failed, failed)
"""

ROWS = [
    {"id": "i1", "answer": {"all": [{"max_words": 3}]}, "meta": {"example_pass": "One two."}},
    {"id": "i2", "answer": {"all": [{"ends_with": "."}]}, "meta": {"example_pass": "Done."}},
    {
        "id": "i3",
        "answer": {"all": [{"starts_with": "Answer:"}]},
        "meta": {"example_pass": "Answer: x"},
    },
]


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    (tmp_path / "rules.py").write_text(FAKE_RULES)
    return tmp_path


def _score(row: dict[str, Any], text: str, dataset_dir: Path) -> Any:
    return instruction.score(row, {"output": text, "error": None}, dataset_dir)


def test_agrees_with_every_example_pass(dataset: Path) -> None:
    assert [_score(row, row["meta"]["example_pass"], dataset).correct for row in ROWS] == [True] * 3


def test_raw_text_not_extracted(dataset: Path) -> None:
    # extraction would strip the final period and cut "Answer:" lines; the rules see raw text
    assert _score(ROWS[1], "Done.", dataset).correct is True
    assert _score(ROWS[2], "Answer: x", dataset).extracted == "Answer: x"


def test_failed_rules_are_reported(dataset: Path) -> None:
    verdict = _score(ROWS[0], "one two three four", dataset)
    assert verdict.correct is False
    assert verdict.why == '1 of 1 rules fail: [{"max_words": 3}]'
    assert verdict.extras["failed"] == [{"max_words": 3}]


def test_rules_reloaded_when_changed(dataset: Path) -> None:
    assert _score(ROWS[0], "a b c d", dataset).correct is False
    rules = dataset / "rules.py"
    rules.write_text("def evaluate(answer, text):\n    return (True, [])\n")
    stat = rules.stat()
    os.utime(rules, (stat.st_atime, stat.st_mtime + 5))
    assert _score(ROWS[0], "a b c d", dataset).correct is True


def test_missing_rules_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(AtlasError, match="rules.py"):
        _score(ROWS[0], "x", tmp_path)


REAL = Path(__file__).resolve().parents[2] / "datasets" / "eval-instruction-v1"


@pytest.mark.skipif(not (REAL / "rules.py").exists(), reason="eval-instruction-v1 not generated")
def test_real_dataset_example_pass_all_correct() -> None:
    rows = [row for _, row in iter_jsonl(REAL / "rows.jsonl")]
    wrong = [r["id"] for r in rows if not _score(r, r["meta"]["example_pass"], REAL).correct]
    assert wrong == [], json.dumps(wrong)
