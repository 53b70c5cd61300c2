"""eval-math-v5's choice rows: eval-math-v3's (``choice``) with the modular-arithmetic options
rebuilt so that no shape of the option set points at the gold (issue 30).

In eval-math-v3 the distractors of "the inverse of a modulo m" (and "the smallest x with ax - b
divisible by m") were the answers of sibling questions plus m - x, the mirror of the gold: 5 of
the 6 rows offered both x and m - x (math3-0020, -0026, -0032, -0074, -0080), so a reader who
knew the construction kept two options of four. On the hard rows the siblings (b - 1)/a and
(b + 1)/a also put the gold exactly halfway between two options (math3-0032), and, being
b +- 1 over a, they could differ in parity or common factor from every solution of ax = b.

Here every distractor is the answer of the same question for another coefficient near a, b/s
with s = a +- 1..4 a unit other than 1 and m - 1, so all four options share the gold's common
factor with m; a set is kept only when no two options sum to m (no mirror pair), no option is
halfway between two others modulo m, and no option is a number the question states (the
inverse 1, m - 1, a, b or m; v3's math3-0026 asked for the inverse of m - 1 and offered 1). The
gold stands at the planned rank of the ascending options as before. Every other category is
v3's builder and proof, unchanged.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from typing import Any

from families.math import choice

Item = dict[str, Any]
#: How far from a the sibling coefficients s lie.
OFFSETS = (-4, -3, -2, -1, 1, 2, 3, 4)


def stated(meta: Item) -> set[int]:
    """The numbers the question states (the inverse question also says "1 to m - 1")."""
    a, b, m = meta["a"], meta["b"], meta["modulus"]
    return {a, b, m} | ({1, m - 1} if b == 1 else set())


def tells(values: list[int], meta: Item) -> list[str]:
    """What the option set gives away, by name (empty for a fair set)."""
    m, b = meta["modulus"], meta["b"]
    found = []
    if any((x + y) % m == 0 for x, y in itertools.combinations(values, 2)):
        found.append("mirror pair")
    for x in values:
        rest = [y for y in values if y != x]
        if any((2 * x - y - z) % m == 0 for y, z in itertools.combinations(rest, 2)):
            found.append("halfway option")
            break
    if len({math.gcd(v, m) for v in values} | {math.gcd(b, m)}) > 1:
        found.append("common factor")
    if set(values) & stated(meta):
        found.append("stated number")
    return found


def modular(rng: random.Random, level: int, slot: int) -> Item:
    """An inverse (or a linear congruence) modulo m among the answers for nearby coefficients."""

    def draw() -> Item | None:
        m = (
            rng.choice((23, 29, 31, 37))
            if level == 0
            else rng.randint(40, 120 if level == 1 else 600)
        )
        units = [v for v in range(2, m - 1) if math.gcd(v, m) == 1]
        a = rng.choice(units)
        b = 1 if level < 2 else rng.randint(2, m - 1)
        x = b * pow(a, -1, m) % m
        near = [a + d for d in OFFSETS if a + d in units]
        pool = [v for v in dict.fromkeys(b * pow(s, -1, m) % m for s in near) if v != x]
        if len(pool) < 3:
            return None
        meta = {"kind": "congruence_options", "a": a, "b": b, "modulus": m}
        others = rng.sample(pool, 3)
        if tells([x, *others], meta):
            return None
        if level < 2:
            question = (
                f"Which number x in the range 1 to {m - 1} is the multiplicative inverse of "
                f"{a} modulo {m}, that is, {a}x leaves remainder 1 when divided by {m}?"
            )
        else:
            question = (
                f"What is the smallest positive integer x such that {a}x - {b} is divisible by {m}?"
            )
        return choice._ranked(question, x, others, slot, meta)

    return choice._tries(draw)


def _congruence(row: dict[str, Any]) -> str:
    """v3's proof (every x from 1 to m - 1 tried), and an option set with no tell."""
    gold = choice._congruence(row)
    values = [int(c) for c in row["choices"]]
    assert tells(values, row["meta"]) == [], (row["id"], tells(values, row["meta"]))
    return gold


BUILD: dict[str, Callable[[random.Random, int, int], Item]] = {
    **choice.BUILD,
    "modular": modular,
}
EXPECTED: dict[str, Callable[[dict[str, Any]], str]] = {
    **choice.EXPECTED,
    "congruence_options": _congruence,
}
