"""Seeded input generators of eval-code-v4 (issue 30): per family, the boundary inputs its
statement allows (every varint group count, every subtractive Roman pair, repeated units, empty
inputs, extremes) and a seeded draw of typical inputs of varied size, beyond the prompt's
example. The ``inputs_*`` modules hold one builder per family, keyed by the family's name; a
builder reads the row's parameters (a base, a separator, a unit) from its task.

The hidden tests take every boundary input and seeded draws up to ``NEW_TESTS`` new inputs; the
equivalence pool (``hidden_tests``) takes ``POOL`` more draws from the same generator, from
``wide`` where a family's typical sizes leave too few distinct inputs.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from families.code.assertions import call_text, canonical
from families.code.base import Task

NEW_TESTS = 50
POOL = 1000
#: Draws tried for the pool before settling for fewer distinct inputs (a small input space).
POOL_TRIES = 6000

Args = tuple[Any, ...]
Draw = Callable[[random.Random], Args]


@dataclass(frozen=True)
class Inputs:
    """A family's boundary inputs and its seeded draw (``wide``: a draw of larger inputs for
    the equivalence pool, when ``draw`` alone has too few distinct ones)."""

    edges: list[Args]
    draw: Draw
    wide: Draw | None = None


#: A family's input generator: (task, variant) -> Inputs.
Builder = Callable[[Task, int], Inputs]


def reads(task: Task, pattern: str) -> str:
    """The first group of ``pattern`` in the reference: a parameter the family substituted."""
    found = re.search(pattern, task.reference)
    assert found is not None, (pattern, task.reference)
    return found[1]


def literal(task: Task, pattern: str) -> Any:
    return ast.literal_eval(reads(task, pattern))


def text(rng: random.Random, alphabet: str, low: int, high: int) -> str:
    return "".join(rng.choices(alphabet, k=rng.randint(low, high)))


def numbers(rng: random.Random, n: int, low: int, high: int) -> list[int]:
    return [rng.randint(low, high) for _ in range(n)]


def sized(rng: random.Random, high: int) -> int:
    """A size from 0 to ``high``, small ones as likely as large ones (log-uniform-ish)."""
    return min(high, int(2 ** rng.uniform(0, (high + 1).bit_length())) - 1)


def hidden_inputs(task: Task, inputs: Inputs, rng: random.Random, taken: set[str]) -> list[Args]:
    """Every boundary input, then draws, until ``NEW_TESTS`` inputs whose calls are not in
    ``taken`` (the -v3 tests and the example), each call once."""
    out: list[Args] = []
    seen = set(taken)

    def keep(args: Args) -> None:
        call = call_text(task.entry, canonical(args))
        if call not in seen:
            seen.add(call)
            out.append(args)

    for args in inputs.edges:
        keep(args)
    for _ in range(20 * NEW_TESTS):
        if len(out) >= NEW_TESTS:
            break
        keep(inputs.draw(rng))
    assert len(out) >= NEW_TESTS, (task.entry, len(out))
    return out


def pool_inputs(task: Task, inputs: Inputs, rng: random.Random, taken: set[str]) -> list[Args]:
    """``POOL`` more distinct draws (fewer only when the family has fewer)."""
    out: list[Args] = []
    seen = set(taken)
    draw = inputs.wide or inputs.draw
    for _ in range(POOL_TRIES):
        if len(out) >= POOL:
            break
        args = draw(rng)
        call = call_text(task.entry, canonical(args))
        if call not in seen:
            seen.add(call)
            out.append(args)
    return out
