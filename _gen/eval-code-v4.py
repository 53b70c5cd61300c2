# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-code-v4: write one Python function, scored ``code_exec``; every row's hidden tests come
from a seeded input generator and kill every generic mutant of its reference that any input can
tell apart (issue 30: differential testing in the manner of EvalPlus).

In eval-code-v3 the hidden tests covered each rule of a statement once, and wrong programs a
reader wrote passed all of them: a varint decoder that drops every 7-bit group after the second
(code3-0072: no test value had a third group), a Roman numeral reader without the "cd" pair
(code3-0052), a duration parser that reads only the first part of each unit (code3-0028: no
test repeated a unit). The generator's own mutants, one per rule, all failed.

Here the same 72 tasks (-v3's seed: the prompts are -v3's, but for parse_duration's, which now
says outright that a unit may repeat) get

* -v3's hidden tests plus at least ``inputs.NEW_TESTS`` new inputs from a seeded generator per
  family (``families.code.inputs_*``): boundary inputs the statement allows (every varint group
  count, every subtractive Roman pair, repeated units, empty inputs, extremes) and draws beyond
  the prompt's example. Expected values are the reference solution's results, proved equal to
  the family's oracle (written apart from the reference) on every test;
* generic mutants of the reference (``families.code.ast_mutants``: comparison, arithmetic,
  boolean and constant operators, loops cut short, branches removed, returns of one operand)
  beside -v3's hand-written ones. A generic mutant that no input of the equivalence pool (1,000
  more draws of the same generator) tells from the reference is equivalent and listed apart in
  ``meta.mutation``; every other one is in ``probes.mutants`` and fails a hidden test
  (``families.code.hidden_tests``).

