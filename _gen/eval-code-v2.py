# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-code-v2: write one Python function, scored ``code_exec`` (spec 001 row schema; issue 13
fixes eval-code-v1).

72 distinct task families, one row each: eight categories of nine (three easy, three medium,
three hard). The 24 families of eval-code-v1 come back once each with a seeded variant; 48 are
new (``more_text``, ``more_numeric``, ``grids`` and ``grid_search``,
``graphs`` and ``graph_paths``, ``records`` and ``simulations``,
``dates`` and ``checksums``). A family draws its parameters and inputs from the row's
own ``random.Random``; its expected values come from an oracle written apart from the reference.

One case of every family (case 1, or the one ``EXAMPLE_CASE`` names) is the worked example
shown in the prompt and is *not* a hidden test; the other cases are. ``tests`` holds one
``assert <entry>(<literal args>) == <literal>`` per line, and every expected value is plain
JSON (int, float, str, bool, None, list, dict with str keys; never a tuple or a set), so a
sandbox may compare results as JSON as well as with ``==``.

``prove`` (see :func:`prove`) re-checks each row: the test lines' shape, the example's absence
from them, and, by executing in an isolated interpreter, that the reference returns exactly each
expected value (as JSON too) and that a plausible wrong solution fails at least one test.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.code import (
    assertions,
    base,
    checksums,
    dates,
    graph_paths,
    graphs,
    grid_search,
    grids,
    lists,
    more_numeric,
    more_text,
    numbers,
    parsing,
    records,
    simulations,
    strings,
)
from families.code.assertions import split_cases

DATASET_ID = "eval-code-v2"
KIND = "eval"
DESCRIPTION = (
    "Write a Python function from a precise specification: 72 distinct task families in eight "
    "categories; the worked example is never a hidden test; tests are one "
    "'assert f(<literals>) == <literal>' per line with plain-JSON expected values (lists, never "
    "tuples or sets; dict keys are strings), so results may be compared as JSON."
)
SEED = 1_000_502
CREATED = "2026-12-01"
DEFAULT_SCORER = "code_exec"
V1_VARIANTS = 5
MAX_DRAWS = 20
#: Which case a family shows as its example: case 1, except for three v1 families whose
#: case 1 is the one fixed input that tells the reference from the wrong solution.
EXAMPLE_CASE = {"longest_k_distinct": 2, "max_short_run": 3, "eval_expression": 3}
#: Per category, nine families in the order easy, medium, hard, easy, medium, hard, ...
CATEGORIES: dict[str, list[base.Family]] = {
    name: base.difficulty_cycle(families)
    for name, families in {
        "strings": strings.FAMILIES + more_text.STRINGS,
        "lists": lists.FAMILIES + more_numeric.LISTS,
        "number_theory": numbers.FAMILIES + more_numeric.NUMBERS,
        "parsing": parsing.FAMILIES + more_text.PARSING,
        "grids": grids.FAMILIES + grid_search.FAMILIES,
        "graphs": graphs.FAMILIES + graph_paths.FAMILIES,
        "records": records.FAMILIES + simulations.FAMILIES,
        "formats": dates.FAMILIES + checksums.FAMILIES,
    }.items()
}
V1_FAMILIES = set(strings.FAMILIES + lists.FAMILIES + numbers.FAMILIES + parsing.FAMILIES)
#: Row order: round-robin over the categories, so any prefix (a quick run) mixes them all.
FAMILIES: list[base.Family] = [
    families[slot] for slot in range(9) for families in CATEGORIES.values()
]
COUNT = len(FAMILIES)
PROMPT = (
    "Write a Python function with this signature:\n\n    {signature}\n\n{statement}\n\n"
    "For example, {call} returns {expected!r}.\n\n"
    "Use only the standard library. Reply with the complete function (and any imports it "
    "needs) in a single ```python code block."
)


def wrong_is_caught(task: base.Task, hidden: dict[str, Any]) -> bool:
    """Whether the wrong solution misses a hidden test (run here on our own code, not a
    model's: ``prove`` repeats this in an isolated interpreter)."""
    namespace: dict[str, Any] = {"__name__": "wrong"}
    exec(task.wrong, namespace)
    for call, expected in hidden.items():
        try:
            if json.dumps(eval(call, namespace), sort_keys=True) != json.dumps(expected):
                return True
        except Exception:
            return True
    return False


def draw(family: base.Family, rng: random.Random) -> tuple[base.Task, int]:
    """A v1 family's task with a seeded variant, redrawn while its hidden tests (all cases but
    the example) happen to let the wrong solution through: some v1 families separate the two
    only on seeded inputs. New families separate them on a fixed input and never redraw."""
    example = EXAMPLE_CASE.get(family.__name__, 1)
    if family not in V1_FAMILIES:
        return family(rng, 0), example
    for _ in range(MAX_DRAWS):
        task = family(rng, rng.randrange(V1_VARIANTS))
        if wrong_is_caught(task, split_cases(task, example)[2]):
            return task, example
    raise AssertionError(f"{family.__name__}: no separating draw in {MAX_DRAWS}")


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    family = FAMILIES[idx]
    task, example = draw(family, rng)
    call, expected, hidden = split_cases(task, example)
    tests = "\n".join(f"assert {c} == {e!r}" for c, e in hidden.items())
    prompt = PROMPT.format(
        signature=task.signature, statement=task.statement, call=call, expected=expected
    )
    return {
        "id": f"code2-{idx + 1:04d}",
        "category": task.category,
        "difficulty": task.difficulty,
        "prompt": prompt,
        "answer": task.entry,
        "scorer": DEFAULT_SCORER,
        "tests": tests,
        "meta": {
            "family": family.__name__,
            "example": {"call": call, "expected": expected},
            "reference_solution": task.reference,
            "wrong_solution": task.wrong,
            "signature": task.signature,
        },
    }


def prove(row: dict[str, Any]) -> None:
    meta, entry = row["meta"], row["answer"]
    cases, shown = assertions.checked_cases(row)
    assert f"def {entry}(" in meta["reference_solution"], row["id"]
    got, wrong = assertions.run(
        [meta["reference_solution"], meta["wrong_solution"]], [*cases, shown]
    )
    assert got is not None, f"{row['id']}: reference crashed"
    for (value, equal), (_, _, expected) in zip(got, [*cases, shown], strict=True):
        assert equal and value == json.dumps(expected, sort_keys=True), (row["id"], value)
    assert wrong is None or any(
        not equal or value != json.dumps(expected, sort_keys=True)
        for (value, equal), (_, _, expected) in zip(wrong[: len(cases)], cases, strict=True)
    ), f"{row['id']}: the wrong solution passes"


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
