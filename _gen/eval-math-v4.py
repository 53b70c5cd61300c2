# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-math-v4: eval-math-v1's arithmetic suite with no prompt a model can echo to a right
answer, and probes for the audits (issue 19; supersedes eval-math-v1).

In v1 the flexible reading (the last number of a reply without an answer line) took the prompt
sent back as right on math-0006 ("Compute 1/2 * 4/8 - 1/8": the gold is 1/8), math-0012 and
math-0066: the prompt's last number was the gold. v4 draws every row from v1's builders
(``families.math.arithmetic``: same categories, levels, layout and size) and draws it again while
its prompt states any number the row accepts (``probes.states_gold``), so neither an echo nor a
filled answer-line template can score. Each row carries ``probes``: the value a careless solver
gets by ignoring precedence or brackets, and the integer gold's neighbours.
"""

from __future__ import annotations

import random
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes
from families.math import arithmetic

DATASET_ID = "eval-math-v4"
KIND = "eval"
DESCRIPTION = (
    "Arithmetic, fractions, percentages and word problems (eval-math-v1's suite) drawn so that "
    "no prompt states its own answer; rows carry probes; supersedes eval-math-v1."
)
SEED = 4_000_101
COUNT = 180
CREATED = "2026-12-02"
DEFAULT_SCORER = "numeric"
#: A v1 easy fractions expression, ``n/a + m/b``.
_SUM = re.compile(r"(\d+)/(\d+) \+ (\d+)/(\d+)")
CATEGORIES = arithmetic.CATEGORIES
DIFFICULTIES = arithmetic.DIFFICULTIES


def _careless(expr: str) -> list[Fraction]:
    """What a solver gets who drops the brackets, or who works strictly left to right."""
    out = []
    flat = expr.replace("(", "").replace(")", "")
    if flat != expr:
        out.append(arithmetic.evaluate(flat))
    tokens = flat.split()
    if len(tokens) >= 3 and all(t in "+-*/" for t in tokens[1::2]):
        value = arithmetic.evaluate(tokens[0])
        for op, operand in zip(tokens[1::2], tokens[2::2], strict=True):
            value = arithmetic.evaluate(f"({arithmetic.fmt(value)}) {op} {operand}")
        out.append(value)
    return out


def _across(expr: str) -> list[Fraction]:
    """``n/a + m/b`` worked as ``(n + m)/(a + b)``: numerators and denominators added across."""
    match = _SUM.fullmatch(expr)
    if not match:
        return []
    n, a, m, b = (int(g) for g in match.groups())
    return [Fraction(n + m, a + b)]


def slips(row: dict[str, Any]) -> tuple[list[Any], list[str]]:
    """Near misses of a row: the careless values, an integer gold's neighbours, a fraction
    gold upside down."""
    expr, gold = row["meta"]["expression"], Fraction(row["answer"])
    wrong: list[Any] = [arithmetic.fmt(v) for v in _careless(expr) + _across(expr)]
    if gold.denominator == 1:
        wrong += probes.off_by_one(row["answer"], None)
    elif gold:
        wrong.append(arithmetic.fmt(1 / gold))
    return wrong, []


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx`` from v1's builders, drawn again from the same ``rng`` while its prompt states
    a number it accepts."""
    while True:
        category, level, prompt, expr, answer = arithmetic.build(rng, idx)
        meta: dict[str, Any] = {"expression": expr}
        if not probes.states_gold(prompt, answer, meta):
            break
    row = {
        "id": f"math4-{idx + 1:04d}",
        "category": category,
        "difficulty": DIFFICULTIES[level],
        "prompt": prompt,
        "answer": answer,
        "scorer": DEFAULT_SCORER,
        "meta": meta,
    }
    return probes.with_probes(row, prove, slips)


def prove(row: dict[str, Any]) -> None:
    """The answer re-evaluated exactly; no number the prompt states is one the row accepts."""
    arithmetic.check_answer(row)
    assert not probes.states_gold(row["prompt"], row["answer"], row["meta"]), row["id"]
    assert probes.echo_safe(row), row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    arithmetic.check_suite(rows)


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
