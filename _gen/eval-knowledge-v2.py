# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-knowledge-v2: timeless facts that have to be combined, not recalled (spec 001, -v2 wave).

Five categories over small embedded tables of settled facts: chemical elements 1-56 (symbol and
name; period and group are derived from the atomic number, never typed), the Gregorian calendar
(day counts, weekdays and leap years around fixed historic dates, all computed with
``datetime``), units with exact legal definitions (inch = 25.4 mm, pound = 0.45359237 kg, ...),
SI prefixes, and Roman numerals. Each row stores what it asks in ``meta``; ``prove`` recomputes
the answer another way (formula parsing, ordinal-day arithmetic, a Roman-numeral parser) and
tests/gen/test_eval_knowledge_v2.py re-derives it again, including the periodic-table
positions from an Aufbau (Madelung-order) electron filling. The tables, forms and proofs live in
``families.knowledge`` (one module per category), which eval-knowledge-v3 shares.
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, v2
from families.knowledge import forms

DATASET_ID = "eval-knowledge-v2"
KIND = "eval"
DESCRIPTION = (
    "Derived timeless facts: element arithmetic, Gregorian calendar computations on fixed "
    "historic dates, exact unit chains, SI prefixes and Roman numerals; mixes mc, exact and "
    "numeric rows; supersedes eval-knowledge-v1."
)
SEED = 2_000_401
COUNT = 120
CREATED = "2026-09-01"
DEFAULT_SCORER = "exact"
CATEGORIES = forms.CATEGORIES
BUILDERS = forms.BUILDERS
EXPECTED = forms.EXPECTED


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: category cycles fastest, then difficulty, then the question form."""
    category, level, variant = v2.cell(idx, CATEGORIES)
    item = BUILDERS[category](rng, level, variant)
    return v2.item_row(
        rng, f"know2-{idx + 1:04d}", category, level, item, v2.plain_suffix("the answer")
    )


def prove(row: dict[str, Any]) -> None:
    expected = EXPECTED[row["meta"]["kind"]](row)
    if row["scorer"] == "mc":
        assert v2.check_mc_layout(row) == expected, (row["id"], expected)
    elif row["scorer"] == "exact":
        accepted = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
        assert accepted[0] == expected, (row["id"], row["answer"], expected)
    else:
        assert Fraction(row["answer"]) == Fraction(expected), (row["id"], row["answer"], expected)


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
