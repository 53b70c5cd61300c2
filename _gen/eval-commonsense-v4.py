# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-commonsense-v4: eval-commonsense-v3's commonsense traps with one right option per errand,
every row with its probes.

What issue 19 found in eval-commonsense-v3: when the object was at home and not needed, the gold
was "Either: bringing the X or not makes no difference" but "Go without the X" was right too
(cs3-0009, -0025, -0041, -0057, -0073, -0089, -0105, -0121; in the car rows -0009 and -0073 it is
the better answer). ``errands_v4`` makes every option a plan with the fact that makes it the
plan; the four facts exclude each other, so exactly one option is right (its proof checks every
option against the stored facts).

``literal_v4`` keeps two sort rows from sorting the same words. The other families
(``riddles``, ``premises``) are v3's. Every row carries ``probes``
(``common.probes``): mc rows the other options as near misses, the gold's text as an alternative
and each option judged by its family's proof; open rows the slips of ``slips`` (the memorised
riddle answers, literal-text slips, counts one off). A numeric row whose prompt ends on its own
gold number is drawn again (an echo would score). Same layout as v3 (``common.mc_plan``: mc
letters and answer kinds balanced, each errand plan a quarter of each object's rows, worded three
ways), new seed.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes, v2
from common import mc_plan as plan
from families.commonsense import errands_v4, literal_v4, premises, riddles, slips

DATASET_ID = "eval-commonsense-v4"
KIND = "eval"
DESCRIPTION = (
    "Commonsense traps with mechanically derived answers: errands whose one right plan and reason "
    "follow from the stated facts, altered classic riddles, false premises asked like their "
    "controls, and literal-text questions; mc letters and answer kinds balanced; near misses and "
    "alternatives per row; supersedes eval-commonsense-v3."
)
SEED = 4_000_601
COUNT = 128
CREATED = "2026-12-01"
DEFAULT_SCORER = "mc"
FAMILIES = {
    "goal_tracking": errands_v4,
    "altered_riddles": riddles,
    "false_premises": premises,
    "literal_text": literal_v4,
}
CATEGORIES = tuple(FAMILIES)
SLOTS = plan.family_slots(FAMILIES, COUNT, lib.row_rng(SEED, -1))


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    category, level, turn = plan.family_cell(FAMILIES, idx)
    name, scorer = plan.family_form(FAMILIES, idx)
    family = FAMILIES[category]
    while True:
        item = family.BUILD[name](rng, level, SLOTS.get(idx), turn)
        assert item["scorer"] == scorer, (idx, name)
        row = plan.item_row(f"cs4-{idx + 1:04d}", category, level, item, "the answer")
        if probes.echo_safe(row):
            return probes.with_probes(row, prove, slips.slips)


def prove(row: dict[str, Any]) -> None:
    FAMILIES[row["category"]].PROVE[row["meta"]["kind"]](row)
    assert probes.echo_safe(row), row["id"]


def option_verdicts(row: dict[str, Any]) -> list[bool] | None:
    """Each option judged by its family's proof (the check's uniqueness hook)."""
    family_prove = FAMILIES[row["category"]].PROVE[row["meta"]["kind"]]
    return probes.verdicts(row, family_prove) if row.get("choices") else None


def prove_all(rows: list[dict[str, Any]]) -> None:
    v2.check_suite(rows, CATEGORIES)
    plan.check_balance_and_duplicates(rows)
    premise_rows = [r for r in rows if r["category"] == "false_premises"]
    false = sum(plan.gold_text(r) == premises.FALSE_PREMISE for r in premise_rows)
    assert 4 * false == len(premise_rows), false  # right exactly as often as a four-way guess
    errand_rows = [r for r in rows if r["category"] == "goal_tracking"]
    for obj in errands_v4.OBJECTS:  # each plan a quarter of each object's rows
        golds = Counter(
            errands_v4.plan_of(plan.gold_text(r), obj, r["meta"]["place"])
            for r in errand_rows
            if r["meta"]["object"] == obj
        )
        assert len(set(golds.values())) == 1 and len(golds) == len(errands_v4.PLANS), golds


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
