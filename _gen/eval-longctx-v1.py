# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-longctx-v1: scored needle retrieval from 1k to 128k tokens (spec 001, "The haystack
algorithm", last paragraph).

Each row is self-contained: ``meta.haystack`` holds the haystack-v1 recipe (seed, target_tokens,
needles, question) plus the digest, size and needle lines of the document it builds, and the
row's ``prompt`` is the question only. Inference must send
``datasets/haystack-v1/build.py:build_prompt(meta["haystack"])``; sending the bare question is the
bug the spec warns reads as a catastrophic accuracy drop. Single needles sit at five depths,
multi rows ask for three codes in order. ``prove`` rebuilds every document.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.haystack import needles

DATASET_ID = "eval-longctx-v1"
KIND = "eval"
DESCRIPTION = (
    "Needle retrieval in haystack-v1 documents of 1k-128k tokens at five depths plus three-needle "
    "items; prompt = question, document rebuilt from meta.haystack."
)
SEED = 20_261_202
CREATED = "2026-12-01"
DEFAULT_SCORER = "contains"
SIZES = needles.EVAL_WINDOWS
VARIANTS = needles.EVAL_VARIANTS
COUNT = len(SIZES) * len(VARIANTS)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    target_tokens = SIZES[idx // len(VARIANTS)]
    suffix, depths = VARIANTS[idx % len(VARIANTS)]
    recipe = needles.make_recipe(rng, target_tokens, depths)
    answer = recipe.pop("answer")
    _, facts = needles.materialise(recipe)
    size = needles.size_label(target_tokens)
    return {
        "id": f"longctx-{size}-{suffix}",
        "category": size,
        "difficulty": needles.eval_difficulty(target_tokens),
        "prompt": recipe["question"],
        "answer": needles.accepted_codes(answer),
        "scorer": DEFAULT_SCORER,
        "meta": {
            "haystack": {**recipe, **facts},
            "depths": list(depths),
            "needle_count": len(depths),
        },
    }


def prove(row: dict[str, Any]) -> None:
    recipe = row["meta"]["haystack"]
    needles.prove_recipe(recipe, row["id"])
    assert row["prompt"] == recipe["question"], row["id"]
    codes = [n["answer"] for n in recipe["needles"]]
    gold = row["answer"] if isinstance(row["answer"], str) else row["answer"][0]
    assert gold == ", ".join(codes), row["id"]
    assert needles.size_label(recipe["target_tokens"]) == row["category"], row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["meta"]["haystack"]["seed"], "seed")
    assert sorted({r["meta"]["haystack"]["target_tokens"] for r in rows}) == list(SIZES)


def main(argv: list[str] | None = None) -> None:
    lib.run(
        dataset_id=DATASET_ID,
        kind=KIND,
        description=DESCRIPTION,
        generator_file=f"_gen/{Path(__file__).name}",
        seed=SEED,
        count=COUNT,
        default_scorer=DEFAULT_SCORER,
        created=CREATED,
        generate=generate,
        prove=prove,
        prove_all=prove_all,
        argv=argv,
    )


if __name__ == "__main__":
    main()
