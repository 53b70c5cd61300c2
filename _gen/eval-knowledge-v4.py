# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-knowledge-v4: eval-knowledge-v3's items, scored as their prompts ask (issue 30; supersedes
eval-knowledge-v3).

What issue 30 found in eval-knowledge-v3, and what v4 does instead:

* an element's name was accepted in one spelling only: "Aluminium", "Caesium" and "Sulfur"
  scored, "Aluminum", "Cesium" and "Sulphur" did not (know3-0011, -0096, -0101). Exact element
  rows accept the symbol and every standard spelling of the name
  (``families.knowledge.elements_v4``), and no mc row offers two spellings of one element;
* the conversions ask to "round to 2 decimal places" but carried ``meta.tolerance`` 0.01, which
  took 453.10 and 453.12 for 453.11 (know3-0103) and 0.36 and 0.38 for 0.37 (know3-0058). They
  carry no tolerance now, so the prompt's rounding is the only rule, and ``meta.exact`` keeps the
  unrounded value: the proof recomputes it from the unit definitions and rounds it half up
  (``families.knowledge.units_v4``). Their near misses add the careless roundings (one unit of
  the last place either side, the value cut off, one place fewer).

Same seed, layout and items as v3 (the category cycles fastest, then the difficulty, then the
form: numeric, exact or choice), so know3-NNNN and know4-NNNN ask the same question and differ
only in what is accepted. Every row carries ``probes`` (``families.knowledge.near_misses``).
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes, v2
from common import mc_plan as plan
from common.plan_stream import plan_rng
from families.knowledge import choice, elements_v4, forms, near_misses, prefix_counts, units_v4

DATASET_ID = "eval-knowledge-v4"
KIND = "eval"
DESCRIPTION = (
    "Derived timeless facts: element arithmetic, Gregorian calendar computations on fixed "
    "historic dates, exact unit chains, SI prefixes of units that exist and Roman numerals; "
    "mixes mc, exact and numeric rows; choice rows are windows of an ordered series or "
    "near-equal quantities with planned letters; element names accepted in every standard "
    "spelling; conversions judged by the rounding the prompt asks for, with no wider "
    "tolerance; rows carry probes; supersedes eval-knowledge-v3."
)
SEED = 3_000_408
COUNT = 120
CREATED = "2026-12-04"
DEFAULT_SCORER = "exact"
CATEGORIES = forms.CATEGORIES
#: v2's numeric and exact forms (variants 0 and 1), elements and units as v4 scores them
OPEN_FORMS = {**forms.BUILDERS, "elements": elements_v4.elements_item, "units": units_v4.units_item}
EXPECTED = {**forms.EXPECTED, **choice.EXPECTED, "convert": units_v4.prove_convert}
ELEMENT_KINDS = ("z_sum", "z_product", "below")  # exact rows answered by an element


def slots() -> dict[int, int]:
    """Planned gold slot of every choice row, dealt from the plan's own stream (row -1). Two
    placeholders after the last category fill the final block of four, so the 30 choice rows
    get the letters 8, 8, 7 and 7 times."""
    mc = [(v2.cell(i, CATEGORIES)[0], i) for i in range(COUNT) if v2.cell(i, CATEGORIES)[2] == 2]
    padded = mc + [("~placeholder", -1), ("~placeholder", -2)]
    return {i: s for i, s in plan.letter_plan(plan_rng(SEED, -1), padded).items() if i >= 0}


def _item(rng: random.Random, idx: int) -> dict[str, Any]:
    category, level, variant = v2.cell(idx, CATEGORIES)
    if variant == 2:
        return choice.BUILD[category](rng, level, slots()[idx])
    if category == "si_prefixes" and variant == 0:
        return probes.exact_integer(prefix_counts.prefix_count(rng, level))
    while True:
        try:
            return probes.exact_integer(OPEN_FORMS[category](rng, level, variant))
        except IndexError:  # v2's hard day count drew the last event, which has no later one
            continue


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: its item (drawn again while a numeric prompt states its own answer), laid
    out as v2 lays rows out, with the probes of its kind."""
    category, level, _ = v2.cell(idx, CATEGORIES)
    item = _item(rng, idx)
    while item["scorer"] == "numeric" and probes.states_gold(
        item["question"], item["answer"], item["meta"]
    ):
        item = _item(rng, idx)
    row = plan.item_row(f"know4-{idx + 1:04d}", category, level, item, "the answer")
    return probes.with_probes(row, _prove_answer, _slips)


def _slips(row: dict[str, Any]) -> tuple[list[Any], list[str]]:
    """v3's slips of the row's kind, and for a conversion the careless roundings too."""
    wrong, spellings = near_misses.slips(row)
    if row["meta"]["kind"] == "convert":
        wrong += units_v4.rounding_slips(row["meta"], Fraction(row["answer"]))
    return wrong, spellings


def _prove_answer(row: dict[str, Any]) -> None:
    expected = EXPECTED[row["meta"]["kind"]](row)
    if row["scorer"] == "mc":
        assert plan.gold_text(row) == expected, (row["id"], expected)
    elif row["scorer"] == "exact":
        accepted = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
        assert accepted[0] == expected, (row["id"], row["answer"], expected)
        if row["meta"]["kind"] in ELEMENT_KINDS:  # every spelling of the element's name
            assert accepted == elements_v4.accepted(elements_v4.element_of(expected)), row["id"]
    else:
        assert Fraction(row["answer"]) == Fraction(expected), (row["id"], row["answer"], expected)


def prove(row: dict[str, Any]) -> None:
    """The answer re-derived by the kind's proof, units that exist, no numeric prompt stating
    its answer, and every option judged by the same proof as the generator."""
    _prove_answer(row)
    if row["meta"]["kind"] == "prefix_count":
        prefix_counts.check_unit(row)
    if row["scorer"] == "numeric":  # a tolerance, or the rounding the prompt asks for
        rounded = row["meta"]["kind"] == "convert"
        assert ("tolerance" in row["meta"]) != rounded, row["id"]
        assert not rounded or row["answer"] == units_v4.prove_convert(row), row["id"]
        assert not probes.states_gold(row["prompt"], row["answer"], row["meta"]), row["id"]
    if row["scorer"] == "mc":
        assert row["probes"]["option_ok"] == probes.verdicts(row, _prove_answer), row["id"]


def option_verdicts(row: dict[str, Any]) -> list[bool]:
    """The audit's uniqueness hook (``stages/datasets/uniqueness.py``): each option of an mc row
    judged by the row's proof with its letter put in, from what the row states (no gold)."""
    return probes.verdicts(row, _prove_answer)


def prove_all(rows: list[dict[str, Any]]) -> None:
    v2.check_suite(rows, CATEGORIES)
    mc = [r for r in rows if r["scorer"] == "mc"]
    counts = sorted(sum(r["answer"] == x for r in mc) for x in plan.LETTERS)
    assert counts == [7, 7, 8, 8], counts
    for row in (r for r in mc if r["category"] == "elements"):  # no two spellings of one element
        assert len({elements_v4.element_of(c) for c in row["choices"]}) == 4, row["id"]
    seen: dict[tuple[str, tuple[str, ...]], str] = {}
    for row in rows:
        key = plan.item_key(row)
        assert key not in seen, f"duplicate item: rows {seen[key]} and {row['id']}"
        seen[key] = row["id"]


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
