# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-commonsense-v5: eval-commonsense-v4's commonsense traps with errand options that agree
with their stories and a weekly closing day a reader must use (issue 30; supersedes
eval-commonsense-v4).

What issue 30 found in eval-commonsense-v4's errands, and what ``errands_v5`` does instead:

* the gold of cs4-0009, -0025, -0057 and -0073 read "it is at home and the errand is not for
  it" where the story's errand was *for* the object (screen wash for the car, a bell for the
  bicycle, food for the dog, the bill for the car's service): that wording now says the object
  is not needed for the errand;
* the weekly closing day (10 hard rows) never changed a plan: now the medium rows state one
  too, three postponed errands are put off by the closing day alone (the clock says open), two
  by the clock on another day, and every other row with a closing day falls on another day. The
  solver re-decides each row with and without the closing day; ``prove_all`` counts both kinds.

The other families (``riddles``, ``premises``, ``literal_v4``) and the layout are v4's
(``common.mc_plan``: mc letters and answer kinds balanced, each errand plan a quarter of each
object's rows, worded three ways), with a new seed. Every row carries ``probes``
(``common.probes``; open rows the slips of ``slips``), and a numeric row whose prompt ends on its
own gold number is drawn again.
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
from families.commonsense import errands_v5, literal_v4, premises, riddles_v5, slips

DATASET_ID = "eval-commonsense-v5"
KIND = "eval"
DESCRIPTION = (
    "Commonsense traps with mechanically derived answers: errands whose one right plan and reason "
    "follow from the stated facts, a weekly closing day deciding some of them, altered classic "
    "riddles, false premises asked like their controls, and literal-text questions; mc letters "
    "and answer kinds balanced; near misses and alternatives per row; supersedes "
    "eval-commonsense-v4."
)
SEED = 5_000_601
COUNT = 128
CREATED = "2026-12-04"
DEFAULT_SCORER = "mc"
FAMILIES = {
    "goal_tracking": errands_v5,
    "altered_riddles": riddles_v5,
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
        row = plan.item_row(f"cs5-{idx + 1:04d}", category, level, item, "the answer")
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
    for obj in errands_v5.OBJECTS:  # each plan a quarter of each object's rows
        golds = Counter(
            errands_v5.plan_of(plan.gold_text(r), obj, r["meta"]["place"])
            for r in errand_rows
            if r["meta"]["object"] == obj
        )
        assert len(set(golds.values())) == 1 and len(golds) == len(errands_v5.PLANS), golds
    stated = [r for r in errand_rows if r["meta"]["closed_on"] is not None]
    deciding = [r["id"] for r in stated if errands_v5.closing_day_decides(r["meta"])]
    assert (len(stated), len(deciding)) == (21, 3), (len(stated), deciding)  # the others: not


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
