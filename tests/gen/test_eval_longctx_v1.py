"""eval-longctx-v1: each row is self-contained (recipe in meta.haystack), its prompt is the
question only, and the document the inference stage must send rebuilds to the recorded digest
with the needles where the row says."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
ROWS = [
    json.loads(line)
    for line in (REPO / "datasets" / "eval-longctx-v1" / "rows.jsonl")
    .read_text("utf-8")
    .splitlines()
]
_spec = importlib.util.spec_from_file_location(
    "longctx_builder", REPO / "datasets" / "haystack-v1" / "build.py"
)
assert _spec is not None and _spec.loader is not None
BUILD = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(BUILD)


def test_sizes_depths_and_scorers() -> None:
    assert len(ROWS) == 48
    assert Counter(r["category"] for r in ROWS) == {
        s: 6 for s in ("1k", "2k", "4k", "8k", "16k", "32k", "64k", "128k")
    }
    assert Counter(r["difficulty"] for r in ROWS) == {"easy": 18, "medium": 12, "hard": 18}
    assert {r["scorer"] for r in ROWS} == {"contains"}
    singles = [r for r in ROWS if r["meta"]["needle_count"] == 1]
    assert sorted({r["meta"]["depths"][0] for r in singles}) == [0.0, 0.25, 0.5, 0.75, 1.0]


@pytest.mark.parametrize("row", ROWS[:12] + ROWS[-6:], ids=lambda r: r["id"])
def test_prompt_is_the_question_and_build_prompt_adds_the_document(row: dict[str, Any]) -> None:
    recipe = row["meta"]["haystack"]
    assert row["prompt"] == recipe["question"] and "Line 000001: " not in row["prompt"]
    full = BUILD.build_prompt(recipe)
    head, document, question = full.split("\n\n")
    assert head == BUILD.PREAMBLE and question == row["prompt"]
    assert hashlib.sha256(document.encode()).hexdigest() == recipe["sha256"]
    assert len(full) > 4 * recipe["target_tokens"] > 20 * len(row["prompt"])
    lines = document.split("\n")
    for needle in recipe["needles"]:
        assert lines[needle["line_number"] - 1].endswith(needle["text"])


def test_answers_are_the_needle_codes_in_question_order() -> None:
    for row in ROWS:
        asked = re.search(r"vault (\w+)\?|vaults (\w+), (\w+) and (\w+)\?", row["prompt"])
        assert asked is not None, row["id"]
        names = [name for name in asked.groups() if name]
        by_name = {n["text"].split()[5]: n["answer"] for n in row["meta"]["haystack"]["needles"]}
        gold = row["answer"] if isinstance(row["answer"], str) else row["answer"][0]
        assert gold == ", ".join(by_name[name] for name in names), row["id"]


def test_multi_answers_accept_the_listed_separators() -> None:
    row = next(r for r in ROWS if r["id"] == "longctx-1k-multi")
    a, b, c = (n["answer"] for n in row["meta"]["haystack"]["needles"])
    assert row["answer"] == [f"{a}, {b}, {c}", f"{a},{b},{c}", f"{a} {b} {c}"]
