# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-security-v4: eval-security-v3's defensive-security tasks without the shortcuts issue 19
found, every row with its probes.

What issue 19 found in eval-security-v3, and what this version does instead:

* hard vulnerability rows added a safe handler of the flawed class, so the one class shown twice
  was the answer (sec3-0013, -0073) and the search halved (sec3-0028, -0043, -0058, -0088,
  -0103, -0118): ``vulns_v4`` gives every handler a class of its own (all six on hard rows);
* in "must NOT be taken yet / can safely take now" rows the late, irreversible action won about
  96 % (sec3-0005 ... -0120): ``incident_v4`` gives early actions prerequisites too and plans
  where the gold's stage stands among the options;
* lifecycle orders put "find the entry point" before containment (sec3-0040, -0045; contestable
  in -0025, -0030, -0060, -0085, -0090): ``incident_v4`` states the team's plan, containment
  first, and lists only steps whose stage that plan makes plain; its wrong orders are not the
  options' centroid;
* typed orders rejected "→" and en-dash separators (sec3-0080): they are accepted;
* sec3-0018 and sec3-0104 ended on their own gold number, so sending the prompt back scored:
  numeric rows are drawn again until their prompt's last number is not the gold.

``cidr`` and ``logs`` are v3's; ``ciphers_v4`` is v3's ciphers with mc options whose right
one is not the options' centre (pooled with fresh instances, v3's slips of the right answer made
it the option most like the others). Every row carries ``probes`` (``common.probes``): mc rows
the other options as near misses, the gold's text as an alternative and each option
judged by its family's proof; open rows their family's slips (``slips`` for v3's families, the
``slips`` of each -v4 module). Same layout as v3 (``common.suite``: 24 rows per family, every
level x form once, mc letters A-D three times each per family), new seed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes, suite
from families.security import cidr, ciphers_v4, incident_v4, logs, slips, vulns_v4

DATASET_ID = "eval-security-v4"
KIND = "eval"
DESCRIPTION = (
    "Defensive security with computed answers: toy ciphers, CIDR arithmetic, finding the one "
    "flawed handler among safe handlers of other classes (proven by running it against mocked "
    "sinks), log forensics and incident-response decisions whose answer no stage or "
    "irreversibility rule finds; near misses and alternatives per row; supersedes "
    "eval-security-v3."
)
SEED = 4_000_701
COUNT = 120
CREATED = "2026-12-01"
DEFAULT_SCORER = "mc"
FAMILIES = (ciphers_v4, cidr, vulns_v4, logs, incident_v4)
SLIPS = {
    ciphers_v4.CATEGORY: slips.toy_ciphers,
    cidr.CATEGORY: slips.cidr,
    vulns_v4.CATEGORY: vulns_v4.slips,
    logs.CATEGORY: slips.log_forensics,
    incident_v4.CATEGORY: incident_v4.slips,
}
LETTERS = suite.gold_letters(SEED, FAMILIES, COUNT)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: the family cycles fastest, then the difficulty, then the question form."""
    return probes.suite_row(rng, f"sec4-{idx + 1:04d}", FAMILIES, idx, LETTERS, SLIPS)


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
