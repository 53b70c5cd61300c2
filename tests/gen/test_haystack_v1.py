"""haystack-v1: the shipped builder follows the seven steps of spec 001 "The haystack algorithm",
checked against hand-worked documents and an independent step-by-step reimplementation, and the
committed rows, static files and builder agree with it."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import random
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
DATASET = REPO / "datasets" / "haystack-v1"
ROWS = [json.loads(line) for line in (DATASET / "rows.jsonl").read_text("utf-8").splitlines()]
KESTREL = "The access code for vault Kestrel is 48213."
OSPREY = "The access code for vault Osprey is 10593."


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("haystack_build_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILD = _load(DATASET / "build.py")


def _recipe(seed: int, tokens: int, *needles: tuple[float, str]) -> dict[str, Any]:
    return {
        "seed": seed,
        "target_tokens": tokens,
        "question": "Q?",
        "needles": [{"depth": d, "text": t, "answer": t[-6:-1]} for d, t in needles],
    }


def _reference(recipe: dict[str, Any]) -> tuple[str, list[int]]:
    """The seven steps written out literally, sharing only the vocabulary with build.py."""
    budget = recipe["target_tokens"] * 4
    rng = random.Random(recipe["seed"])
    needle_chars = sum(len(n["text"]) + 13 + 1 for n in recipe["needles"])
    filler: list[str] = []
    filler_chars = 0
    while filler_chars + needle_chars < budget:
        template = rng.choice(BUILD.TEMPLATES)
        sentence = re.sub(r"\{(\w+)\}", lambda m: rng.choice(BUILD.SLOTS[m.group(1)]), template)
        filler.append(sentence)
        filler_chars += 13 + len(sentence) + 1
    lines, count = list(filler), len(filler)
    order = sorted(range(len(recipe["needles"])), key=lambda k: recipe["needles"][k]["depth"])
    for j, k in enumerate(order):
        needle = recipe["needles"][k]
        lines.insert(min(max(round(needle["depth"] * count) + j, 0), len(lines)), needle["text"])
    numbered = [f"Line {i:06d}: {s}" for i, s in enumerate(lines, start=1)]
    where = [lines.index(n["text"]) + 1 for n in recipe["needles"]]
    return "\n".join(numbered), where


def test_builder_in_the_dataset_is_the_generator_source_byte_for_byte() -> None:
    assert (DATASET / "build.py").read_bytes() == (
        REPO / "_gen" / "families" / "haystack" / "build.py"
    ).read_bytes()


def test_needles_alone_when_they_fill_the_budget() -> None:
    # budget 4 chars; the needle line already counts 43 + 13 + 1 = 57, so step 4 adds nothing.
    assert BUILD.build(_recipe(1, 1, (0.5, KESTREL))) == (f"Line 000001: {KESTREL}", [1])


def test_needles_are_placed_by_depth_not_by_list_order() -> None:
    document, lines = BUILD.build(_recipe(1, 1, (0.9, OSPREY), (0.1, KESTREL)))
    assert document == f"Line 000001: {KESTREL}\nLine 000002: {OSPREY}"
    assert lines == [2, 1]


def test_one_filler_line_then_depth_rounding() -> None:
    # needle 57 chars < budget 60: one filler sentence is drawn, then 57 + 14 + len >= 60 stops.
    document, lines = BUILD.build(_recipe(5, 15, (0.4, KESTREL)))
    first, second = document.split("\n")
    assert lines == [1] and first == f"Line 000001: {KESTREL}"  # round(0.4 * 1) = 0
    assert second.startswith("Line 000002: ") and not second.endswith("\n")
    assert BUILD.build(_recipe(5, 15, (0.6, KESTREL)))[1] == [2]  # round(0.6 * 1) = 1


@pytest.mark.parametrize("tokens", [64, 1024, 4096, 40_000])
@pytest.mark.parametrize("depths", [(0.0,), (0.5,), (1.0,), (0.2, 0.5, 0.8), (0.7, 0.7)])
def test_builder_matches_the_literal_reimplementation(
    tokens: int, depths: tuple[float, ...]
) -> None:
    texts = [KESTREL, OSPREY, "The access code for vault Curlew is 77777."]
    recipe = _recipe(tokens + len(depths), tokens, *zip(depths, texts, strict=False))
    assert BUILD.build(recipe) == _reference(recipe)


def test_stop_rule_and_edges_on_a_real_size() -> None:
    recipe = _recipe(99, 8192, (0.0, KESTREL), (1.0, OSPREY))
    document, lines = BUILD.build(recipe)
    rows = document.split("\n")
    assert lines == [1, len(rows)]  # depth 0 -> first line, depth 1 -> clamped to the end
    filler = [r for r in rows if "vault" not in r]
    total = len(document) + 1  # every line counted with its newline
    assert total >= 8192 * 4 > total - len(filler[-1]) - 1  # stopped at the first crossing


def test_build_prompt_wraps_the_document() -> None:
    recipe = _recipe(3, 200, (0.5, KESTREL))
    prompt = BUILD.build_prompt(recipe)
    assert prompt == BUILD.PREAMBLE + "\n\n" + BUILD.build_document(recipe) + "\n\nQ?"


def test_committed_rows_cover_eight_sizes_single_and_multi() -> None:
    sizes = sorted({r["target_tokens"] for r in ROWS})
    assert sizes == [1024, 2048, 4096, 8192, 16384, 32768, 131072, 262144]
    assert len(ROWS) == 32 and sum(r["kind"] == "multi" for r in ROWS) == 8
    assert {n["depth"] for r in ROWS if r["kind"] == "single" for n in r["needles"]} == {
        0.1,
        0.5,
        0.9,
    }


@pytest.mark.parametrize(
    "row", [r for r in ROWS if r["target_tokens"] <= 32768], ids=lambda r: r["id"]
)
def test_static_file_is_the_document_plus_one_newline(row: dict[str, Any]) -> None:
    raw = (DATASET / row["static_file"]).read_bytes()
    assert raw.endswith(b".\n") and not raw.endswith(b"\n\n")
    assert hashlib.sha256(raw[:-1]).hexdigest() == row["sha256"]
    lines = raw.decode("utf-8").split("\n")[:-1]
    for needle in row["needles"]:
        assert (
            lines[needle["line_number"] - 1]
            == f"Line {needle['line_number']:06d}: {needle['text']}"
        )


def test_large_documents_have_no_static_file_and_rebuild_to_their_digest() -> None:
    large = [r for r in ROWS if r["target_tokens"] > 32768]
    assert len(large) == 8 and all(r["static_file"] is None for r in large)
    assert not any(
        p.name.startswith(("hay-128k", "hay-256k")) for p in (DATASET / "static").iterdir()
    )
    biggest = next(r for r in large if r["id"] == "hay-256k-d50")
    document = BUILD.build_document(biggest)
    assert hashlib.sha256(document.encode()).hexdigest() == biggest["sha256"]
    assert len(document) == biggest["chars"] >= 262144 * 4 - 1
