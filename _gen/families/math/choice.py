"""eval-math-v3's choice rows, one form per category, rebuilt so that no option-only rule finds
the gold (issue 19), each with its proof.

In eval-math-v2 the shortest option was right in 14 of 36 choice rows (39 %, chance 25 %): the
distractors were built *from the gold* (twice it, half of it, the naive count above it, values
that satisfy all equations but one and so run large), and primes, being rarer among large
numbers, were on average the smallest option. Here the four options are built so that which one
is the gold does not change what the set looks like:

* linear systems: the options differ from one another in the same pattern whichever is right
  (with two unknowns a 2 x 2 grid of values, with three every two options differ in exactly two
  values), each value's alternative a sign slip or another value of the same range;
* modular arithmetic and probability: the answers of the question and of sibling questions
  (a neighbouring coefficient or count), drawn until the gold lands at the planned rank;
* lattice paths: the counts of a 2 x 2 grid of board sizes with the same obstacles, the asked
  board the one at the planned rank;
* sequences: four terms (or counts) a whole step apart around the gold, the gaps drawn apart
  from the gold's place;
* primes: four numbers at independent uniform positions, each moved up to the next prime or hard
  composite, any one of them the prime, drawn until the prime lands at the planned rank, so
  the prime is as large as the others on average.

Options are listed in ascending order with the gold at the planned rank (letters balanced by
``common.mc_plan``), except the assignments of linear systems, which are placed at the planned
letter among shuffled others. Proofs re-solve each question another way and check the options'
structure.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from common import mc_plan as plan
from common import v2

from families.math.base import factorise
from families.math.counting import count_paths
from families.math.linear import equation, solve, system

Item = dict[str, Any]
#: sets of changed unknowns: any two options differ in the same number of values
CODES = {2: ((), (0,), (1,), (0, 1)), 3: ((), (1, 2), (0, 2), (0, 1))}


def _tries(build: Callable[[], Item | None]) -> Item:
    for _ in range(20_000):
        item = build()
        if item is not None:
            return item
    raise AssertionError("no choice item after 20000 draws")


def _ranked(
    question: str, gold: int | Fraction, others: list[Any], slot: int, meta: Item
) -> Item | None:
    """Four distinct values ascending, or None unless the gold is at rank ``slot``."""
    values = sorted({gold, *others})
    if len(values) != 4 or values.index(gold) != slot:
        return None
    return plan.mc_item(question, [v2.fmt_fraction(Fraction(v)) for v in values], slot, meta)


def linear_systems(rng: random.Random, level: int, slot: int) -> Item:
    """Which assignment solves a system of two (easy) or three equations."""
    n = 2 if level == 0 else 3
    names = "xyz"[:n]
    span = (9, 9, 12)[level]
    values = [v for v in range(-span, span + 1) if v]

    def draw() -> Item | None:
        sol = [rng.choice(values) for _ in range(n)]
        matrix, rhs = system(rng, n, -span, span, sol)
        alt = [-v if rng.random() < 0.5 else rng.choice([w for w in values if w != v]) for v in sol]
        assignments = [[alt[i] if i in code else sol[i] for i in range(n)] for code in CODES[n]]
        fitting = [all(_fits(matrix, rhs, a)) for a in assignments]
        if fitting.count(True) != 1:  # a changed assignment that still solves it: draw again
            return None
        texts = [
            ", ".join(f"{k} = {v}" for k, v in zip(names, a, strict=True)) for a in assignments
        ]
        options = plan.place(rng, texts[0], texts[1:], slot)
        eqs = "\n".join(equation(row, b) for row, b in zip(matrix, rhs, strict=True))
        meta = {"kind": "system_options", "matrix": matrix, "rhs": rhs}
        return plan.mc_item(
            f"Which assignment solves this system of equations?\n\n{eqs}", options, slot, meta
        )

    return _tries(draw)


def _fits(matrix: list[list[int]], rhs: list[int], values: list[int]) -> list[bool]:
    return [
        sum(a * v for a, v in zip(eq, values, strict=True)) == b
        for eq, b in zip(matrix, rhs, strict=True)
    ]


def modular(rng: random.Random, level: int, slot: int) -> Item:
    """An inverse (or a linear congruence) modulo m among the answers of sibling questions."""

    def draw() -> Item | None:
        m = (
            rng.choice((23, 29, 31, 37))
            if level == 0
            else rng.randint(40, 120 if level == 1 else 600)
        )
        units = [v for v in range(2, m) if math.gcd(v, m) == 1]
        a = rng.choice(units)
        b = 1 if level < 2 else rng.randint(2, m - 1)
        x = b * pow(a, -1, m) % m
        siblings = [b * pow(s, -1, m) % m for s in (a - 2, a - 1, a + 1, a + 2) if s in units]
        if level == 2:
            siblings += [(b + d) * pow(a, -1, m) % m for d in (-1, 1)]
        pool = [v for v in dict.fromkeys([*siblings, m - x]) if v not in (0, x)]
        if len(pool) < 3:
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
        meta = {"kind": "congruence_options", "a": a, "b": b, "modulus": m}
        return _ranked(question, x, rng.sample(pool, 3), slot, meta)

    return _tries(draw)


def combinatorics(rng: random.Random, level: int, slot: int) -> Item:
    """Lattice paths around blocked points; the options are the counts of four board sizes."""

    def draw() -> Item | None:
        w0, h0 = rng.randint(3, 4 + level), rng.randint(3, 3 + level)
        cells = [
            (x, y) for x in range(w0 + 1) for y in range(h0 + 1) if (x, y) not in ((0, 0), (w0, h0))
        ]
        blocked = rng.sample(cells, level)
        via = [rng.choice([c for c in cells if c not in blocked])] if level == 2 else []
        boards = [(w0 + dx, h0 + dy) for dx in (0, 1) for dy in (0, 1)]
        counts = [
            count_paths({"width": w, "height": h, "blocked": blocked, "via": via})
            for w, h in boards
        ]
        if len(set(counts)) != 4 or min(counts) == 0:
            return None
        ranked = sorted(range(4), key=counts.__getitem__)
        w, h = boards[ranked[slot]]
        rules = "".join(f" The path must not pass through the point {tuple(p)}." for p in blocked)
        rules += "".join(f" The path must pass through the point {tuple(p)}." for p in via)
        question = (
            f"A path on the integer grid starts at (0, 0) and ends at ({w}, {h}); each step adds 1 "
            f"to either the x or the y coordinate.{rules} How many such paths are there?"
        )
        meta = {"kind": "lattice_options", "width": w, "height": h, "blocked": blocked, "via": via}
        meta["boards"] = [list(b) for b in boards]
        return _ranked(
            question,
            counts[ranked[slot]],
            [c for i, c in enumerate(counts) if i != ranked[slot]],
            slot,
            meta,
        )

    return _tries(draw)


EVENTS = {
    0: ("both_red", 2, "both balls are red"),
    1: ("one_each", 3, "the three balls are all of different colours"),
    2: (
        "two_red_given_red",
        4,
        "exactly two of the balls are red, given that at least one of them is red",
    ),
}


def urn(kind: str, counts: list[int]) -> Fraction:
    """The urn event's probability by binomial coefficients (drawing without replacement)."""
    comb, n = math.comb, sum(counts)
    if kind == "both_red":
        return Fraction(comb(counts[0], 2), comb(n, 2))
    if kind == "one_each":
        return Fraction(counts[0] * counts[1] * counts[2], comb(n, 3))
    two = Fraction(comb(counts[0], 2) * comb(counts[1], 2), comb(n, 4))
    return two / (1 - Fraction(comb(counts[1], 4), comb(n, 4)))


