"""eval-longctx-v2: the shortcuts of v1 are gone (issue 13), re-derived from the documents.

Every document is rebuilt with haystack-v1's own ``build.py`` and read back line by line: the
asked line is not the only one of its shape, its value is a near miss among near misses, no
position among those lines favours it, every question is different, and every templated prompt
plus the answer budget fits its window with the stated margin under SmolLM2's real tokenizer.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from stages.datasets.haystack_check import haystack_failures
from stages.inference.requests import eval_messages
from stages.scoring.metrics import row_facts

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "datasets" / "eval-longctx-v2"
ROWS = [json.loads(line) for line in (DATA / "rows.jsonl").read_text("utf-8").splitlines()]
SINGLES = [r for r in ROWS if r["meta"]["needle_count"] == 1]
_spec = importlib.util.spec_from_file_location(
    "longctx_builder", REPO / "datasets" / "haystack-v1" / "build.py"
)
assert _spec is not None and _spec.loader is not None
BUILD = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(BUILD)
FACT = re.compile(r"^Line \d{6}: The (\w+) code for vault (\w+) is (\d{5})\.$")
MARGIN = 0.24  # share of each window left free under SmolLM2's tokenizer (docs/datasets.md, card)


@cache
def facts_of(row_id: str) -> list[tuple[str, str, str]]:
    """(kind, vault, value) of every line shaped like a needle, in document order."""
    row = next(r for r in ROWS if r["id"] == row_id)
    document = BUILD.build_document(row["meta"]["haystack"])
    return [m.groups() for m in map(FACT.match, document.split("\n")) if m]  # type: ignore[misc]


def asked(row: dict[str, Any]) -> list[tuple[str, str]]:
    return re.findall(r"the (\w+) code for vault (\w+)", row["prompt"])


def near(a: str, b: str) -> bool:
    """One digit changed, or two neighbouring digits swapped."""
    if sorted(a) == sorted(b) and a != b:
        swaps = [a[:i] + a[i + 1] + a[i] + a[i + 2 :] for i in range(len(a) - 1)]
        if b in swaps:
            return True
    return sum(x != y for x, y in zip(a, b, strict=True)) == 1


def test_windows_variants_scorer_and_distinct_questions() -> None:
    assert len(ROWS) == 48
    windows = ("1k", "2k", "4k", "8k", "16k", "32k", "64k", "128k")
    assert Counter(r["category"] for r in ROWS) == {f"ctx{w}": 6 for w in windows}
    assert [r["category"] for r in ROWS[:24]] == [f"ctx{w}" for w in windows[:4] for _ in range(6)]
    assert Counter(r["difficulty"] for r in ROWS) == {"easy": 18, "medium": 12, "hard": 18}
    assert {r["scorer"] for r in ROWS} == {"exact"}
    assert len({" ".join(r["prompt"].casefold().split()) for r in ROWS}) == 48
    pairs = [pair for r in ROWS for pair in asked(r)]
    assert len(pairs) == len(set(pairs)) == 40 + 8 * 3
    assert len({r["meta"]["haystack"]["sha256"] for r in ROWS}) == 48  # no shared document
    assert all("cluster" not in r["meta"] for r in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_answer_is_read_back_from_the_document(row: dict[str, Any]) -> None:
    recipe = row["meta"]["haystack"]
    full = BUILD.build_prompt(recipe)
    head, document, question = full.split("\n\n")
    assert head == BUILD.PREAMBLE and question == row["prompt"] == recipe["question"]
    assert BUILD.document_sha256(document) == recipe["sha256"]
    facts = facts_of(row["id"])
    table = {(kind, vault): value for kind, vault, value in facts}
    assert len(table) == len(facts)  # each (kind, vault) stated once
    gold = [table[pair] for pair in asked(row)]
    accepted = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
    assert accepted[0] == ", ".join(gold)
    assert len(re.findall(r"\b\d{5}\b", document)) == len(facts)
    assert document.count("vault") == len(facts)
    distractors = 4 if len(gold) == 1 else 6
    assert len(facts) == len(gold) + distractors == len(recipe["needles"])
    for kind, vault in asked(row):
        assert any(k == kind and v != vault for k, v, _ in facts)  # same kind, other vault
        assert any(k != kind and v == vault for k, v, _ in facts)  # same vault, other kind
    values = [value for _, _, value in facts]
    assert all(any(near(v, w) for w in values if w != v) for v in values)


def test_hand_checked_row() -> None:
    row = ROWS[0]
    assert row["id"] == "longctx2-ctx1k-d00"
    assert row["prompt"] == (
        "What is the access code for vault Turnstone? End your reply with a line 'Answer: <code>'."
    )
    assert row["answer"] == "73504"
    # Checked by hand: 73504 -> 75304 (swap) -> 75034 (swap) -> 95034 (digit), 75304 -> 75340
    # (swap). The hub of that tree is the distractor 75304, not the answer.
    assert facts_of(row["id"]) == [
        ("access", "Turnstone", "73504"),
        ("access", "Siskin", "95034"),
        ("safe", "Turnstone", "75034"),
        ("alarm", "Turnstone", "75340"),
        ("access", "Dunlin", "75304"),
    ]
    assert near("73504", "75304") and near("75304", "75340") and not near("73504", "75034")


def test_no_position_or_value_shape_gives_the_answer_away() -> None:
    chance = Counter[str]()
    for row in SINGLES:
        values = [value for _, _, value in facts_of(row["id"])]
        gold = row["answer"]
        chance["first"] += values[0] == gold
        chance["middle"] += values[2] == gold
        chance["last"] += values[-1] == gold
        degree = [sum(near(v, w) for w in values if w != v) for v in values]
        chance["hub"] += values[degree.index(max(degree))] == gold
    n = len(SINGLES)
    assert n == 40
    # five candidate lines each: chance is 1/5; the rank is balanced exactly
    assert (chance["first"], chance["middle"], chance["last"]) == (8, 8, 8)
    assert Counter([v for _, _, v in facts_of(r["id"])].index(r["answer"]) for r in SINGLES) == {
        rank: 8 for rank in range(5)
    }
    assert chance["hub"] / n <= 0.2 + 0.10


def test_multi_rows_accept_the_listed_separators() -> None:
    row = next(r for r in ROWS if r["id"] == "longctx2-ctx1k-multi")
    table = {(kind, vault): value for kind, vault, value in facts_of(row["id"])}
    a, b, c = (table[pair] for pair in asked(row))
    assert row["answer"] == [f"{a}, {b}, {c}", f"{a},{b},{c}", f"{a} {b} {c}"]


def test_check_hook_and_inference_rebuild_every_document() -> None:
    assert haystack_failures(DATA) == []  # digests, sizes and every needle/distractor line
    row = ROWS[-1]
    messages = eval_messages(row, "eval-longctx-v2", DATA, DATA.parent, "test")
    assert messages == [{"role": "user", "content": BUILD.build_prompt(row["meta"]["haystack"])}]


def test_report_grid_uses_the_asked_needle_depth_not_distractors() -> None:
    cell = row_facts(next(r for r in ROWS if r["id"] == "longctx2-ctx4k-d25"))["haystack"]
    assert cell == {"target_tokens": "1920", "depth": "25%"}
    multi = row_facts(next(r for r in ROWS if r["id"] == "longctx2-ctx4k-multi"))["haystack"]
    assert multi == {"target_tokens": "1920", "depth": "multi"}


@pytest.mark.embedded
def test_every_request_fits_its_window_under_smollm2_tokens() -> None:
    """The embedded server renders each prompt with its template and tokenizes the text with
    SmolLM2's own tokenizer (``/apply-template``, ``/tokenize``): what a request really costs."""
    import urllib.request

    from stages.engine.embedded import EngineSettings, embedded_server
    from stages.params import model_params

    def post(root: str, path: str, body: dict[str, Any]) -> Any:
        data = json.dumps(body).encode()
        request = urllib.request.Request(root + path, data, {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read())

    model = model_params(REPO / "params.yaml")
    worst = 1.0
    with embedded_server(model, EngineSettings(slots=1)) as server:
        root = server.url.removesuffix("/v1")
        for row in ROWS:
            messages = [{"role": "user", "content": BUILD.build_prompt(row["meta"]["haystack"])}]
            text = post(root, "/apply-template", {"messages": messages})["prompt"]
            tokens = post(root, "/tokenize", {"content": text, "parse_special": True})["tokens"]
            context = row["meta"]["context"]
            used = len(tokens) + context["answer_budget"]
            worst = min(worst, 1 - used / context["window_tokens"])
    assert worst >= MARGIN, worst
