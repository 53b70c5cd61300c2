# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-science-v3: applied physics and chemistry with every constant in the prompt, rebuilt so
that no answer-free shortcut passes it (issue 13; supersedes eval-science-v2).

What v2 let a guesser do, and what v3 does instead:

* "which resistor dissipates most" was R1 in 8 of 9 rows: the options are R1..R4 of one network
  and the generator draws resistances until the planned one wins, so each wins as often as its
  letter (``circuits``);
* pressure-factor options always held 1.000, the Celsius ratio and its reciprocal: now four
  values of one form from wrong-method formulas, ascending, the gold at the planned rank
  (``gases``; every value-option row works this way);
* the exact rows were two-way limiting-reagent guesses: now a power ranking of four resistors,
  balancing coefficients and empirical formulas (``circuits``, ``stoich``);
* mc letter D was light: letters are planned for the whole dataset, each gold 9 times in 36
  (``common.mc_plan``).

Each category is one family module (``_gen/families/science/<family>.py``) with its own forms,
builders and proofs; this file only lays rows out and dispatches. Numeric answers and tolerances
follow ``families.science.base``. Rows share no context, so no row carries ``meta.cluster``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, v2
from common import mc_plan as plan
from families.science import circuits, energy, gases, kinematics, stoich
from families.science.base import redraw
from families.science.chem import EXTRA_REACTIONS, REACTIONS

DATASET_ID = "eval-science-v3"
KIND = "eval"
DESCRIPTION = (
    "Applied physics and chemistry (kinematics, circuits, gas laws, stoichiometry, energy) with "
    "every constant given in the prompt; numeric answers to 3 significant figures with a 1 % "
    "relative tolerance, mc rows with planned balanced letters and near-miss options, and exact "
    "rankings, balanced equations and empirical formulas; supersedes eval-science-v2."
)
SEED = 3_000_501
COUNT = 120
CREATED = "2026-12-01"
DEFAULT_SCORER = "numeric"
FAMILIES = {
    "kinematics": kinematics,
    "circuits": circuits,
    "gas_laws": gases,
    "stoichiometry": stoich,
    "energy": energy,
}
CATEGORIES = tuple(FAMILIES)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: its family builds the item, redrawing until traps and options are clear."""
    category, level, turn = plan.family_cell(FAMILIES, idx)
    name, scorer = plan.family_form(FAMILIES, idx)
    slot = plan.family_slots(FAMILIES, COUNT, lib.row_rng(SEED, -1)).get(idx)
    build = FAMILIES[category].BUILD[name]
    item = redraw(lambda: build(rng, level, slot, turn), f"row {idx} {name}")
    assert item["scorer"] == scorer, (idx, name)
    return plan.item_row(f"sci3-{idx + 1:04d}", category, level, item, "the answer")


def prove(row: dict[str, Any]) -> None:
    """Re-derive the answer with the proof of the row's family and kind."""
    FAMILIES[row["category"]].PROVE[row["meta"]["kind"]](row)


def prove_all(rows: list[dict[str, Any]]) -> None:
    v2.check_suite(rows, CATEGORIES)
    plan.check_balance_and_duplicates(rows)
    for reactants, products in REACTIONS + EXTRA_REACTIONS:  # balanced atom by atom
        totals: list[dict[str, int]] = [{}, {}]
        for side, terms in enumerate((reactants, products)):
            for c, f, _ in terms:
                for sym, n in stoich.atoms(f).items():
                    totals[side][sym] = totals[side].get(sym, 0) + c * n
        assert totals[0] == totals[1], (reactants, products)


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
