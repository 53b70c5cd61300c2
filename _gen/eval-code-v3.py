# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-code-v3: write one Python function, scored ``code_exec``; every row proves its hidden
tests strong enough (issue 19: mutation testing as EvalPlus applied it to HumanEval).

In eval-code-v2 plausible wrong solutions passed every hidden test: taking the prompt's example
out of the tests had left only edge cases in some families (code2-0053: no hidden matrix had an
interior, so summing the whole matrix passed; code2-0019: no range held 2; code2-0062: no even
cycle and no odd cycle longer than 3; code2-0016: no date before 1582; code2-0041: no non-ASCII
letter). Here the same 72 families (eight categories of nine, three per difficulty) come from
the ``mutants_*`` modules: each adds, per rule its statement states, a plausible wrong solution
(a *mutant*: an edge case skipped, an off-by-one, the whole for the border, a rule ignored) and
hidden inputs that kill it (see ``families.code.mutation``). Every row ships, in ``probes``, its
reference solution and at least three mutants.

As in -v2, one case of every family (case 1, or the one ``EXAMPLE_CASE`` names) is the worked
example shown in the prompt and is never a hidden test; ``tests`` holds one ``assert
<entry>(<literal args>) == <literal>`` per line with plain-JSON expected values, from an oracle
written apart from the reference.

``prove`` runs the reference and every mutant in one isolated interpreter: the reference returns
exactly each expected value and the example's; every mutant fails at least one hidden test
(returns a value that is neither ``==`` the expected one nor the same as JSON, or raises).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.code import (
    assertions,
    mutants_checksums,
    mutants_dates,
    mutants_graph_paths,
    mutants_graphs,
    mutants_grid_search,
    mutants_grids,
    mutants_lists,
    mutants_more_numeric,
    mutants_more_text,
    mutants_numbers,
    mutants_parsing,
    mutants_records,
    mutants_simulations,
    mutants_strings,
)
from families.code.base import difficulty_cycle
from families.code.mutation import MIN_MUTANTS, Family

DATASET_ID = "eval-code-v3"
KIND = "eval"
DESCRIPTION = (
    "Write a Python function from a precise specification: 72 distinct task families in eight "
    "categories; every row ships its reference solution and at least three plausible wrong "
    "solutions (probes.mutants), and its hidden tests cover every rule of the statement, so "
    "each mutant fails one; the worked example is never a hidden test; tests are literal "
    "'assert f(<literals>) == <literal>' lines with plain-JSON expected values; supersedes "
    "eval-code-v2."
)
SEED = 1_000_503
CREATED = "2026-12-01"
DEFAULT_SCORER = "code_exec"
V1_VARIANTS = 5
#: Which case a family shows as its example: case 1, except where -v2 showed another.
EXAMPLE_CASE = {"longest_k_distinct": 2, "max_short_run": 3, "eval_expression": 3}
#: Per category, nine families in the order easy, medium, hard, easy, medium, hard, ...
CATEGORIES: dict[str, list[Family]] = {
    name: difficulty_cycle(families)
    for name, families in {
        "strings": mutants_strings.FAMILIES + mutants_more_text.STRINGS,
        "lists": mutants_lists.FAMILIES + mutants_more_numeric.LISTS,
        "number_theory": mutants_numbers.FAMILIES + mutants_more_numeric.NUMBERS,
        "parsing": mutants_parsing.FAMILIES + mutants_more_text.PARSING,
        "grids": mutants_grids.FAMILIES + mutants_grid_search.FAMILIES,
        "graphs": mutants_graphs.FAMILIES + mutants_graph_paths.FAMILIES,
        "records": mutants_records.FAMILIES + mutants_simulations.FAMILIES,
        "formats": mutants_dates.FAMILIES + mutants_checksums.FAMILIES,
    }.items()
}
#: Row order: round-robin over the categories, so any prefix (a quick run) mixes them all.
FAMILIES: list[Family] = [families[slot] for slot in range(9) for families in CATEGORIES.values()]
COUNT = len(FAMILIES)
PROMPT = (
    "Write a Python function with this signature:\n\n    {signature}\n\n{statement}\n\n"
    "For example, {call} returns {expected!r}.\n\n"
    "Use only the standard library. Reply with the complete function (and any imports it "
    "needs) in a single ```python code block."
)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    family = FAMILIES[idx]
    strong = family(rng, rng.randrange(V1_VARIANTS))  # the -v2 families ignore the variant
    task = strong.task
    call, expected, hidden = assertions.split_cases(task, EXAMPLE_CASE.get(family.__name__, 1))
    prompt = PROMPT.format(
        signature=task.signature, statement=task.statement, call=call, expected=expected
    )
    return {
        "id": f"code3-{idx + 1:04d}",
        "category": task.category,
        "difficulty": task.difficulty,
        "prompt": prompt,
        "answer": task.entry,
        "scorer": DEFAULT_SCORER,
        "tests": "\n".join(f"assert {c} == {e!r}" for c, e in hidden.items()),
        "meta": {
            "family": family.__name__,
            "example": {"call": call, "expected": expected},
            "signature": task.signature,
        },
        "probes": {
            "reference": task.reference,
            "mutants": [{"name": m.name, "code": m.code} for m in strong.mutants],
        },
    }


def prove(row: dict[str, Any]) -> None:
    rid, entry = row["id"], row["answer"]
    cases, shown = assertions.checked_cases(row)
    assert not any(c in row["prompt"] for c, _, _ in cases), f"{rid}: the prompt shows a test"
    reference, mutants = row["probes"]["reference"], row["probes"]["mutants"]
    assert len(mutants) >= MIN_MUTANTS, rid
    for source in [reference, *(m["code"] for m in mutants)]:
        compile(source, rid, "exec")  # a mutant that does not even compile proves nothing
        assert f"def {entry}(" in source, rid
    outcomes = assertions.run([reference, *(m["code"] for m in mutants)], [*cases, shown])
    assert assertions.passes(outcomes[0], [*cases, shown]), f"{rid}: the reference fails"
    for mutant, outcome in zip(mutants, outcomes[1:], strict=True):
        assert outcome is not None, f"{rid}: mutant {mutant['name']!r} does not run"
        hidden = outcome[: len(cases)]
        assert assertions.killed(hidden, cases), f"{rid}: mutant {mutant['name']!r} survives"


def prove_all(rows: list[dict[str, Any]]) -> None:
    assertions.check_layout(rows, len(CATEGORIES))


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
