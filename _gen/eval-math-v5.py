# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-math-v5: eval-math-v3 with modular-arithmetic choice rows that no longer offer the
gold's mirror (issue 30; supersedes eval-math-v3 for the math-v2 workload).

In eval-math-v3 five of the six modular choice rows (math3-0020, -0026, -0032, -0074, -0080)
offered both the answer x and m - x, so a reader who knew that shape kept two options of four;
math3-0032 also put x exactly halfway between two options, and math3-0026 asked for the inverse
of m - 1 and offered 1. ``families.math.choice_v5`` draws the distractors from the answers for
nearby coefficients only and keeps an option set only when it has no mirror pair, no option
halfway between two others, one common factor with m throughout and no number the question
states; its proof checks all four again.

Everything else is v3's: the other choice builders, the numeric and exact forms
(``families.math``), the layout, the letter plan and the seed, so math3-NNNN and math5-NNNN are
the same cell and every row but the six modular choice rows is v3's row with a new id. Every
row carries ``probes`` (``families.math.near_misses``).
"""

from __future__ import annotations

import functools
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes, v2
from common import mc_plan as plan
from common.plan_stream import plan_rng
from families.math import choice_v5, forms, near_misses
from families.math.base import Item

DATASET_ID = "eval-math-v5"
KIND = "eval"
DESCRIPTION = (
    "Multi-step maths (linear systems, modular arithmetic, brute-force combinatorics, exact "
    "probability, sequences, number theory) mixing numeric, exact and mc rows; choice rows "
    "whose options look alike whichever is right, ascending with planned balanced ranks; "
    "no modular choice row offers the gold's mirror m - x or another shape that points at it; "
    "rows carry probes; supersedes eval-math-v3."
)
SEED = 3_000_201  # v3's: every row but the modular choice rows is v3's row
COUNT = 126
CREATED = "2026-12-04"
DEFAULT_SCORER = "numeric"
CATEGORIES = forms.CATEGORIES
OPEN_FORMS = forms.BUILDERS
EXPECTED = forms.EXPECTED


def slots() -> dict[int, int]:
    """Planned gold slot (the rank, options being ascending) of every choice row, dealt from the
    plan's own stream (row -1): each letter 9 times, within one of 1.5 times per category."""
    mc = [(v2.cell(i, CATEGORIES)[0], i) for i in range(COUNT) if v2.cell(i, CATEGORIES)[2] == 1]
    return plan.letter_plan(plan_rng(SEED, -1), mc)


def _open_item(rng: random.Random, category: str, level: int, variant: int) -> Item:
    """A v2 numeric or exact item, drawn again while its prompt states its own answer."""
    while True:
        item = probes.exact_integer(OPEN_FORMS[category](rng, level, variant))
        if item["scorer"] != "numeric" or not probes.states_gold(
            item["question"], item["answer"], item["meta"]
        ):
            return item


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: category cycles fastest, then difficulty, then the form (variant 1 is the
    choice form); the row gets the probes of its kind."""
    category, level, variant = v2.cell(idx, CATEGORIES)
    row_id = f"math5-{idx + 1:04d}"
    if variant == 1:
        item = choice_v5.BUILD[category](rng, level, slots()[idx])
        row = plan.item_row(row_id, category, level, item, "the answer")
    else:
        item = _open_item(rng, category, level, variant)
        row = v2.item_row(
            rng, row_id, category, level, item, functools.partial(forms.suffix, category)
        )
    return probes.with_probes(row, _prove_answer, near_misses.slips)


def _prove_answer(row: dict[str, Any]) -> None:
    meta, rid = row["meta"], row["id"]
    if row["scorer"] == "mc":
        expected = choice_v5.EXPECTED[meta["kind"]](row)
        assert plan.gold_text(row) == expected, (rid, expected)
        return
    expected = EXPECTED[meta["kind"]](meta)
    if row["scorer"] == "numeric":
        assert row["answer"] == expected, (rid, row["answer"], expected)
    else:
        assert row["answer"][0] == expected, (rid, row["answer"], expected)


def prove(row: dict[str, Any]) -> None:
    """The answer re-derived, no numeric prompt stating it, every option judged by the same
    proof as the generator."""
    _prove_answer(row)
    if row["scorer"] == "numeric":
        assert "tolerance" in row["meta"] or "/" in row["answer"], row["id"]
        assert not probes.states_gold(row["prompt"], row["answer"], row["meta"]), row["id"]
    if row["scorer"] == "mc":
        assert row["probes"]["option_ok"] == probes.verdicts(row, _prove_answer), row["id"]


def option_verdicts(row: dict[str, Any]) -> list[bool]:
    """The audit's uniqueness hook (``stages/datasets/uniqueness.py``): each option of an mc row
    judged by the row's proof with its letter put in, from what the row states (no gold)."""
    return probes.verdicts(row, _prove_answer)


def prove_all(rows: list[dict[str, Any]]) -> None:
    v2.check_suite(rows, CATEGORIES)
    plan.check_balance_and_duplicates(rows)


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