def probability(rng: random.Random, level: int, slot: int) -> Item:
    """An urn probability; the options are the same event's probability for a 2 x 2 grid of
    ball counts (one more red, one more of the next colour)."""
    kind, draw_n, event = EVENTS[level]

    def draw() -> Item | None:
        base = [rng.randint(3, 6) for _ in range(3 if level == 1 else 2)]
        grid = [[base[0] + dr, base[1] + db, *base[2:]] for dr in (0, 1) for db in (0, 1)]
        values = [urn(kind, c) for c in grid]
        if len(set(values)) != 4:
            return None
        ranked = sorted(range(4), key=values.__getitem__)
        counts = grid[ranked[slot]]
        colours = ["red", "blue", "green"][: len(counts)]
        stock = ", ".join(f"{c} {col}" for c, col in zip(counts, colours, strict=True))
        stock = " and".join(stock.rsplit(",", 1))
        question = (
            f"A bag holds {stock} balls. {draw_n} balls are drawn at random without replacement. "
            f"What is the probability that {event}?"
        )
        meta = {"kind": "urn_options", "event": kind, "counts": counts, "grid": grid}
        gold = values[ranked[slot]]
        return _ranked(question, gold, [v for v in values if v != gold], slot, meta)

    return _tries(draw)


def _window(rng: random.Random, gold: int, step: int, slot: int) -> list[int]:
    """Four values a whole number of ``step`` apart, ascending, ``gold`` at index ``slot``."""
    pattern = sorted(rng.sample(range(5), 4))
    return [gold + (p - pattern[slot]) * step for p in pattern]


