# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-security-v5: eval-security-v4 with log-forensics rows whose answer is the candidate named
on most log lines no more often than a blind pick (issue 30; supersedes eval-security-v4).

Issue 30 found that the "which address/user did X most" rows of eval-security-v4 (sec4-0004,
-0009, -0019, -0024, -0029, -0109, -0114, -0119) were answered by the candidate named on most
lines of the log in 8 of 8 rows, and the breach rows ("which address got in", "which account")
leant the same way: statuses and addresses were drawn uniformly over short logs, so the busiest
candidate in the asked status was the busiest overall. ``logs_v5`` draws each candidate's counted
and uncounted lines apart (legitimate users log in again and again, a client's other statuses,
small error pages) and chooses the gold's rank by lines in the log: dealt over the twelve "which"
mc rows (each rank three times in every instance), and for the exact rows the most-lines
candidate with probability 1/k among the log's k candidates at most.

The other families are v4's (``ciphers_v4``, ``cidr``, ``vulns_v4``, ``incident_v4``), and so are
the layout (``common.suite``: 24 rows per family, every level x form once, mc letters A-D three
times each per family) and the seed, so sec4-NNNN and sec5-NNNN are the same cell and every row
outside log forensics (and the three web numeric rows, v3's builder) is v4's row with a new id.
Under a new seed the unchanged ``vulns_v4`` numeric rows failed the pooled audit (their line
numbers repeat across instances: learned 0.25 vs chance 0.07); v4's seed passes, as v4 did.
Every row carries ``probes`` (``common.probes``) as in v4.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes, suite
from families.security import cidr, ciphers_v4, incident_v4, logs_v5, slips, vulns_v4

DATASET_ID = "eval-security-v5"
KIND = "eval"
DESCRIPTION = (
    "Defensive security with computed answers: toy ciphers, CIDR arithmetic, finding the one "
    "flawed handler among safe handlers of other classes (proven by running it against mocked "
    "sinks), log forensics whose asked address, user or path is the busiest in the log no more "
    "often than a blind pick, and incident-response decisions whose answer no stage or "
    "irreversibility rule finds; near misses and alternatives per row; supersedes "
    "eval-security-v4."
)
SEED = 4_000_701  # v4's: every row outside log forensics is v4's row (logs_v5.PLAN_SEED too)
COUNT = 120
CREATED = "2026-12-04"
DEFAULT_SCORER = "mc"
FAMILIES = (ciphers_v4, cidr, vulns_v4, logs_v5, incident_v4)
SLIPS = {
    ciphers_v4.CATEGORY: slips.toy_ciphers,
    cidr.CATEGORY: slips.cidr,
    vulns_v4.CATEGORY: vulns_v4.slips,
    logs_v5.CATEGORY: slips.log_forensics,
    incident_v4.CATEGORY: incident_v4.slips,
}
LETTERS = suite.gold_letters(SEED, FAMILIES, COUNT)
assert logs_v5.PLAN_SEED == SEED  # the family deals its rank plan from this dataset's stream


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: the family cycles fastest, then the difficulty, then the question form."""
    return probes.suite_row(rng, f"sec5-{idx + 1:04d}", FAMILIES, idx, LETTERS, SLIPS)


def prove(row: dict[str, Any]) -> None:
    suite.prove_row(row, FAMILIES)
    assert probes.echo_safe(row), row["id"]


def option_verdicts(row: dict[str, Any]) -> list[bool] | None:
    """Each option judged by its family's proof (the check's uniqueness hook)."""
    (family,) = [f for f in FAMILIES if row["category"] == f.CATEGORY]
    return probes.verdicts(row, family.prove) if row.get("choices") else None


def prove_all(rows: list[dict[str, Any]]) -> None:
    suite.check_suite(rows, FAMILIES)
    logs_v5.check_plan(rows)


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
