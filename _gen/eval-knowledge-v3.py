# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-knowledge-v3: eval-knowledge-v2's derived timeless facts without its meaningless units or
answer-free choice rows, with probes for the audits (issue 19; supersedes eval-knowledge-v2).

What v2 got wrong, and what v3 does instead:

* "square gigagrams in 82 square teragrams" (know2-0104, and fresh instances alike): prefix
  counts square and cube only the metre, with prefixes of real areas and volumes, and stop at
  pico and tera (``families.knowledge.prefix_counts``);
* choice rows an option-only rule passed (the middle of three consecutive dates, the longest
  text as the longest length, the numeral sharing most characters with the others) and gold
  letters A 9 of 30: every choice row is a window of an ordered series or a set of near-equal
  quantities (``families.knowledge.choice``), letters planned for the dataset (8, 8, 7, 7: 30
  rows cannot split evenly);
* every numeric prompt is checked not to state its own answer (the echo audit), and integer
  answers are scored exactly (``meta.tolerance`` 0; the default 1e-6 relative accepted 1296401
  centimetres for 1296400).

The numeric and exact forms are v2's (``families.knowledge``: elements, calendar, units, SI
prefixes, Roman numerals), with v2's layout: the category cycles fastest, then the difficulty,
then the form (numeric, exact or choice). Every row carries ``probes``
(``families.knowledge.near_misses``).
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
from families.knowledge import choice, forms, near_misses, prefix_counts

DATASET_ID = "eval-knowledge-v3"
KIND = "eval"
DESCRIPTION = (
    "Derived timeless facts: element arithmetic, Gregorian calendar computations on fixed "
    "historic dates, exact unit chains, SI prefixes of units that exist and Roman numerals; "
    "mixes mc, exact and numeric rows; choice rows are windows of an ordered series or "
    "near-equal quantities with planned letters; rows carry probes; supersedes "
    "eval-knowledge-v2."
)
SEED = 3_000_408
COUNT = 120
CREATED = "2026-12-02"
DEFAULT_SCORER = "exact"
CATEGORIES = forms.CATEGORIES
OPEN_FORMS = forms.BUILDERS  # v2's numeric and exact forms (variants 0 and 1)
EXPECTED = {**forms.EXPECTED, **choice.EXPECTED}


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
    row = plan.item_row(f"know3-{idx + 1:04d}", category, level, item, "the answer")
    return probes.with_probes(row, _prove_answer, near_misses.slips)


def _prove_answer(row: dict[str, Any]) -> None:
    expected = EXPECTED[row["meta"]["kind"]](row)
    if row["scorer"] == "mc":
        assert plan.gold_text(row) == expected, (row["id"], expected)
    elif row["scorer"] == "exact":
        accepted = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
        assert accepted[0] == expected, (row["id"], row["answer"], expected)
    else:
        assert Fraction(row["answer"]) == Fraction(expected), (row["id"], row["answer"], expected)


def prove(row: dict[str, Any]) -> None:
    """The answer re-derived by the kind's proof, units that exist, no numeric prompt stating
    its answer, and every option judged by the same proof as the generator."""
    _prove_answer(row)
    if row["meta"]["kind"] == "prefix_count":
        prefix_counts.check_unit(row)
    if row["scorer"] == "numeric":
        assert "tolerance" in row["meta"], row["id"]
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