def sequences(rng: random.Random, level: int, slot: int) -> Item:
    """The k-th term, the number of terms, or the terms below a bound, among a window."""

    def draw() -> Item | None:
        a, d = rng.randint(-20, 30), rng.choice([v for v in range(-9, 13) if v not in (0, 1)])
        if level == 0:
            k = rng.randint(50, 250)
            gold, step = a + (k - 1) * d, abs(d)
            seq = ", ".join(str(a + i * d) for i in range(4))
            question = f"What is the {k}th term of the arithmetic sequence {seq}, ...?"
            meta: Item = {"kind": "nth_term_options", "first": a, "step": d, "index": k}
        elif level == 1:
            d, n = abs(d), rng.randint(40, 300)
            last = a + (n - 1) * d
            question = (
                f"How many terms does the arithmetic sequence {a}, {a + d}, {a + 2 * d}, ..., "
                f"{last} have?"
            )
            gold, step = n, 1
            meta = {"kind": "term_count_options", "first": a, "step": d, "last": last}
        else:
            a, r, bound = rng.randint(2, 9), rng.randint(2, 5), 10 ** rng.randint(5, 8)
            gold, step = sum(1 for i in range(200) if a * r**i < bound), 1
            question = (
                f"How many terms of the geometric sequence {a}, {a * r}, {a * r * r}, ... are "
                f"less than {bound}?"
            )
            meta = {"kind": "geometric_count_options", "first": a, "ratio": r, "bound": bound}
        values = _window(rng, gold, step, slot)
        if level > 0 and values[0] < 1:
            return None
        return _ranked(question, gold, [v for v in values if v != gold], slot, meta)

    return _tries(draw)


def _hard_composite(n: int, level: int) -> bool:
    """Odd, not a multiple of 3 or 5, not prime (and at the hard level no factor below 13)."""
    factors = factorise(n)
    if n % 2 == 0 or n % 3 == 0 or n % 5 == 0 or factors == {n: 1}:
        return False
    return level < 2 or min(factors) >= 13


def number_theory(rng: random.Random, level: int, slot: int) -> Item:
    """The prime among three composites (the composite among three primes when hard), four
    numbers drawn at independent uniform positions and moved up to the next of their kind."""
    top = (300, 2000, 10_000)[level]
    odd_one = "composite" if level == 2 else "prime"

    def snap(u: int, prime: bool) -> int:
        while (factorise(u) == {u: 1}) != prime or (not prime and not _hard_composite(u, level)):
            u += 1
        return u

    def draw() -> Item | None:
        spots = [rng.randint(50, top) for _ in range(4)]
        odd = rng.randrange(4)  # which draw becomes the odd one out: any, not a planned rank
        values = [snap(u, (i == odd) == (odd_one == "prime")) for i, u in enumerate(spots)]
        if len(set(values)) != 4 or max(values) >= top or sorted(values).index(values[odd]) != slot:
            return None  # drawn again until the odd one lands at the planned rank
        question = (
            "Which of the following numbers is NOT prime?"
            if level == 2
            else "Which of the following numbers is prime?"
        )
        meta = {"kind": "prime_options", "odd_one_out": odd_one}
        return plan.mc_item(question, [str(v) for v in sorted(values)], slot, meta)

    return _tries(draw)


BUILD: dict[str, Callable[[random.Random, int, int], Item]] = {
    "linear_systems": linear_systems,
    "modular": modular,
    "combinatorics": combinatorics,
    "probability": probability,
    "sequences": sequences,
    "number_theory": number_theory,
}


