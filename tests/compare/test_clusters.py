"""``cluster_of``: an explicit ``meta.cluster`` first, then the published datasets' rules
(DROP passage, haystack document, shared prefix), else the row id."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from stages.compare.clusters import cluster_of

REPO = Path(__file__).resolve().parents[2]


def rows(dataset_id: str) -> list[dict[str, Any]]:
    path = REPO / "datasets" / dataset_id / "rows.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_explicit_cluster_wins() -> None:
    row = {"id": "x-1", "prompt": "p", "meta": {"cluster": "doc-7"}}
    assert cluster_of("eval-new-v1", row) == "doc-7"
    assert cluster_of("eval-drop-v1", {**row, "scorer": "drop"}) == "doc-7"


def test_rows_without_a_shared_context_are_their_own_cluster() -> None:
    math = rows("eval-math-v1")
    assert [cluster_of("eval-math-v1", r) for r in math] == [r["id"] for r in math]


def test_drop_questions_on_one_passage_share_a_cluster() -> None:
    passage = "The Ospreys scored twice in the first quarter."
    first = {"id": "d-1", "scorer": "drop", "prompt": f"{passage}\n\nQuestion: How many?"}
    second = {"id": "d-2", "scorer": "drop", "prompt": f"{passage}\n\nQuestion: Who scored?"}
    other = {"id": "d-3", "scorer": "drop", "prompt": "Another passage.\n\nQuestion: How many?"}
    keys = [cluster_of("eval-drop-v1", r) for r in (first, second, other)]
    assert keys[0] == keys[1] != keys[2] and keys[0].startswith("passage:")
    # eval-drop-v1 itself has one question per passage: 150 clusters of one.
    drop = rows("eval-drop-v1")
    assert len({cluster_of("eval-drop-v1", r) for r in drop}) == len(drop) == 150


def test_longctx_items_cluster_by_haystack_document() -> None:
    longctx = rows("eval-longctx-v1")
    keys = [cluster_of("eval-longctx-v1", r) for r in longctx]
    assert all(k.startswith("haystack:") for k in keys) and len(set(keys)) == len(longctx)
    twin = json.loads(json.dumps(longctx[0]))
    twin["id"] = "lc-twin"
    twin["meta"]["haystack"]["needles"][0]["depth"] = 0.9  # same document, another needle
    assert cluster_of("eval-longctx-v1", twin) == keys[0]


def test_shared_prefix_prompts_cluster_by_prefix() -> None:
    prompts = rows("prompts-shared-prefix-v1")
    sizes = Counter(cluster_of("prompts-shared-prefix-v1", r) for r in prompts)
    assert sorted(sizes.values()) == [12] * 10
