"""Shared parts of eval-code-v1's task families (spec 001: ``code_exec`` rows; generators prove
their answers).

Each family turns ``(rng, variant)`` into a :class:`Task`: a statement with the variant's
parameters, a reference solution and a plausible wrong one (source text), and test inputs whose
expected outputs come from an *oracle* written here in a different style (brute force, the
standard library) — so the reference is checked against something it does not share code with.
``variant`` (0-4) picks parameters that differ between the rows of one family. The families
live in ``strings``, ``lists``, ``numbers`` and ``parsing``;
eval-code-v2 reuses them once each and adds the families of the other ``_code_*`` modules
(which ignore ``variant`` and draw their parameters from ``rng``).
"""

from __future__ import annotations

import random
import string
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Task:
    """One coding task with its proven parts."""

    category: str
    difficulty: str
    entry: str
    signature: str
    statement: str
    reference: str
    wrong: str
    cases: list[tuple[tuple[Any, ...], Any]]
    #: The family's oracle, so a later version can add test inputs (eval-code-v3's mutants).
    oracle: Callable[..., Any] | None = field(default=None, compare=False, repr=False)


#: A family: (rng, variant) -> Task.
Family = Callable[[random.Random, int], Task]


def src(text: str, **subs: Any) -> str:
    """Dedented source with ``@NAME`` placeholders replaced by ``repr``-free values."""
    out = textwrap.dedent(text).strip() + "\n"
    for name, value in subs.items():
        out = out.replace(f"@{name}", str(value))
    return out


def mutate(source: str, old: str, new: str) -> str:
    """The wrong solution: ``source`` with one deliberate edit (which must apply)."""
    assert source.count(old) == 1, (old, source)
    return source.replace(old, new)


def task(
    category: str,
    difficulty: str,
    signature: str,
    statement: str,
    reference: str,
    wrong: str,
    inputs: list[tuple[Any, ...]],
    oracle: Callable[..., Any],
) -> Task:
    entry = signature.split("(")[0].removeprefix("def ")
    cases = [(args, oracle(*args)) for args in inputs]
    return Task(category, difficulty, entry, signature, statement, reference, wrong, cases, oracle)


def words(rng: random.Random, n: int, letters: str = string.ascii_lowercase) -> list[str]:
    return ["".join(rng.choices(letters, k=rng.randint(1, 8))) for _ in range(n)]


def ints(rng: random.Random, n: int, low: int = -20, high: int = 40) -> list[int]:
    return [rng.randint(low, high) for _ in range(n)]


def difficulty_cycle(families: list[Family]) -> list[Family]:
    """``families`` reordered easy, medium, hard, easy, medium, hard, ... as eval-code-v2 lists
    a category; each family's difficulty is read from one throwaway draw."""
    level = {f: f(random.Random(0), 0).difficulty for f in families}
    groups = [[f for f in families if level[f] == d] for d in ("easy", "medium", "hard")]
    assert len({len(g) for g in groups}) == 1, {f.__name__: d for f, d in level.items()}
    return [f for trio in zip(*groups, strict=True) for f in trio]
