# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-math-v1: arithmetic, fractions, percentages and word problems, scored ``numeric``.

Each row stores the expression it was built from (``meta.expression``); ``prove`` re-evaluates
that expression with exact rational arithmetic through Python's AST, independently of the code
path that produced the answer, and compares.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.math import arithmetic

DATASET_ID = "eval-math-v1"
KIND = "eval"
DESCRIPTION = "Arithmetic, fractions, percentages and word problems with computed answers."
SEED = 1_000_101
COUNT = 180
CREATED = "2026-11-29"
DEFAULT_SCORER = "numeric"
CATEGORIES = arithmetic.CATEGORIES
DIFFICULTIES = arithmetic.DIFFICULTIES


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    category, level, prompt, expr, answer = arithmetic.build(rng, idx)
    return {
        "id": f"math-{idx + 1:04d}",
        "category": category,
        "difficulty": DIFFICULTIES[level],
        "prompt": prompt,
        "answer": answer,
        "scorer": DEFAULT_SCORER,
        "meta": {"expression": expr},
    }


def prove(row: dict[str, Any]) -> None:
    arithmetic.check_answer(row)


def prove_all(rows: list[dict[str, Any]]) -> None:
    arithmetic.check_suite(rows)


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
