# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-commonsense-v3: commonsense traps with mechanically derived answers, rebuilt so that no
answer-free shortcut passes them (issue 13; supersedes eval-commonsense-v2).

What v2 let a guesser do, and what v3 does instead:

* errands were always "bring the object" (or "walk" when the car was at the shop): now the
  plan follows from where the object is, what the errand needs and whether the place is still
  open today, and each of the four plans is right in a quarter of each object's rows,
  "Either way works" and "it cannot be done today" included (``errands``);
* the false-premise option was right in 17 of 30 rows: now in exactly 8 of 32, asked in the
  same words as the controls (``premises``);
* cs2-0062 and cs2-0098 were the same question: the suite proof rejects near-duplicates
  (normalised prompt and options in any order, ``common.mc_plan``);
* mc letters drifted: they are planned, each gold 21 times in 84.

Each category is one family module (``_gen/families/commonsense/<family>.py``) with its forms,
builders and proofs; this file only lays rows out and dispatches. Rows share no context (no
``meta.cluster``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, v2
from common import mc_plan as plan
from families.commonsense import errands, literal, premises, riddles

DATASET_ID = "eval-commonsense-v3"
KIND = "eval"
DESCRIPTION = (
    "Commonsense traps with mechanically derived answers: errands whose plan follows from the "
    "stated facts, altered classic riddles, false premises asked like their controls, and "
    "literal-text questions; mc letters and answer kinds balanced; supersedes "
    "eval-commonsense-v2."
)
SEED = 3_000_601
COUNT = 128
CREATED = "2026-12-01"
DEFAULT_SCORER = "mc"
FAMILIES = {
    "goal_tracking": errands,
    "altered_riddles": riddles,
    "false_premises": premises,
    "literal_text": literal,
}
CATEGORIES = tuple(FAMILIES)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    category, level, turn = plan.family_cell(FAMILIES, idx)
    name, scorer = plan.family_form(FAMILIES, idx)
    slot = plan.family_slots(FAMILIES, COUNT, lib.row_rng(SEED, -1)).get(idx)
    item = FAMILIES[category].BUILD[name](rng, level, slot, turn)
    assert item["scorer"] == scorer, (idx, name)
    return plan.item_row(f"cs3-{idx + 1:04d}", category, level, item, "the answer")


def prove(row: dict[str, Any]) -> None:
    FAMILIES[row["category"]].PROVE[row["meta"]["kind"]](row)


def prove_all(rows: list[dict[str, Any]]) -> None:
    v2.check_suite(rows, CATEGORIES)
    plan.check_balance_and_duplicates(rows)
    premise_rows = [r for r in rows if r["category"] == "false_premises"]
    false = sum(plan.gold_text(r) == premises.FALSE_PREMISE for r in premise_rows)
    assert 4 * false == len(premise_rows), false  # right exactly as often as a four-way guess
    errand_rows = [r for r in rows if r["category"] == "goal_tracking"]
    for options, _ in errands.OBJECTS.values():  # each plan a quarter of each object's rows
        golds = [plan.gold_text(r) for r in errand_rows if sorted(r["choices"]) == sorted(options)]
        assert all(4 * golds.count(o) == len(golds) for o in options), golds


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
