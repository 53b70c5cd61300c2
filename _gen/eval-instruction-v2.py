# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-instruction-v2: eval-instruction-v1's verifiable formatting instructions with no row a
model passes by sending the prompt back, and probes for the audits (issue 19; supersedes
eval-instruction-v1). Scored ``instruction`` (spec 001, "The instruction rule DSL").

In v1 the prompt, echoed once or twice, satisfied every rule of 14 of its 300 echoes (instr-0008,
-0019, -0025, -0037, -0043, ...): rules such as a word range, a forbidden word or no capitals can
all hold of the instruction text itself. v2 builds every row as v1 does
(``families.instruction.compose``: same rule families, layouts, difficulties and size) and draws
it again while the row's own scorer (``rules.evaluate``, shipped as ``rules.py``) accepts either
echo (``families.instruction.replies``). Each row's ``probes`` hold the compliant example as an
alternative and, as near misses, careless versions of it that the scorer rejects (a chatty
preamble or sign-off, one unit short, a comma, a forbidden word, the case flipped).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes
from families.instruction import compose, replies

DATASET_ID = "eval-instruction-v2"
KIND = "eval"
DESCRIPTION = (
    "Verifiable formatting instructions (length, structure, case, keywords, JSON), drawn so "
    "that no echo of the prompt passes; rows carry probes; supersedes eval-instruction-v1."
)
SEED = 2_000_401
COUNT = 150
CREATED = "2026-12-02"
DEFAULT_SCORER = "instruction"


def _echo_passes(row: dict[str, Any]) -> bool:
    return any(replies.verdict(row, echo) for echo in replies.echoes(row["prompt"]))


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx`` as v1 builds it, drawn again from the same ``rng`` while an echo of its
    prompt passes its scorer or no careless reply fails it."""
    while True:
        row = compose.build_row(rng, idx, f"instr2-{idx + 1:04d}", DEFAULT_SCORER)
        misses = replies.careless(row)
        if misses and not _echo_passes(row):
            break
    return probes.attach(
        row, {"near_misses": misses, "alternatives": [row["meta"]["example_pass"]]}
    )


def prove(row: dict[str, Any]) -> None:
    """v1's proof of the example; each echo and each near miss fails the row's scorer."""
    compose.check_example(row)
    assert not _echo_passes(row), row["id"]
    assert not any(replies.verdict(row, m) for m in row["probes"]["near_misses"]), row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    compose.check_suite(rows)


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
        extra_files=compose.shipped_checker,
        argv=argv,
    )


if __name__ == "__main__":
    main()
