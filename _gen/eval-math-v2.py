# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-math-v2: multi-step mathematics that v1 no longer separates (spec 001, the -v2 wave).

Six categories, each with a numeric, a multiple-choice and (where a list is natural) an exact
template: linear systems (word problems with distractor sentences; mc options that satisfy all
but one equation), modular arithmetic (huge powers, CRT, inverses, square roots mod m),
combinatorics counted by brute force, probability as exact fractions (enumerated), sequences
(recurrences, off-by-one traps) and number theory. Every row stores its parameters in ``meta``;
``prove`` recomputes each answer by another route (elimination vs. the generator's construction,
brute force vs. closed forms) and tests/gen/test_eval_math_v2.py recomputes them a third way.
``families.math`` holds the six families (forms and proofs), which eval-math-v3 shares.
"""

from __future__ import annotations

import functools
import random
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, v2
from families.math import forms
from families.math.base import factorise

DATASET_ID = "eval-math-v2"
KIND = "eval"
DESCRIPTION = (
    "Multi-step maths (linear systems, modular arithmetic, brute-force combinatorics, exact "
    "probability, sequences, number theory) mixing numeric, exact and mc rows; supersedes "
    "eval-math-v1."
)
SEED = 2_000_201
COUNT = 126
CREATED = "2026-09-01"
DEFAULT_SCORER = "numeric"
CATEGORIES = forms.CATEGORIES
BUILDERS = forms.BUILDERS
EXPECTED = forms.EXPECTED


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: category cycles fastest, then difficulty, then the category's template."""
    category, level, variant = v2.cell(idx, CATEGORIES)
    item = BUILDERS[category](rng, level, variant)
    suffix = functools.partial(forms.suffix, category)
    return v2.item_row(rng, f"math2-{idx + 1:04d}", category, level, item, suffix)


def prove(row: dict[str, Any]) -> None:
    meta, rid = row["meta"], row["id"]
    if meta["kind"] == "prime_pick":
        correct = v2.check_mc_layout(row)
        composite = [c for c in row["choices"] if factorise(int(c)) != {int(c): 1}]
        odd = (
            composite
            if meta["odd_one_out"] == "composite"
            else [c for c in row["choices"] if c not in composite]
        )
        assert odd == [correct], rid
        return
    expected = EXPECTED[meta["kind"]](meta)
    if row["scorer"] == "numeric":
        assert row["answer"] == expected, (rid, row["answer"], expected)
    elif row["scorer"] == "exact":
        assert row["answer"][0] == expected, (rid, row["answer"], expected)
    else:
        assert v2.check_mc_layout(row) == expected, (rid, expected)
        if meta["kind"] == "system_choice":
            for choice in row["choices"]:
                values = [int(part.split("=")[1]) for part in choice.split(",")]
                fits = [
                    sum(a * v for a, v in zip(eq, values, strict=True)) == b
                    for eq, b in zip(meta["matrix"], meta["rhs"], strict=True)
                ]
                assert all(fits) == (choice == expected), (rid, choice)
        else:
            assert len({Fraction(c) for c in row["choices"]}) == len(row["choices"]), rid


def prove_all(rows: list[dict[str, Any]]) -> None:
    v2.check_suite(rows, CATEGORIES)


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
