# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-code-v1: write one Python function, scored ``code_exec`` (spec 001 row schema).

24 task families (strings, lists, number theory, parsing; two easy, two medium, two hard
each) in 5 parameter variants each, from the ``_code_*.py`` modules. ``answer`` is the entry-point
name and ``tests`` are assert statements whose expected values come from an independent oracle.
``prove`` executes ``meta.reference_solution`` against the tests in an isolated interpreter
(``python -I -S``, time limit) and requires a pass, then requires ``meta.wrong_solution`` to fail.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.code import base, lists, numbers, parsing, strings

DATASET_ID = "eval-code-v1"
KIND = "eval"
DESCRIPTION = "Write a Python function from a precise specification; hidden assert tests."
SEED = 1_000_501
VARIANTS = 5
FAMILIES: list[base.Family] = (
    strings.FAMILIES + lists.FAMILIES + numbers.FAMILIES + parsing.FAMILIES
)
COUNT = len(FAMILIES) * VARIANTS
CREATED = "2026-11-29"
DEFAULT_SCORER = "code_exec"
TIMEOUT_S = 20


def _tests(entry: str, cases: list[tuple[tuple[Any, ...], Any]]) -> str:
    lines = []
    for args, expected in cases:
        lines.append(f"assert {entry}({', '.join(repr(a) for a in args)}) == {expected!r}")
    return "\n".join(lines)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    task = FAMILIES[idx % len(FAMILIES)](rng, idx // len(FAMILIES))
    args, expected = task.cases[1]
    example = f"{task.entry}({', '.join(repr(a) for a in args)}) returns {expected!r}"
    prompt = (
        f"Write a Python function with this signature:\n\n    {task.signature}\n\n"
        f"{task.statement}\n\nFor example, {example}.\n\n"
        "Use only the standard library. Reply with the complete function (and any imports it "
        "needs) in a single ```python code block."
    )
    return {
        "id": f"code-{idx + 1:04d}",
        "category": task.category,
        "difficulty": task.difficulty,
        "prompt": prompt,
        "answer": task.entry,
        "scorer": DEFAULT_SCORER,
        "tests": _tests(task.entry, task.cases),
        "meta": {
            "reference_solution": task.reference,
            "wrong_solution": task.wrong,
            "signature": task.signature,
        },
    }


def passes(solution: str, tests: str) -> bool:
    """Whether ``solution`` followed by ``tests`` runs cleanly in a fresh isolated interpreter."""
    try:
        proc = subprocess.run(
            [sys.executable, "-I", "-S", "-c", f"{solution}\n\n{tests}\n"],
            capture_output=True,
            timeout=TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return False
    return proc.returncode == 0


def prove(row: dict[str, Any]) -> None:
    meta = row["meta"]
    assert f"def {row['answer']}(" in meta["reference_solution"], row["id"]
    assert passes(meta["reference_solution"], row["tests"]), f"{row['id']}: reference fails"
    assert not passes(meta["wrong_solution"], row["tests"]), f"{row['id']}: wrong one passes"


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    cells = {(r["category"], r["difficulty"]) for r in rows}
    assert len(cells) == 4 * 3, cells


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