# ---- proofs: each question solved again, each option set checked ----------------------------
def _ascending(row: dict[str, Any]) -> list[Fraction]:
    values = [Fraction(c) for c in row["choices"]]
    assert values == sorted(values) and len(set(values)) == 4, row["id"]
    return values


def _system_options(row: dict[str, Any]) -> str:
    meta = row["meta"]
    sol = solve(meta["matrix"], meta["rhs"])
    assert all(v.denominator == 1 for v in sol), row["id"]
    parsed = [[int(part.split("=")[1]) for part in c.split(",")] for c in row["choices"]]
    changed = [{i for i, (v, s) in enumerate(zip(p, sol, strict=True)) if v != s} for p in parsed]
    n = len(sol)
    assert sorted(map(sorted, changed)) == sorted(map(list, CODES[n])), row["id"]  # the pattern
    (right,) = [
        c
        for c, p in zip(row["choices"], parsed, strict=True)
        if all(_fits(meta["matrix"], meta["rhs"], p))
    ]
    return right


def _congruence(row: dict[str, Any]) -> str:
    _ascending(row)
    a, b, m = row["meta"]["a"], row["meta"]["b"], row["meta"]["modulus"]
    (x,) = [x for x in range(1, m) if (a * x - b) % m == 0]
    return str(x)


def _lattice(row: dict[str, Any]) -> str:
    values, meta = _ascending(row), row["meta"]
    others = [count_paths({**meta, "width": w, "height": h}) for w, h in meta["boards"]]
    assert sorted(others) == values, row["id"]  # the options are the four boards' counts
    return str(count_paths(meta))


def _urn_options(row: dict[str, Any]) -> str:
    values, meta = _ascending(row), row["meta"]
    balls = [colour for colour, c in enumerate(meta["counts"]) for _ in range(c)]  # every draw
    size = {"both_red": 2, "one_each": 3, "two_red_given_red": 4}[meta["event"]]
    draws = [[balls[i] for i in d] for d in itertools.combinations(range(len(balls)), size)]
    if meta["event"] == "both_red":
        value = Fraction(sum(d.count(0) == 2 for d in draws), len(draws))
    elif meta["event"] == "one_each":
        value = Fraction(sum(sorted(d) == [0, 1, 2] for d in draws), len(draws))
    else:
        given = [d for d in draws if 0 in d]
        value = Fraction(sum(d.count(0) == 2 for d in given), len(given))
    assert sorted(urn(meta["event"], c) for c in meta["grid"]) == values, row["id"]
    return v2.fmt_fraction(value)


def _sequence_options(row: dict[str, Any]) -> str:
    values, meta, kind = _ascending(row), row["meta"], row["meta"]["kind"]
    steps = {b - a for a, b in zip(values, values[1:], strict=False)}
    unit = abs(meta["step"]) if kind == "nth_term_options" else 1
    assert all(s % unit == 0 for s in steps), row["id"]  # whole steps apart
    if kind == "nth_term_options":
        term = meta["first"]
        for _ in range(meta["index"] - 1):
            term += meta["step"]
        return str(term)
    if kind == "term_count_options":
        count, term = 0, meta["first"]
        while term <= meta["last"]:
            count, term = count + 1, term + meta["step"]
        return str(count)
    count, term = 0, meta["first"]
    while term < meta["bound"]:
        count, term = count + 1, term * meta["ratio"]
    return str(count)


def _prime_options(row: dict[str, Any]) -> str:
    _ascending(row)
    prime = [c for c in row["choices"] if all(int(c) % p for p in range(2, math.isqrt(int(c)) + 1))]
    odd = (
        prime
        if row["meta"]["odd_one_out"] == "prime"
        else [c for c in row["choices"] if c not in prime]
    )
    (right,) = odd
    return right


EXPECTED: dict[str, Callable[[dict[str, Any]], str]] = {
    "system_options": _system_options,
    "congruence_options": _congruence,
    "lattice_options": _lattice,
    "urn_options": _urn_options,
    "nth_term_options": _sequence_options,
    "term_count_options": _sequence_options,
    "geometric_count_options": _sequence_options,
    "prime_options": _prime_options,
}
