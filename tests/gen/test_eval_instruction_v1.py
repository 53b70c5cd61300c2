"""eval-instruction-v1: the shipped rules.py, its shared definitions and every example_pass.

The committed ``rules.py`` is loaded from the dataset directory (as the scorer does) and must be the
generator's ``families/instruction/rules.py`` byte for byte; definitions are checked on hand-worked
texts; every row's ``meta.example_pass`` must pass its rules and a broken copy must not.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "datasets" / "eval-instruction-v1"
ROWS = [json.loads(line) for line in (DATA / "rows.jsonl").read_text("utf-8").splitlines()]


def _load_rules() -> ModuleType:
    spec = importlib.util.spec_from_file_location("instruction_rules_shipped", DATA / "rules.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RULES = _load_rules()


def test_rules_file_is_the_generator_copy_and_self_tests() -> None:
    source = REPO / "_gen" / "families" / "instruction" / "rules.py"
    assert (DATA / "rules.py").read_bytes() == source.read_bytes()
    proc = subprocess.run(
        [sys.executable, str(DATA / "rules.py"), "--self-test"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.strip() == "self-test: 41 passed, 0 failed"


def test_shared_definitions_on_hand_worked_text() -> None:
    text = "- Don't stop.\n* It is 3.5 m long!\n\n  1. Why? Fine...\nno bullet-here\n"
    assert RULES.words(text) == [
        "Don't", "stop", "It", "is", "3", "5", "m", "long", "1", "Why", "Fine", "no", "bullet-here"
    ]  # fmt: skip
    assert RULES.lines(text) == [
        "- Don't stop.",
        "* It is 3.5 m long!",
        "  1. Why? Fine...",
        "no bullet-here",
    ]
    assert RULES.paragraphs(text) == [
        "- Don't stop.\n* It is 3.5 m long!",
        "  1. Why? Fine...\nno bullet-here",
    ]
    assert RULES.bullets(text) == ["- Don't stop.", "* It is 3.5 m long!", "  1. Why? Fine..."]
    assert RULES.sentences(text) == [
        "- Don't stop",
        "* It is 3.5 m long",
        "1",
        "Why",
        "Fine",
        "no bullet-here",
    ]


def test_evaluate_reports_each_failed_rule() -> None:
    answer = {
        "all": [
            {"type": "bullet_count", "min": 3, "max": 3},
            {"type": "no_commas"},
            {"type": "contains_keyword", "keyword": "kite", "min": 2},
        ]
    }
    assert RULES.evaluate(answer, "- a kite\n- b, kite\n- c") == (False, [answer["all"][1]])
    assert RULES.evaluate(answer, "- a kite\n- b kite\n- c") == (True, [])
    with pytest.raises(ValueError, match="unknown rule type"):
        RULES.evaluate({"all": [{"type": "shout"}]}, "x")


def test_mix_is_as_intended() -> None:
    card = json.loads((DATA / "dataset.json").read_text("utf-8"))
    assert card["rows"] == len(ROWS) == 150
    assert card["files"].keys() == {"rows.jsonl", "rules.py"}
    assert Counter(r["difficulty"] for r in ROWS) == {"easy": 50, "medium": 50, "hard": 50}
    assert Counter(r["category"] for r in ROWS) == {
        "prose": 39, "bullets": 39, "lines": 36, "json": 36
    }  # fmt: skip
    assert {r["scorer"] for r in ROWS} == {"instruction"}
    assert len({r["prompt"] for r in ROWS}) == len(ROWS)
    assert {rule["type"] for r in ROWS for rule in r["answer"]["all"]} == set(RULES.RULES)
    sizes = {d: {len(r["answer"]["all"]) for r in ROWS if r["difficulty"] == d} for d in
             ("easy", "medium", "hard")}  # fmt: skip
    assert sizes == {"easy": {1, 2}, "medium": {3}, "hard": {4, 5}}


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_example_passes_and_prompt_states_each_rule(row: dict) -> None:
    example = row["meta"]["example_pass"]
    assert RULES.evaluate(row["answer"], example) == (True, [])
    bullets = row["prompt"].split("Follow every one of these instructions:\n")[1].split("\n")
    assert len(bullets) == len(row["answer"]["all"])
    for rule in row["answer"]["all"]:
        for key in ("keyword", "text", "max", "min"):
            if key in rule:
                assert str(rule[key]) in row["prompt"], (rule, key)
    # The rules have teeth: shouting the example, adding commas, a leading dash and a trailing
    # paragraph breaks every row with a lowercase, comma, JSON or paragraph rule.
    broken = "- " + example.upper().replace(" ", ", ", 3) + "\n\n\nX"
    kinds = {rule["type"] for rule in row["answer"]["all"]}
    if kinds & {"all_lowercase", "no_commas", "json_object", "paragraph_count"}:
        assert not RULES.evaluate(row["answer"], broken)[0]
