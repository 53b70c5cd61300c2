# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-instruction-v3: verifiable formatting instructions whose rules check what their
sentences say (issue 30; supersedes eval-instruction-v2). Scored ``instruction`` by the
dataset's own ``rules.py`` (``families.instruction.rules_v3``).

On -v2 a reply that broke one instruction passed on 15 of 20 sampled rows: bullets marked "* ",
"• " or "1." where the prompt asks for "- ", the P.S. at the top, blank lines between lines, a
JSON value that is a list or null, a forbidden word as "sea's", "sea-going" or "seas", an extra
sentence ending in "…", "[ ]" as a placeholder, the title as the last line; and faithful
replies failed ("e.g." and "St." cut a sentence in two, '."' ended none, "aqueduct's" was not
the keyword). v3 keeps -v1's families, layouts and size (``compose_v3``) under ``rules_v3``.
Every row proves, for each of its rules, a broken twin of its example that fails that rule and
no other (``twins_v3``; the issue's kinds wherever the row asks the rule), stored as
``probes.near_misses`` with ``meta.broken`` naming each one's rule and kind; and faithful
variants of the example (``faithful_v3``) as ``probes.alternatives``, named in
``meta.faithful``. As in -v2, a row is drawn again while its prompt sent back passes.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes
from families.instruction import compose_v3, faithful_v3, rules_v3, twins_v3

DATASET_ID = "eval-instruction-v3"
KIND = "eval"
DESCRIPTION = (
    "Verifiable formatting instructions (length, structure, case, keywords, JSON) whose rules "
    "check what each sentence says: list markers, the place of a title or postscript, blank "
    "lines, JSON value types, word forms, sentence ends and abbreviations; every rule of every "
    "row has a broken twin its scorer rejects; supersedes eval-instruction-v2."
)
SEED = 2_000_402
COUNT = 150
CREATED = "2026-12-05"
DEFAULT_SCORER = "instruction"


def _passes(row: dict[str, Any], text: str) -> bool:
    return rules_v3.evaluate(row["answer"], text)[0]


def _echo_passes(row: dict[str, Any]) -> bool:
    prompt = row["prompt"]
    return any(_passes(row, echo) for echo in (prompt, f"{prompt}\n\n{prompt}"))


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx`` in -v1's layout, drawn again from the same ``rng`` while an echo of its
    prompt passes or a rule lacks one of the broken twins or faithful variants it needs."""
    while True:
        row = compose_v3.build_row(rng, idx, f"instr3-{idx + 1:04d}", DEFAULT_SCORER)
        if _echo_passes(row):
            continue
        broken = twins_v3.twins(row, rng)
        faithful = faithful_v3.variants(row, rng)
        if not twins_v3.missing(row, broken) and not faithful_v3.missing(row, faithful):
            break
    row["meta"]["broken"] = [{"rule": i, "kind": kind} for i, kind, _ in broken]
    row["meta"]["faithful"] = [kind for kind, _ in faithful]
    return probes.attach(
        row,
        {"near_misses": [t for *_, t in broken], "alternatives": [t for _, t in faithful]},
    )


def prove(row: dict[str, Any]) -> None:
    """The example's units are the builder's; each near miss fails exactly the rule
    ``meta.broken`` names; every rule has its twins; every alternative passes; no echo passes."""
    compose_v3.check_example(row)
    rules = row["answer"]["all"]
    broken = row["meta"]["broken"]
    assert len(broken) == len(row["probes"]["near_misses"]), row["id"]
    for label, text in zip(broken, row["probes"]["near_misses"], strict=True):
        assert rules_v3.evaluate(row["answer"], text) == (False, [rules[label["rule"]]]), label
    found = [(b["rule"], b["kind"], "") for b in broken]
    assert not twins_v3.missing(row, found), (row["id"], twins_v3.missing(row, found))
    faithful = list(zip(row["meta"]["faithful"], row["probes"]["alternatives"], strict=True))
    assert faithful[0] == ("example", row["meta"]["example_pass"]), row["id"]
    assert all(_passes(row, text) for _, text in faithful), row["id"]
    assert not faithful_v3.missing(row, faithful), row["id"]
    assert not _echo_passes(row), row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    compose_v3.check_suite(rows)


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
        extra_files=compose_v3.shipped_checker,
        argv=argv,
    )


if __name__ == "__main__":
    main()
