# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-reasoning-v3: deduction puzzles solved by brute force, without the -v1/-v2 shortcuts.

Issue 13 found that eval-reasoning-v1's logic-grid and ordering clues sometimes stated the asked
fact outright (rows 0030, 0044, 0065, 0071, 0092, 0107 leak it) and that its mc letters were
skewed (C gold in 6 of 60); eval-reasoning-v2 avoided stated facts for two clue kinds but its
letters were skewed too (C 11 of 33) and some wrong options stood out (mixed-category grid
statements, shorter routes). This version supersedes both. Six task families, each in its own
module with its own proof:

* ``grid`` - logic grids, solved again house by house;
* ``order`` - finishing orders, every permutation;
* ``knights`` - knights and knaves, every assignment;
* ``syllogism`` - what follows from premises, every Venn model (v1's syllogisms);
* ``schedule`` - project length, slack, critical tasks and meeting slots;
* ``paths`` - shortest routes, Bellman-Ford and a count of shortest routes.

Every puzzle has exactly one solution, and the asked fact never follows from a single clue,
statement or premise (brute force over what that one clue allows). v1's arithmetic families
(sequences, calendar, set counting) live on in eval-math-v2 and eval-knowledge-v2.
``suite`` lays the rows out (24 per family: every level x form once) and gives each family's
twelve mc rows the letters A-D three times each.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, suite
from families.reasoning import grid, knights, order, paths, schedule, syllogism

DATASET_ID = "eval-reasoning-v3"
KIND = "eval"
DESCRIPTION = (
    "Brute-force-verified deduction: logic grids, finishing orders, knights and knaves, "
    "syllogisms, scheduling and shortest paths, each with a unique solution and no single clue "
    "giving the answer away; mc letters balanced exactly; supersedes eval-reasoning-v1 and -v2."
)
SEED = 3_000_301
COUNT = 144
CREATED = "2026-12-01"
DEFAULT_SCORER = "mc"
FAMILIES = (
    grid,
    order,
    knights,
    syllogism,
    schedule,
    paths,
)
LETTERS = suite.gold_letters(SEED, FAMILIES, COUNT)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: the family cycles fastest, then the difficulty, then the question form."""
    return suite.build_row(rng, f"reason3-{idx + 1:04d}", FAMILIES, idx, LETTERS)


def prove(row: dict[str, Any]) -> None:
    suite.prove_row(row, FAMILIES)


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
