"""Test strength of eval-code-v3 (issue 19; mutation testing as EvalPlus applied it to
HumanEval): a family's task, its plausible wrong solutions (*mutants*) and the hidden inputs
that kill them.

In eval-code-v2 the prompt's example was taken out of the hidden tests, and in several families
only edge cases were left: a solution that sums the whole matrix passed ``border_sum``. A
``Strong`` task keeps the -v2 family's statement, reference, oracle and cases, and adds

* mutants, one per rule the statement states (skip an edge case, an off-by-one, the whole for
  the border, a rule ignored), the -v2 wrong solution among them, at least three per task;
* extra inputs, fixed where a rule needs a particular input to show (a matrix with an interior,
  a range holding 2, an even cycle), seeded where typical inputs are wanted; their expected
  values come from the family's oracle, never from the reference.

The ``mutants_*`` modules build one ``Strong`` per family; the generator's proof runs the
reference and every mutant (``assertions.run``): the reference passes every hidden test and the
example, every mutant fails at least one hidden test.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from families.code.base import Task

MIN_MUTANTS = 3


@dataclass(frozen=True)
class Mutant:
    """A plausible wrong solution: what it gets wrong, and its source."""

    name: str
    code: str


@dataclass(frozen=True)
class Strong:
    """A -v2 task with more hidden inputs and the mutants they kill."""

    task: Task
    mutants: tuple[Mutant, ...]

    @property
    def difficulty(self) -> str:
        return self.task.difficulty


#: A -v3 family: (rng, variant) -> Strong.
Family = Callable[[random.Random, int], Strong]


def strengthen(
    task: Task,
    more: list[tuple[Any, ...]],
    mutants: list[tuple[str, str | None]],
    reference: str | None = None,
) -> Strong:
    """``task`` with the cases of ``more`` (expected values from its oracle) and ``mutants``;
    a mutant given as None does not apply to this variant and is left out. ``reference``
    replaces a -v2 reference that a new hidden input shows wrong."""
    assert task.oracle is not None, task.entry
    cases = [*task.cases, *((args, task.oracle(*args)) for args in more)]
    task = replace(task, reference=reference or task.reference)
    kept = tuple(Mutant(name, code) for name, code in mutants if code is not None)
    assert len(kept) >= MIN_MUTANTS, (task.entry, [m.name for m in kept])
    assert len({m.name for m in kept}) == len(kept), task.entry
    assert len({m.code for m in kept} | {task.reference}) == len(kept) + 1, task.entry
    return Strong(replace(task, cases=cases), kept)


def edit(source: str, *changes: tuple[str, str], times: int = 1) -> str:
    """``source`` with each ``(old, new)`` applied in turn; ``old`` must occur exactly ``times``
    times, so a mutant never silently stays the reference."""
    for old, new in changes:
        assert source.count(old) == times, (old, source)
        source = source.replace(old, new)
    return source


def param(source: str, pattern: str) -> str:
    """The first group of ``pattern`` in ``source``: a parameter the -v2 family substituted
    into its reference (a shift, a separator), read back for a mutant that needs it."""
    found = re.search(pattern, source)
    assert found is not None, (pattern, source)
    return found[1]
