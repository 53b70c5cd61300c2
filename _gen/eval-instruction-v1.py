# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-instruction-v1: verifiable formatting instructions, scored ``instruction`` (spec 001,
"The instruction rule DSL").

Each row asks for a short text about an everyday object under 1-5 rules. The generator first
writes a compliant text (``meta.example_pass``) with the structure the rules will demand
(paragraphs, bullets, lines, JSON keys, case, phrases), derives the numeric bounds from it, and
``prove`` checks it with the normative ``families/instruction/rules.py``, shipped as ``rules.py``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.instruction import compose

DATASET_ID = "eval-instruction-v1"
KIND = "eval"
DESCRIPTION = "Verifiable formatting instructions (length, structure, case, keywords, JSON)."
SEED = 1_000_401
COUNT = 150
CREATED = "2026-11-29"
DEFAULT_SCORER = "instruction"


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    return compose.build_row(rng, idx, f"instr-{idx + 1:04d}", DEFAULT_SCORER)


def prove(row: dict[str, Any]) -> None:
    """The example passes every rule, and its structure is what the builder intended."""
    compose.check_example(row)


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
