# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-reasoning-v4: eval-reasoning-v3's deduction puzzles without the shortcuts and spelling
rejections issue 19 found, every row with its probes.

What issue 19 found in eval-reasoning-v3, and what this version does instead:

* "complete finishing order": the right order was the option agreeing most, place by place,
  with the others (5 of 6 rows: reason3-0026, -0032, -0128, -0134, -0140); ``order_v4`` draws
  wrong orders that leave it at chance under place, neighbour and first/last agreement;
* the typed syllogism rows rejected the statements' own labels, "(1), (2), (5)" (all 12 rows,
  e.g. reason3-0058); ``syllogism_v4`` accepts them;
* typed routes rejected "→" and en-dash separators (reason3-0126); ``paths_v4`` accepts them;
* reason3-0116's prompt ended on its own gold number, so sending the prompt back scored; every
  numeric row here is drawn again until its prompt's last number is not the gold
  (``common.probes.echo_safe``).

The other families (``grid``, ``knights``, ``schedule``) are v3's. Every row carries ``probes``
(``common.probes``): mc rows the other options as near misses, the gold's text as an alternative
and each option judged by its family's proof; open rows their family's slips (``slips`` for v3's
families, ``slips`` of each -v4 module). Same layout as v3 (``common.suite``: 24 rows per
family, every level x form once, mc letters A-D three times each per family), new seed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes, suite
from families.reasoning import grid, knights, order_v4, paths_v4, schedule, slips, syllogism_v4

DATASET_ID = "eval-reasoning-v4"
KIND = "eval"
DESCRIPTION = (
    "Brute-force-verified deduction: logic grids, finishing orders, knights and knaves, "
    "syllogisms, scheduling and shortest paths, each with a unique solution; wrong orders that "
    "do not point at the right one, label and arrow spellings accepted, no echo-scoring prompt, "
    "near misses and alternatives per row; supersedes eval-reasoning-v3."
)
SEED = 4_000_301
COUNT = 144
CREATED = "2026-12-01"
DEFAULT_SCORER = "mc"
FAMILIES = (grid, order_v4, knights, syllogism_v4, schedule, paths_v4)
SLIPS = {
    grid.CATEGORY: slips.grid,
    order_v4.CATEGORY: order_v4.slips,
    knights.CATEGORY: slips.knights,
    syllogism_v4.CATEGORY: syllogism_v4.slips,
    schedule.CATEGORY: slips.scheduling,
    paths_v4.CATEGORY: paths_v4.slips,
}
LETTERS = suite.gold_letters(SEED, FAMILIES, COUNT)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: the family cycles fastest, then the difficulty, then the question form."""
    return probes.suite_row(rng, f"reason4-{idx + 1:04d}", FAMILIES, idx, LETTERS, SLIPS)


def prove(row: dict[str, Any]) -> None:
    suite.prove_row(row, FAMILIES)
    assert probes.echo_safe(row), row["id"]


def option_verdicts(row: dict[str, Any]) -> list[bool] | None:
    """Each option judged by its family's proof (the check's uniqueness hook)."""
    (family,) = [f for f in FAMILIES if row["category"] == f.CATEGORY]
    return probes.verdicts(row, family.prove) if row.get("choices") else None


def prove_all(rows: list[dict[str, Any]]) -> None:
    suite.check_suite(rows, FAMILIES)


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
