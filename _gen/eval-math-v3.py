# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-math-v3: eval-math-v2's multi-step mathematics with choice rows no answer-free rule
passes, and probes for the audits (issue 19; supersedes eval-math-v2).

In v2 the shortest option was right in 14 of its 36 choice rows (39 %, chance 25 %), and the gold
letters were uneven (A and D 11 times each): distractors were derived from the gold (twice it,
half of it, the naive count above it, assignments that satisfy all equations but one) and primes
were on average the smallest number offered. v3 rebuilds every choice row
(``families.math.choice``): options whose set looks the same whichever is right (a grid of
sibling questions' answers, a window of terms, numbers drawn at independent positions), listed
in ascending order with the gold at a rank planned for the whole dataset, so every letter is
right 9 times and each rank as often as any other.

The numeric and exact forms are v2's (``families.math``: linear systems, modular arithmetic,
counting, probability, sequences, number theory), with v2's layout (the category cycles
fastest, then the difficulty, then the form) and v2's answer lines. Integer answers are scored
exactly (``meta.tolerance`` 0) and no numeric prompt states its own answer (v2's math2-0110
did). Every row carries ``probes`` (``families.math.near_misses``).
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
from families.math import choice, forms, near_misses
from families.math.base import Item

DATASET_ID = "eval-math-v3"
KIND = "eval"
DESCRIPTION = (
    "Multi-step maths (linear systems, modular arithmetic, brute-force combinatorics, exact "
    "probability, sequences, number theory) mixing numeric, exact and mc rows; choice rows "
    "whose options look alike whichever is right, ascending with planned balanced ranks; "
    "rows carry probes; supersedes eval-math-v2."
)
SEED = 3_000_201
COUNT = 126
CREATED = "2026-12-02"
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
    row_id = f"math3-{idx + 1:04d}"
    if variant == 1:
        item = choice.BUILD[category](rng, level, slots()[idx])
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
        expected = choice.EXPECTED[meta["kind"]](row)
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
