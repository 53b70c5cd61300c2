# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-reasoning-v5: eval-reasoning-v4 with scheduling tasks named by words, so no option
text reads like an option label (issue 30; supersedes eval-reasoning-v4).

In eval-reasoning-v4 the scheduling tasks were A, B, C, ..., and its slack and critical-task
choice rows (reason4-0023, -0029, -0035, -0059, -0065, -0071) offered "Task A", "Task E", ...:
in reason4-0071 the right option C reads "Task A", so a model that answers "A" meaning Task A is
scored wrong, and one meaning option A may be scored right for the wrong task. ``schedule_v5``
names each project's tasks by five-letter words drawn per row, everywhere in the row (task
lines, prerequisites, questions, options), and opens the prompt "This project"; its proof
checks that no project row shows a standalone capital A-H outside its option labels. Named
tasks also showed what v4's slack and critical options gave away to a reader who does not solve
the project (the longest or shortest task was the gold in 5 of those 6 rows, the fewest or most
dependents and the last or first listed well above chance in fresh instances): those rows now
choose their options so that each such pick singles out the gold in a quarter of the rows.

The other families (``grid``, ``order_v4``, ``knights``, ``syllogism_v4``, ``paths_v4``) are v4's,
and so are the layout (``common.suite``: 24 rows per family, every level x form once, mc letters
A-D three times each per family) and the seed: reason4-NNNN and reason5-NNNN are the same cell,
the length and start projects are v4's renamed, and every row outside scheduling is v4's row
with a new id. Every row carries ``probes`` (``common.probes``) as in v4.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes, suite
from families.reasoning import grid, knights, order_v4, paths_v4, schedule_v5, slips, syllogism_v4

DATASET_ID = "eval-reasoning-v5"
KIND = "eval"
DESCRIPTION = (
    "Brute-force-verified deduction: logic grids, finishing orders, knights and knaves, "
    "syllogisms, scheduling and shortest paths, each with a unique solution; wrong orders that "
    "do not point at the right one, label and arrow spellings accepted, no echo-scoring prompt, "
    "near misses and alternatives per row; scheduling tasks named by words, so no option reads "
    "like an option letter, and no blind pick (longest task, most dependents, first listed) "
    "points at the gold beyond chance; supersedes eval-reasoning-v4."
)
SEED = 4_000_301  # v4's: the same cells, projects and other rows
COUNT = 144
CREATED = "2026-12-04"
DEFAULT_SCORER = "mc"
FAMILIES = (grid, order_v4, knights, syllogism_v4, schedule_v5, paths_v4)
SLIPS = {
    grid.CATEGORY: slips.grid,
    order_v4.CATEGORY: order_v4.slips,
    knights.CATEGORY: slips.knights,
    syllogism_v4.CATEGORY: syllogism_v4.slips,
    schedule_v5.CATEGORY: slips.scheduling,
    paths_v4.CATEGORY: paths_v4.slips,
}
LETTERS = suite.gold_letters(SEED, FAMILIES, COUNT)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: the family cycles fastest, then the difficulty, then the question form."""
    return probes.suite_row(rng, f"reason5-{idx + 1:04d}", FAMILIES, idx, LETTERS, SLIPS)


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