The prompt's example is never a hidden test and no hidden call appears in the prompt; tests are
literal ``assert f(<literals>) == <literal>`` lines with plain-JSON expected values.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.code import (
    assertions,
    differential,
    inputs_formats,
    inputs_graphs,
    inputs_grids,
    inputs_lists,
    inputs_numbers,
    inputs_parsing,
    inputs_records,
    inputs_strings,
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
from families.code.assertions import call_text, canonical, json_plain
from families.code.ast_mutants import generic_mutants
from families.code.base import Task, difficulty_cycle
from families.code.hidden_tests import HIDDEN_STEPS, select
from families.code.inputs import NEW_TESTS, Args, hidden_inputs, pool_inputs
from families.code.mutation import MIN_MUTANTS, Family

DATASET_ID = "eval-code-v4"
KIND = "eval"
DESCRIPTION = (
    "Write a Python function from a precise specification: eval-code-v3's 72 tasks with hidden "
    "tests from a seeded input generator per task (boundary values and sizes beyond the "
    "prompt's example, at least 50 new inputs, expected values from the reference solution "
    "proved by an oracle); every generic mutant of the reference (comparison, arithmetic, "
    "constant, loop, branch and return operators) that some input tells apart, and every "
    "hand-written one, fails a hidden test (probes.mutants); equivalent mutants are listed in "
    "meta.mutation; supersedes eval-code-v3."
)
SEED = 1_000_503  # -v3's: the same tasks; only the hidden tests and mutants are new
CREATED = "2027-01-15"
DEFAULT_SCORER = "code_exec"
V1_VARIANTS = 5
EXAMPLE_CASE = {"longest_k_distinct": 2, "max_short_run": 3, "eval_expression": 3}
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
FAMILIES: list[Family] = [families[slot] for slot in range(9) for families in CATEGORIES.values()]
COUNT = len(FAMILIES)
INPUTS = {
    **inputs_strings.INPUTS, **inputs_lists.INPUTS, **inputs_numbers.INPUTS,
    **inputs_parsing.INPUTS, **inputs_grids.INPUTS, **inputs_graphs.INPUTS,
    **inputs_records.INPUTS, **inputs_formats.INPUTS,
}  # fmt: skip
#: Where the new inputs go beyond what a statement said outright: (its text, the new text).
CLARIFY = {
    "parse_duration": (
        "in any order (",
        "in any order; a unit letter may occur in several parts, and every part counts (",
    )
}
PROMPT = (
    "Write a Python function with this signature:\n\n    {signature}\n\n{statement}\n\n"
    "For example, {call} returns {expected!r}.\n\n"
    "Use only the standard library. Reply with the complete function (and any imports it "
    "needs) in a single ```python code block."
)


def _clarified(name: str, task: Task) -> Task:
    if name not in CLARIFY:
        return task
    old, new = CLARIFY[name]
    assert task.statement.count(old) == 1, name
    return dataclasses.replace(task, statement=task.statement.replace(old, new))


def _v3_tests(task: Task, example: str) -> list[Args]:
    """-v3's hidden inputs, in order, each once, without the example."""
    out: dict[str, Args] = {}
    for args, _ in task.cases:
        out.setdefault(call_text(task.entry, canonical(args)), args)
    out.pop(example)
    return list(out.values())


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    family = FAMILIES[idx]
    name = family.__name__
    variant = rng.randrange(V1_VARIANTS)
    strong = family(rng, variant)  # the -v2 families ignore the variant
    task = _clarified(name, strong.task)
    call, expected, _ = assertions.split_cases(task, EXAMPLE_CASE.get(name, 1))
    old = _v3_tests(task, call)
    inputs = INPUTS[name](task, variant)
    taken = {call, *(call_text(task.entry, canonical(a)) for a in old)}
    seeded = hidden_inputs(task, inputs, rng, taken)
    taken |= {call_text(task.entry, canonical(a)) for a in seeded}
    pool = pool_inputs(task, inputs, rng, taken)
    hand = [m.code for m in strong.mutants]
    skip = frozenset(ast.dump(ast.parse(code)) for code in hand)
    chosen = select(task, hand, generic_mutants(task.reference, skip), old + seeded, pool)
    assert task.oracle is not None
    for args, value in zip(chosen.args, chosen.expected, strict=True):
        assert json_plain(value), (name, args)
        assert canonical(task.oracle(*copy.deepcopy(args))) == value, (name, args)  # its proof
    calls = [call_text(task.entry, canonical(args)) for args in chosen.args]
    prompt = PROMPT.format(
        signature=task.signature, statement=task.statement, call=call, expected=expected
    )
    return {
        "id": f"code4-{idx + 1:04d}",
        "category": task.category,
        "difficulty": task.difficulty,
        "prompt": prompt,
        "answer": task.entry,
        "scorer": DEFAULT_SCORER,
        "tests": "\n".join(
            f"assert {c} == {v!r}" for c, v in zip(calls, chosen.expected, strict=True)
        ),
        "meta": {
            "family": name,
            "example": {"call": call, "expected": expected},
            "signature": task.signature,
            "mutation": {
                "tests": {"v3": len(old), "seeded": len(seeded), "added": chosen.added},
                "pool": chosen.pool,
                "hand_written": len(hand),
                "generic": len(chosen.killed),
                "equivalent": [{"name": m.name, "code": m.code} for m in chosen.equivalent],
                "timeouts": [m.name for m in chosen.timeouts],
                "unstable": [m.name for m in chosen.unstable],
            },
        },
        "probes": {
            "reference": task.reference,
            "mutants": [{"name": m.name, "code": m.code} for m in strong.mutants]
            + [{"name": m.name, "code": m.code} for m in chosen.killed],
        },
    }


def prove(row: dict[str, Any]) -> None:
    """Re-run the row as stored: the reference gives every expected value and the example's;
    every mutant in probes fails a hidden test; every listed equivalent passes them all."""
    rid, entry, counts = row["id"], row["answer"], row["meta"]["mutation"]
    cases, shown = assertions.checked_cases(row)
    assert not any(c in row["prompt"] for c, _, _ in cases), f"{rid}: the prompt shows a test"
    assert counts["tests"]["seeded"] >= NEW_TESTS and len(cases) == sum(counts["tests"].values())
    reference, mutants = row["probes"]["reference"], row["probes"]["mutants"]
    assert counts["hand_written"] >= MIN_MUTANTS, rid
    assert len(mutants) == counts["hand_written"] + counts["generic"], rid
    assert len({m["name"] for m in mutants}) == len({m["code"] for m in mutants}) == len(mutants)
    equivalent = [m["code"] for m in counts["equivalent"]]
    for source in [reference, *(m["code"] for m in mutants), *equivalent]:
        compile(source, rid, "exec")
        assert f"def {entry}(" in source, rid
    outcome = assertions.run([reference], [*cases, shown])[0]
    assert assertions.passes(outcome, [*cases, shown]), f"{rid}: the reference fails"
    calls = [c for c, _, _ in cases]
    run = differential.run(
        reference, [m["code"] for m in mutants] + equivalent, calls, HIDDEN_STEPS
    )
    for mutant, result in zip(mutants, run.candidates, strict=False):
        assert result.hang is None and result.differs, f"{rid}: {mutant['name']!r} survives"
    for result in run.candidates[len(mutants) :]:
        assert result.hang is None and not result.sometimes, f"{rid}: an equivalent mutant fails"


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
