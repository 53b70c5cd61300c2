# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-security-v3: defensive security with computed answers, without the -v2 shortcuts.

Issue 13 found that eval-security-v2 could be passed without solving it: the compromised
account was always "deploy", Vigenere keys were prefixes of the plaintext, the vulnerable
snippet was the one block that was not a recurring safe decoy (a keyword rule named its class),
and the "should NOT be taken" options were absurd. This version composes five task families,
each in its own module with its own proof:

* ``ciphers`` - Caesar, Vigenere (random-letter keys) and XOR; proof re-runs the ciphers;
* ``cidr`` - IPv4 arithmetic on private ranges; proof uses ``ipaddress``;
* ``vulns`` (templates in ``families.security.snippets``) - one flawed handler among safe handlers
  of other classes and minimal safe/unsafe pairs; proof executes the module against mocked sinks;
* ``logs`` - sshd and web logs, compromised account drawn from every account; proof parses
  the log back from the prompt;
* ``incident`` - which action must not be taken yet in a stated response state, and the
  lifecycle order; proof replays the scenario table.

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
from families.security import cidr, ciphers, incident, logs, vulns

DATASET_ID = "eval-security-v3"
KIND = "eval"
DESCRIPTION = (
    "Defensive security with computed answers: toy ciphers, CIDR arithmetic, finding the one "
    "flawed handler among safe look-alikes (proven by running it against mocked sinks), log "
    "forensics and incident-response decisions; mc letters balanced exactly; supersedes "
    "eval-security-v2."
)
SEED = 3_000_701
COUNT = 120
CREATED = "2026-12-01"
DEFAULT_SCORER = "mc"
FAMILIES = (ciphers, cidr, vulns, logs, incident)
LETTERS = suite.gold_letters(SEED, FAMILIES, COUNT)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: the family cycles fastest, then the difficulty, then the question form."""
    return suite.build_row(rng, f"sec3-{idx + 1:04d}", FAMILIES, idx, LETTERS)


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
