"""prompts-code-v1: every language x task pair in every size group, a system message naming the
language, token counts as the heuristic says, and no repeated text."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
ROWS = [
    json.loads(line)
    for line in (REPO / "datasets" / "prompts-code-v1" / "rows.jsonl")
    .read_text("utf-8")
    .splitlines()
]
NAMES = {"python": "Python", "typescript": "TypeScript", "go": "Go", "rust": "Rust", "sql": "SQL"}
FENCES = {"python": "python", "typescript": "ts", "go": "go", "rust": "rust", "sql": "sql"}


def test_coverage_of_languages_tasks_and_buckets() -> None:
    assert len(ROWS) == 120
    assert Counter((r["code_lang"], r["task"]) for r in ROWS) == {
        (lang, task): 6 for lang in NAMES for task in ("write", "fix", "explain", "refactor")
    }
    assert Counter(r["bucket"] for r in ROWS) == {"xs": 20, "s": 40, "m": 40, "l": 20}
    assert all(r["shared_prefix"] is None and r["lang"] == "en" for r in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_messages_and_tokens(row: dict[str, Any]) -> None:
    system, user = row["messages"]
    assert system["role"] == "system" and user["role"] == "user"
    assert system["content"].startswith(f"You are an expert {NAMES[row['code_lang']]} programmer.")
    assert row["approx_tokens"] == math.ceil((len(system["content"]) + len(user["content"])) / 4)
    if row["bucket"] != "xs":
        assert f"```{FENCES[row['code_lang']]}\n" in user["content"]


def test_fix_prompts_name_a_unit_of_the_code_shown() -> None:
    for row in (r for r in ROWS if r["task"] == "fix" and r["bucket"] != "xs"):
        text = row["messages"][1]["content"]
        name = re.search(r"so `(\w+)` gives wrong results", text)
        assert name is not None and text.count(name.group(1)) >= 2, row["id"]


def test_go_code_is_tab_indented_and_declares_each_name_once() -> None:
    for row in (r for r in ROWS if r["code_lang"] == "go" and r["bucket"] in ("m", "l")):
        code = row["messages"][1]["content"]
        assert "\n    " not in code and "\n\t" in code, row["id"]
        declared = re.findall(r"^(?:func|type) (\w+)", code, re.M)  # methods may repeat
        assert len(declared) == len(set(declared)), row["id"]


def test_no_text_is_repeated() -> None:
    users = [r["messages"][1]["content"] for r in ROWS]
    assert len(set(users)) == len(users)
    blocks = [b for u in users for b in u.split("\n\n") if len(b) > 120]
    assert len(set(blocks)) == len(blocks)
