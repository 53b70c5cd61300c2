# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""TEMPLATE: copy me to ``_gen/<dataset-id>.py`` to add a dataset (docs/adding-a-dataset.md).

Every generator has this one shape, top to bottom:

1. config constants (id, kind, seed, row count, fixed created date, default scorer);
2. ``generate(rng, idx)``: one row from its own ``random.Random`` (``lib.row_rng(SEED, idx)``),
   never the global one, so rows are independent and reruns are byte-identical;
3. ``prove(row)``: recompute, brute-force or execute the answer independently of how
   ``generate`` produced it; a hand-typed answer key is not a proof;
4. ``main()``: ``python _gen/<dataset-id>.py OUTDIR`` writes ``rows.jsonl`` and ``dataset.json``.

Where code goes: this file is the generator. What every generator shares is in ``_gen/common/``
(``from common import lib``: ``run``, ``row_rng``, ``assert_unique``, token counts). A task family
with code of its own (a puzzle builder and its solver, a lexicon) goes in
``_gen/families/<suite>/<family>.py``, beside the suite's other families; a new suite is a new
folder with an ``__init__.py`` whose docstring says what the suite holds. The generator imports it
by absolute name, ``from families.<suite> import <family>``, and so does a family that needs a
sibling; a family never imports a generator or anything that imports it back (the import-circle
test fails). ``atlas dataset stages`` lists what the generator imports as its stage's deps.

Standard library (and Pillow for images) only. Then run ``atlas dataset new`` or add the id to
``params.yaml`` under ``datasets:``, run ``dvc repro check`` and ``atlas dataset publish ID``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # _gen/: common/ and families/
from common import lib

# A family of your own (_gen/families/<suite>/<family>.py):
# from families.<suite> import <family>

DATASET_ID = "eval-example-v1"
KIND = "eval"
DESCRIPTION = "Replace me: what this dataset measures, in one sentence."
SEED = 20261129
COUNT = 100
CREATED = "2026-11-29"
DEFAULT_SCORER = "numeric"
DIFFICULTIES = ("easy", "medium", "hard")


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: draw its parameters from ``rng`` and compute the answer from them."""
    difficulty = DIFFICULTIES[idx % len(DIFFICULTIES)]
    high = {"easy": 20, "medium": 500, "hard": 10_000}[difficulty]
    a, b = rng.randint(2, high), rng.randint(2, high)
    return {
        "id": f"example-{idx + 1:04d}",
        "category": "addition",
        "difficulty": difficulty,
        "prompt": f"What is {a} + {b}? End with a line 'Answer: <number>'.",
        "answer": str(a + b),
        "scorer": DEFAULT_SCORER,
        "meta": {"operands": [a, b]},
    }


def prove(row: dict[str, Any]) -> None:
    """Check the answer another way than ``generate`` computed it."""
    a, b = row["meta"]["operands"]
    assert int(row["answer"]) - b == a, row["id"]


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
        prove_all=lambda rows: lib.assert_unique(rows, lambda r: r["prompt"], "prompt"),
        argv=argv,
    )


if __name__ == "__main__":
    main()
