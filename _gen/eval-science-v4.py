# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-science-v4: eval-science-v3 with every assumption an answer relies on stated in the row,
and probes for the audits (issue 19; supersedes eval-science-v3).

What v3 left unstated, and what v4 states (``families.science.stated``):

* the easy kettle (sci3-0065) assumed all of its electrical energy heats the water, where its
  siblings give 70-90 %: every kettle now states its share (``energy_stated``);
* the Boyle's-law rows (a syringe, a rising bubble, a rising and warming bubble) assumed an ideal
  gas, which every other gas-law row states: they now say "Treat the air as an ideal gas"
  (``gases_stated``);
* the terminal-voltage row assumed wires without resistance, which every other resistor row
  states: it now says so (``circuits_stated``).

Four choice forms gave their gold away to the audit's learned answer-free baseline (+11.1 points
over chance on the committed mc rows, +8.8 pooled over fresh instances): a 48 V battery nearly
always held the most energy, the farthest launch was the median speed, heavy gases were the gold
beyond their share and a pressure factor starting "1." was right more often than its options.
Their v4 builders (``families.science.priors_v4``) draw what the answer depends on first; and the
gold letters are one shuffle of nine of each over all 36 mc rows (``mc_plan.shuffled_slots``), not
blocks of four per family, whose leftovers the audit's out-of-fold priors read. Layout, numeric
rounding and tolerances are v3's.

Every row carries ``probes`` (``families.science.near_misses``): trap values and decimal slips for
numeric rows, swapped rankings and unbalanced coefficients for exact rows, the other options for
mc rows with each option judged by the row's proof. No numeric prompt states a number equal to its
answer (an average speed can come out equal to a stated speed).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes, v2
from common import mc_plan as plan
from common.plan_stream import plan_rng
from families.science import (
    circuits_stated,
    energy_stated,
    gases_stated,
    kinematics_v4,
    near_misses,
    stoich,
)
from families.science.base import redraw
from families.science.chem import EXTRA_REACTIONS, REACTIONS

DATASET_ID = "eval-science-v4"
KIND = "eval"
DESCRIPTION = (
    "Applied physics and chemistry (kinematics, circuits, gas laws, stoichiometry, energy) with "
    "every constant and every assumption (efficiency, ideal gas, ideal wires) given in the "
    "prompt; numeric answers to 3 significant figures with a 1 % relative tolerance, mc rows "
    "with planned balanced letters and near-miss options, and exact rankings, balanced "
    "equations and empirical formulas; rows carry probes; supersedes eval-science-v3."
)
SEED = 4_000_501
COUNT = 120
CREATED = "2026-12-02"
DEFAULT_SCORER = "numeric"
FAMILIES = {
    "kinematics": kinematics_v4,
    "circuits": circuits_stated,
    "gas_laws": gases_stated,
    "stoichiometry": stoich,
    "energy": energy_stated,
}
CATEGORIES = tuple(FAMILIES)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: its family builds the item, redrawing until traps and options are clear; the
    finished row gets the probes of its answer form."""
    category, level, turn = plan.family_cell(FAMILIES, idx)
    name, scorer = plan.family_form(FAMILIES, idx)
    slot = plan.shuffled_slots(FAMILIES, COUNT, plan_rng(SEED, -1)).get(idx)
    build = FAMILIES[category].BUILD[name]
    item = redraw(lambda: _no_echo(build(rng, level, slot, turn)), f"row {idx} {name}")
    assert item["scorer"] == scorer, (idx, name)
    row = plan.item_row(f"sci4-{idx + 1:04d}", category, level, item, "the answer")
    return probes.with_probes(row, _prove_answer, near_misses.slips)


def _no_echo(item: dict[str, Any] | None) -> dict[str, Any] | None:
    """None (draw again) for a numeric item whose prompt states a number equal to its answer:
    sent back with that number on its answer line, the prompt would score."""
    if item is None or item["scorer"] != "numeric":
        return item
    return None if probes.states_gold(item["question"], item["answer"], item["meta"]) else item


def _prove_answer(row: dict[str, Any]) -> None:
    """Re-derive the answer with the proof of the row's family and kind."""
    FAMILIES[row["category"]].PROVE[row["meta"]["kind"]](row)


def prove(row: dict[str, Any]) -> None:
    """The answer re-derived, no numeric prompt stating its answer, and every mc option judged
    by the same proof as the generator."""
    _prove_answer(row)
    if row["scorer"] == "numeric":
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
