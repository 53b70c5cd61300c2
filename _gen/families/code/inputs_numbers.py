"""eval-code-v4: seeded inputs of the number-theory families (see ``inputs``)."""

from __future__ import annotations

import math
import random
import re

from families.code.base import Task
from families.code.inputs import Args, Builder, Inputs, literal, reads, sized


def _powers(base: int, top: int) -> list[int]:
    """Every power of ``base`` up to ``top``, with its neighbours: where digit counts change."""
    out, p = [], 1
    while p <= top:
        out += [p - 1, p, p + 1]
        p *= base
    return sorted({n for n in out if n >= 0})


def digit_sum_base(task: Task, v: int) -> Inputs:
    base = int(reads(task, r"divmod\(n, (\d+)\)"))

    def draw(rng: random.Random) -> Args:
        return (rng.randint(0, 10 ** rng.randint(1, 12)),)

    edges: list[Args] = [(n,) for n in _powers(base, base**5)] + [(10**18,), (base**20 - 1,)]
    return Inputs(edges, draw)


def count_multiples(task: Task, v: int) -> Inputs:
    found = re.search(r"divisible by (\d+) or by (\d+)", task.statement)
    assert found is not None
    a, b = int(found[1]), int(found[2])
    lcm = a * b // math.gcd(a, b)

    def draw(rng: random.Random) -> Args:
        lo = rng.randint(-100, 100)
        return (lo, lo + rng.randint(-5, 200))

    edges: list[Args] = [(0, 0), (1, 1), (a, a), (b, b), (lcm, lcm), (lcm - 1, lcm + 1)]
    edges += [(-lcm, -1), (-lcm, lcm), (5, 4), (10, 2), (-3, -7), (0, lcm), (1, lcm - 1)]
    return Inputs(edges, draw)


def recurrence(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (rng.randint(0, 90),)

    def wide(rng: random.Random) -> Args:
        return (rng.randint(0, 1200),)

    return Inputs([(n,) for n in range(13)] + [(25,), (40,)], draw, wide)


def to_base(task: Task, v: int) -> Inputs:
    base = int(reads(task, r"divmod\(n, (\d+)\)"))

    def draw(rng: random.Random) -> Args:
        return (rng.randint(0, 10 ** rng.randint(1, 12)),)

    edges: list[Args] = [(n,) for n in _powers(base, base**5)] + [(10**15,), (base**16 - 1,)]
    return Inputs(edges, draw)


def primes_mod(task: Task, v: int) -> Inputs:
    found = re.search(r"remainder (\d+) when divided by (\d+)", task.statement)
    assert found is not None
    r, m = int(found[1]), int(found[2])
    small = [p for p in range(2, 60) if all(p % d for d in range(2, p)) and p % m == r]

    def draw(rng: random.Random) -> Args:
        lo = rng.randint(-5, 200)
        return (lo, lo + rng.randint(-3, 200))

    edges: list[Args] = [(0, 0), (0, 1), (2, 2), (-10, 10), (r, r), (10, 9), (0, 60), (2, 3)]
    edges += [(p, p) for p in small[:3]] + [(small[0] + 1, small[1]), (small[0], small[1] - 1)]
    edges += [(m, m), (1, 2)]
    return Inputs(edges, draw)


def base_palindromes(task: Task, v: int) -> Inputs:
    base = int(reads(task, r"digits.append\(x % (\d+)\)"))

    def draw(rng: random.Random) -> Args:
        return (rng.randint(1, 600),)

    def wide(rng: random.Random) -> Args:
        return (rng.randint(1, 1500),)

    edges: list[Args] = [(n,) for n in _powers(base, base**4) if n >= 1]
    edges += [(base**2 + 1,), (base**3 + 1,), (2 * base + 2,)]
    return Inputs(edges, draw, wide)


def collatz(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (rng.randint(1, 3000),)

    edges: list[Args] = [(n,) for n in range(1, 10)] + [(16,), (27,), (97,), (871,), (1024,)]
    return Inputs(edges, draw)


def coprimes(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (rng.randint(1, 3000),)

    edges: list[Args] = [(n,) for n in (1, 2, 3, 4, 6, 8, 9, 12, 30, 97, 121, 143, 210, 256)]
    edges += [(1000,), (2310,), (2 * 97,), (97 * 97,)]
    return Inputs(edges, draw)


def min_coins(task: Task, v: int) -> Inputs:
    coins = literal(task, r"for c in (\([\d, ]+\))")

    def draw(rng: random.Random) -> Args:
        return (sized(rng, 150),)

    def wide(rng: random.Random) -> Args:
        return (rng.randint(0, 1300),)

    edges: list[Args] = [(0,), (1,), (2,), (3,), (sum(coins),), (150,)]
    edges += [(n,) for c in coins for n in (c - 1, c, c + 1, 2 * c)]
    return Inputs(edges, draw, wide)


INPUTS: dict[str, Builder] = {
    f.__name__: f
    for f in (
        digit_sum_base, count_multiples, recurrence, to_base, primes_mod, base_palindromes,
        collatz, coprimes, min_coins,
    )
}  # fmt: skip
