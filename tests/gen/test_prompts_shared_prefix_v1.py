"""prompts-shared-prefix-v1: ten groups of twelve rows each share one long system prompt, the
token count includes it, every user message is different, and each asks about its handbook."""

from __future__ import annotations

import importlib.util
import json
import math
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "_gen"))
_spec = importlib.util.spec_from_file_location(
    "shared_prefix_gen", REPO / "_gen" / "prompts-shared-prefix-v1.py"
)
assert _spec is not None and _spec.loader is not None
GEN = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(GEN)
ROWS = [
    json.loads(line)
    for line in (REPO / "datasets" / "prompts-shared-prefix-v1" / "rows.jsonl")
    .read_text("utf-8")
    .splitlines()
]


def test_groups_share_one_prefix_each() -> None:
    assert len(ROWS) == 120
    prefixes = [r["shared_prefix"] for r in ROWS]
    assert list(Counter(prefixes).values()) == [12] * 10
    for start in range(0, 120, 12):
        assert len({r["shared_prefix"] for r in ROWS[start : start + 12]}) == 1
        assert len({r["topic"] for r in ROWS[start : start + 12]}) == 1
    assert all(p.startswith("You are the operations assistant of ") for p in prefixes)
    lengths = sorted({math.ceil(len(p) / 4) for p in prefixes})
    assert lengths[0] >= 700 and lengths[-1] >= 3800


def test_approx_tokens_include_the_prefix() -> None:
    for row in ROWS:
        assert row["messages"][0]["role"] == "user" and len(row["messages"]) == 1
        chars = len(row["shared_prefix"]) + len(row["messages"][0]["content"])
        assert row["approx_tokens"] == math.ceil(chars / 4), row["id"]
    assert {r["bucket"] for r in ROWS} == {"m", "l"}


def test_user_messages_are_unique_and_ask_about_their_handbook() -> None:
    users = [r["messages"][0]["content"] for r in ROWS]
    assert len(set(users)) == len(users)
    for idx, row in enumerate(ROWS):
        asked = re.search(r"team asks: (.+)$", row["messages"][0]["content"])
        assert asked is not None, row["id"]
        facts = dict(GEN.handbook(idx // 12)[2])
        assert asked.group(1) in facts, row["id"]  # a question about this group's handbook
        assert facts[asked.group(1)].removeprefix("the ") in row["shared_prefix"], row["id"]


def test_no_handbook_sentence_appears_in_two_groups() -> None:
    owner: dict[str, int] = {}
    for group, prefix in enumerate(dict.fromkeys(r["shared_prefix"] for r in ROWS)):
        for line in prefix.split("\n"):
            if re.match(r"\d+\.\d+ ", line):
                sentence = line.split(" ", 1)[1]
                assert owner.setdefault(sentence, group) == group, sentence
