# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-longctx-v2: needle retrieval among near-miss distractors, sized to fit stated context
windows (spec 001, "The haystack algorithm"; issue 13 fixes eval-longctx-v1).

Each row names a context window (1k to 128k tokens) and must fit it whole: preamble + document
+ question, a chat template and a 64-token answer budget. The document is (window - 256) / 2
tokens by the ``chars / 4`` heuristic; ``prove`` checks that prompt + 64 template + 64 answer
tokens stay within 5/8 of the window by that heuristic. Measured with SmolLM2's tokenizer (the
default model's: about 1.35 tokens per heuristic token here, digits are single tokens) at least
24 % of every window stays free (the margin ``tests/gen/test_eval_longctx_v2.py`` measures).

The asked fact sits at five depths (single rows) or three (multi rows) among lines of the same
shape with near-miss values (``nearmiss``). Every row asks about a different
(kind, vault) pair, so no two questions are alike. The rows are self-contained like v1's: the
prompt is the question and inference sends ``haystack-v1/build.py:build_prompt(meta.haystack)``.
Scored ``exact`` on the Answer line: with distractors present, ``contains`` would credit a reply
that lists every code. Each row has its own document, so no row needs ``meta.cluster``.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.haystack import build, nearmiss, needles

DATASET_ID = "eval-longctx-v2"
KIND = "eval"
DESCRIPTION = (
    "Needle retrieval among near-miss distractor lines in haystack-v1 documents sized to fit "
    "context windows of 1k-128k tokens: prompt + 64-token template allowance + 64-token answer "
    "budget within 5/8 of the window by chars/4, at least 24% of it free under SmolLM2's "
    "tokenizer; five depths plus three-needle items, every question distinct; prompt = question, "
    "document rebuilt from meta.haystack."
)
SEED = 20_261_213
CREATED = "2026-12-01"
DEFAULT_SCORER = "exact"
WINDOWS = needles.EVAL_WINDOWS
RESERVED = 256  # heuristic tokens kept out of the document share (preamble, question, reply)
TEMPLATE_ALLOWANCE = 64  # heuristic tokens reserved for a chat template around the prompt
ANSWER_BUDGET = 64  # tokens reserved for the reply (workload max_tokens must not exceed it)
HEURISTIC_CEILING = 0.625  # prompt + template + answer within 5/8 of the window (heuristic)
VARIANTS = needles.EVAL_VARIANTS
COUNT = len(WINDOWS) * len(VARIANTS)
ASKED_PER_WINDOW = sum(len(depths) for _, depths in VARIANTS)
#: Every (kind, vault) pair once, in a fixed seeded order; row i asks the next unused pairs.
PLAN = sorted((kind, vault) for kind in nearmiss.KINDS for vault in needles.VAULTS)
random.Random(f"{SEED}:plan").shuffle(PLAN)


def document_tokens(window: int) -> int:
    """Heuristic size of a window's document: half of what the reserve leaves."""
    return (window - RESERVED) // 2


def _asked(idx: int) -> list[tuple[str, str]]:
    variant = idx % len(VARIANTS)
    start = (idx // len(VARIANTS)) * ASKED_PER_WINDOW
    start += sum(len(depths) for _, depths in VARIANTS[:variant])
    return PLAN[start : start + len(VARIANTS[variant][1])]


def _ranks(rng: random.Random, idx: int) -> list[int]:
    """Rank of each asked line among its own lines: cycled over single rows so that each of
    the five ranks holds exactly one fifth of them, drawn for the multi rows' three lines."""
    window, variant = divmod(idx, len(VARIANTS))
    if len(VARIANTS[variant][1]) == 1:
        return [(window + variant) % (sum(nearmiss.SINGLE_DISTRACTORS) + 1)]
    return [rng.randrange(sum(nearmiss.MULTI_DISTRACTORS) + 1) for _ in VARIANTS[variant][1]]


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    window = WINDOWS[idx // len(VARIANTS)]
    suffix, depths = VARIANTS[idx % len(VARIANTS)]
    recipe = nearmiss.make_recipe(
        rng, document_tokens(window), depths, _asked(idx), _ranks(rng, idx)
    )
    answer = recipe.pop("answer")
    _, facts = needles.materialise(recipe)
    prompt_tokens = math.ceil(len(build.build_prompt({**recipe, **facts})) / 4)
    label = needles.size_label(window)
    return {
        "id": f"longctx2-ctx{label}-{suffix}",
        "category": f"ctx{label}",
        "difficulty": needles.eval_difficulty(window),
        "prompt": recipe["question"],
        "answer": needles.accepted_codes(answer),
        "scorer": DEFAULT_SCORER,
        "meta": {
            "haystack": {**recipe, **facts},
            "depths": list(depths),
            "needle_count": len(depths),
            "distractor_count": len(recipe["needles"]) - len(depths),
            "context": {
                "window_tokens": window,
                "prompt_approx_tokens": prompt_tokens,
                "template_allowance": TEMPLATE_ALLOWANCE,
                "answer_budget": ANSWER_BUDGET,
            },
        },
    }


def prove(row: dict[str, Any]) -> None:
    recipe = row["meta"]["haystack"]
    codes = nearmiss.prove_document(recipe, row["id"])
    assert row["prompt"] == recipe["question"], row["id"]
    gold = row["answer"] if isinstance(row["answer"], str) else row["answer"][0]
    assert gold == ", ".join(codes), row["id"]
    context = row["meta"]["context"]
    window = context["window_tokens"]
    assert recipe["target_tokens"] == document_tokens(window), row["id"]
    full = build.build_prompt(recipe)
    assert context["prompt_approx_tokens"] == math.ceil(len(full) / 4), row["id"]
    used = context["prompt_approx_tokens"] + TEMPLATE_ALLOWANCE + ANSWER_BUDGET
    assert used <= HEURISTIC_CEILING * window, f"{row['id']}: {used} heuristic tokens"


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: " ".join(r["prompt"].casefold().split()), "question")
    lib.assert_unique(rows, lambda r: r["meta"]["haystack"]["seed"], "seed")
    asked = [pair for r in rows for pair in nearmiss.ASKED.findall(r["prompt"])]
    assert len(asked) == len(set(asked)) == COUNT // len(VARIANTS) * ASKED_PER_WINDOW


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
