# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-math-v2: multi-step mathematics that v1 no longer separates (spec 001, the -v2 wave).

Six categories, each with a numeric, a multiple-choice and (where a list is natural) an exact
template: linear systems (word problems with distractor sentences; mc options that satisfy all
but one equation), modular arithmetic (huge powers, CRT, inverses, square roots mod m),
combinatorics counted by brute force, probability as exact fractions (enumerated), sequences
(recurrences, off-by-one traps) and number theory. Every row stores its parameters in ``meta``;
``prove`` recomputes each answer by another route (elimination vs. the generator's construction,
brute force vs. closed forms) and tests/gen/test_eval_math_v2.py recomputes them a third way.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, v2

DATASET_ID = "eval-math-v2"
KIND = "eval"
DESCRIPTION = (
    "Multi-step maths (linear systems, modular arithmetic, brute-force combinatorics, exact "
    "probability, sequences, number theory) mixing numeric, exact and mc rows; supersedes "
    "eval-math-v1."
)
SEED = 2_000_201
COUNT = 126
CREATED = "2026-09-01"
DEFAULT_SCORER = "numeric"
CATEGORIES = (
    "linear_systems",
    "modular",
    "combinatorics",
    "probability",
    "sequences",
    "number_theory",
)
NAMES = ("Ama", "Bruno", "Chen", "Dara", "Elif", "Femi", "Goran", "Hana", "Ines", "Jonas")
THEMES = (
    (
        "a stationery shop",
        (("pen", "pens"), ("notebook", "notebooks"), ("ruler", "rulers")),
        "cents",
    ),
    (
        "a cinema",
        (
            ("adult ticket", "adult tickets"),
            ("child ticket", "child tickets"),
            ("senior ticket", "senior tickets"),
        ),
        "euros",
    ),
    ("a bakery", (("loaf", "loaves"), ("croissant", "croissants"), ("muffin", "muffins")), "cents"),
    (
        "a hardware store",
        (("hammer", "hammers"), ("screwdriver", "screwdrivers"), ("tape measure", "tape measures")),
        "euros",
    ),
)
Item = dict[str, Any]


def _det(matrix: list[list[int]]) -> Fraction:
    rows = [[Fraction(v) for v in row] for row in matrix]
    det, n = Fraction(1), len(rows)
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            return Fraction(0)
        if pivot != col:
            rows[col], rows[pivot], det = rows[pivot], rows[col], -det
        det *= rows[col][col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return det


def _solve(matrix: list[list[int]], rhs: list[int]) -> list[Fraction]:
    """Gauss-Jordan elimination over the rationals (the proof's solver)."""
    n = len(matrix)
    aug = [[Fraction(v) for v in row] + [Fraction(b)] for row, b in zip(matrix, rhs, strict=True)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if aug[r][col] != 0)
        aug[col], aug[pivot] = aug[pivot], aug[col]
        aug[col] = [v / aug[col][col] for v in aug[col]]
        for r in range(n):
            if r != col:
                aug[r] = [a - aug[r][col] * b for a, b in zip(aug[r], aug[col], strict=True)]
    return [aug[r][n] for r in range(n)]


def _system(rng: random.Random, n: int, lo: int, hi: int, sol: list[int]) -> tuple[list, list]:
    while True:
        matrix = [[rng.randint(lo, hi) for _ in range(n)] for _ in range(n)]
        if _det(matrix) != 0 and all(sum(1 for v in row if v) >= 2 for row in matrix):
            rhs = [sum(a * x for a, x in zip(row, sol, strict=True)) for row in matrix]
            return matrix, rhs


def _equation(row: list[int], rhs: int) -> str:
    terms: list[str] = []
    for coef, var in zip(row, "xyzw", strict=False):
        if coef:
            mag = "" if abs(coef) == 1 else str(abs(coef))
            sign = ("-" if coef < 0 else "") if not terms else ("- " if coef < 0 else "+ ")
            terms.append(f"{sign}{mag}{var}")
    return " ".join(terms) + f" = {rhs}"


def _wrong(correct: int, candidates: list[int], low: int, high: int) -> list[str]:
    """Three distinct wrong options from ``candidates`` (then neighbours), all in [low, high]."""
    pool = [*candidates, *(correct + d for d in (1, -1, 2, -2, 3, -3, 5, -5))]
    picked = [v for v in dict.fromkeys(pool) if v != correct and low <= v <= high]
    assert len(picked) >= 3, (correct, candidates)
    return [str(v) for v in picked[:3]]


def _tuple_variants(values: list[int], names: str = "xyzw") -> list[str]:
    plain = [str(v) for v in values]
    named = [f"{n} = {v}" for n, v in zip(names, plain, strict=False)]
    return [
        ", ".join(plain),
        ",".join(plain),
        f"({', '.join(plain)})",
        f"({','.join(plain)})",
        ", ".join(named),
        ", ".join(s.replace(" ", "") for s in named),
    ]


def linear_systems(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:  # word problem, positive prices, distractor sentence on hard
        shop, items, unit = rng.choice(THEMES)
        n = 2 if level == 0 else 3
        prices = [rng.randint(3, 40) * (5 if unit == "cents" else 1) for _ in range(n)]
        matrix, rhs = _system(rng, n, 0, 5, prices)
        buyers = rng.sample(NAMES, n)
        lines = []
        for who, row, total in zip(buyers, matrix, rhs, strict=True):
            parts = [f"{c} {items[i][1] if c > 1 else items[i][0]}" for i, c in enumerate(row) if c]
            lines.append(f"{who} buys {', '.join(parts[:-1])} and {parts[-1]} for {total} {unit}.")
        if level == 2:
            lines.insert(
                rng.randint(1, n),
                f"The {shop[2:]} has {rng.randint(3, 12)} staff and "
                f"opened {rng.randint(5, 40)} years ago.",
            )
            weights = [rng.randint(1, 4), 0, rng.randint(1, 4)]
        else:
            weights = [0, 1] if n == 2 else [1, 1, 1]
        asked = " and ".join(
            f"{w} {items[i][1] if w > 1 else items[i][0]}" for i, w in enumerate(weights) if w
        )
        question = (
            f"At {shop}, every item of the same kind has the same price. "
            + " ".join(lines)
            + f" How many {unit} does it cost to buy {asked}?"
        )
        answer = sum(w * p for w, p in zip(weights, prices, strict=True))
        meta: dict[str, Any] = {
            "kind": "word_problem",
            "matrix": matrix,
            "rhs": rhs,
            "weights": weights,
        }
        return {"question": question, "scorer": "numeric", "answer": str(answer), "meta": meta}
    n = 2 if level == 0 else (3 if variant == 1 or level == 1 else 4)
    sol = [rng.choice([v for v in range(-9, 10) if v]) for _ in range(n)]
    span = 4 if n == 4 else 9
    matrix, rhs = _system(rng, n, -span, span, sol)
    eqs = "\n".join(_equation(row, b) for row, b in zip(matrix, rhs, strict=True))
    meta = {
        "kind": "system_choice" if variant == 1 else "system_solve",
        "matrix": matrix,
        "rhs": rhs,
    }
    names = "xyzw"[:n]
    if variant == 1:  # options that satisfy every equation but one
        others: list[list[int]] = []
        if n == 2:
            step = [matrix[0][1], -matrix[0][0]]
            others = [
                sol[::-1],
                [a + b for a, b in zip(sol, step, strict=True)],
                [a - b for a, b in zip(sol, step, strict=True)],
            ]
        else:
            for i, j in ((0, 1), (0, 2), (1, 2)):
                u, v = matrix[i], matrix[j]
                cross = [
                    u[1] * v[2] - u[2] * v[1],
                    u[2] * v[0] - u[0] * v[2],
                    u[0] * v[1] - u[1] * v[0],
                ]
                g = math.gcd(*cross)
                others.append([a + c // g for a, c in zip(sol, cross, strict=True)])
        texts = [
            ", ".join(f"{k} = {v}" for k, v in zip(names, vals, strict=True))
            for vals in [sol, *others]
        ]
        if len(set(texts)) < len(texts):
            return linear_systems(rng, level, variant)
        return {
            "question": f"Which assignment solves this system of equations?\n\n{eqs}",
            "scorer": "mc",
            "correct": texts[0],
            "distractors": texts[1:],
            "meta": meta,
        }
    question = (
        f"Solve this system of equations.\n\n{eqs}\n\nGive the values of "
        f"{', '.join(names)} in that order, separated by commas."
    )
    return {"question": question, "scorer": "exact", "answer": _tuple_variants(sol), "meta": meta}


def modular(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        if level < 2:
            a, m = (
                rng.randint(3, 29),
                (rng.randint(7, 60) if level == 0 else rng.choice((100, 1000))),
            )
            e = rng.randint(20, 80) if level == 0 else rng.randint(1000, 99_999)
            meta: dict[str, Any] = {"kind": "power", "base": a, "exponent": e, "modulus": m}
            question = f"What is the remainder when {a}^{e} is divided by {m}?"
            return {
                "question": question,
                "scorer": "numeric",
                "answer": str(pow(a, e, m)),
                "meta": meta,
            }
        mods = sorted(rng.sample((5, 7, 8, 9, 11, 13), 3))
        rems = [rng.randrange(1, m) for m in mods]
        bound = math.prod(mods)
        n = next(
            k
            for k in range(1, bound + 1)
            if all(k % m == r for m, r in zip(mods, rems, strict=True))
        )
        who = rng.choice(NAMES)
        parts = [f"in rows of {m} there are {r} left over" for m, r in zip(mods, rems, strict=True)]
        question = (
            f"{who} arranges a pile of marbles: {parts[0]}, {parts[1]}, and {parts[2]}. "
            f"There are fewer than {bound} marbles. How many marbles are there?"
        )
        meta = {"kind": "crt", "moduli": mods, "remainders": rems, "bound": bound}
        return {"question": question, "scorer": "numeric", "answer": str(n), "meta": meta}
    if variant == 1:
        m = (
            rng.choice((23, 29, 31, 37))
            if level == 0
            else rng.randint(40, 120 if level == 1 else 600)
        )
        a = rng.choice([v for v in range(2, m) if math.gcd(v, m) == 1])
        b = 1 if level < 2 else rng.randint(2, m - 1)
        x = b * pow(a, -1, m) % m
        if level < 2:
            question = (
                f"Which number x in the range 1 to {m - 1} is the multiplicative inverse of "
                f"{a} modulo {m}, that is, {a}x leaves remainder 1 when divided by {m}?"
            )
        else:
            question = (
                f"What is the smallest positive integer x such that {a}x - {b} is divisible by {m}?"
            )
        distractors = _wrong(x, [m - x, x * 2 % m, a * b % m, (x + m // 2) % m], 1, m - 1)
        meta = {"kind": "linear_congruence", "a": a, "b": b, "modulus": m}
        return {
            "question": question,
            "scorer": "mc",
            "correct": str(x),
            "distractors": distractors,
            "meta": meta,
        }
    m = (rng.choice((23, 29, 31, 37, 41)), rng.randint(30, 90), rng.randint(100, 240))[level]
    r = rng.randrange(2, m) ** 2 % m
    roots = [x for x in range(m) if x * x % m == r]
    if len(roots) < 2 or r in (0, 1):
        return modular(rng, level, variant)
    question = (
        f"List every integer x with 0 <= x < {m} such that x^2 leaves remainder {r} when "
        f"divided by {m}. Give them in increasing order, separated by commas."
    )
    meta = {"kind": "square_roots", "residue": r, "modulus": m}
    return {"question": question, "scorer": "exact", "answer": _list_variants(roots), "meta": meta}


def _list_variants(values: list[int]) -> list[str]:
    plain = [str(v) for v in values]
    return [", ".join(plain), ",".join(plain), " ".join(plain)]


def combinatorics(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        if level == 0:
            s, q = rng.randint(5, 22), rng.choice((2, 4, 5))
            meta: dict[str, Any] = {"kind": "digit_sum", "digits": 3, "sum": s, "divisor": q}
            question = (
                f"How many three-digit positive integers are divisible by {q} and have "
                f"digits that add up to {s}?"
            )
            count = sum(1 for k in range(100, 1000) if sum(map(int, str(k))) == s and k % q == 0)
        elif level == 1:
            d = rng.choice((3, 4, 6, 7, 9, 11))
            meta = {"kind": "distinct_divisible", "digits": 4, "divisor": d}
            question = (
                f"How many four-digit positive integers have four different digits and are "
                f"divisible by {d}?"
            )
            count = sum(1 for k in range(1000, 10_000) if len(set(str(k))) == 4 and k % d == 0)
        else:
            d, q, f = rng.randint(0, 9), rng.choice((3, 4, 6, 7, 8, 9, 11)), rng.randint(2, 8)
            meta = {"kind": "five_digit", "must_contain": d, "sum_divisor": q, "lead_at_least": f}
            question = (
                f"How many five-digit positive integers have a first digit of at least {f}, "
                f"no two equal adjacent digits, contain the digit {d} at least once, and "
                f"have a digit sum divisible by {q}?"
            )
            count = sum(1 for k in range(f * 10_000, 100_000) if _five_digit_ok(str(k), d, q))
        return {"question": question, "scorer": "numeric", "answer": str(count), "meta": meta}
    if variant == 1:
        w, h = rng.randint(3, 5 + level), rng.randint(3, 4 + level)
        cells = [
            (x, y) for x in range(w + 1) for y in range(h + 1) if (x, y) not in ((0, 0), (w, h))
        ]
        blocked = rng.sample(cells, level)
        via = [rng.choice([c for c in cells if c not in blocked])] if level == 2 else []
        count = _paths(w, h, blocked, via)
        if count == 0:
            return combinatorics(rng, level, variant)
        rules = "".join(
            f" The path must not pass through the point {p}." for p in map(tuple, blocked)
        )
        rules += "".join(f" The path must pass through the point {p}." for p in map(tuple, via))
        question = (
            f"A path on the integer grid starts at (0, 0) and ends at ({w}, {h}); each "
            f"step adds 1 to either the x or the y coordinate.{rules} How many such paths "
            f"are there?"
        )
        naive = math.comb(w + h, w)
        distractors = _wrong(
            count, [naive, naive - count, count * 2, math.comb(w + h, w + 1)], 1, 10**9
        )
        meta = {"kind": "lattice", "width": w, "height": h, "blocked": blocked, "via": via}
        return {
            "question": question,
            "scorer": "mc",
            "correct": str(count),
            "distractors": distractors,
            "meta": meta,
        }
    if level < 2:
        letters = rng.sample("BCDFGKLMNPRST", 3)
        counts = rng.choice(((3, 2, 1), (2, 2, 2), (3, 2, 2), (2, 2, 1)))
        word = "".join(ch * c for ch, c in zip(letters, counts, strict=True))
        arrangements = set(itertools.permutations(word))
        if level == 1:
            arrangements = {
                p for p in arrangements if all(a != b for a, b in itertools.pairwise(p))
            }
        rule = " in which no two identical letters are next to each other" if level else ""
        question = (
            f"How many different strings can be made by arranging all the letters of {word}{rule}?"
        )
        meta = {"kind": "arrangements", "letters": word, "no_adjacent_equal": bool(level)}
        return {
            "question": question,
            "scorer": "numeric",
            "answer": str(len(arrangements)),
            "meta": meta,
        }
    people = list(NAMES[: rng.randint(8, 10)])
    k = rng.randint(4, 5)
    pa, pb, pc, pd = rng.sample(people, 4)
    trio = rng.sample([p for p in people if p not in (pa, pb, pc, pd)], 3)
    count = sum(
        1 for team in itertools.combinations(people, k) if _team_ok(set(team), pa, pb, pc, pd, trio)
    )
    question = (
        f"A committee of {k} is chosen from {', '.join(people)}. {pa} and {pb} refuse to "
        f"serve together; {pc} will serve only if {pd} also serves; and at least two of "
        f"{', '.join(trio)} must be on it. How many different committees are possible?"
    )
    meta = {
        "kind": "committee",
        "people": people,
        "size": k,
        "apart": [pa, pb],
        "needs": [pc, pd],
        "at_least_two": trio,
    }
    return {"question": question, "scorer": "numeric", "answer": str(count), "meta": meta}


def _five_digit_ok(text: str, d: int, q: int) -> bool:
    return (
        str(d) in text
        and all(a != b for a, b in itertools.pairwise(text))
        and sum(map(int, text)) % q == 0
    )


def _paths(w: int, h: int, blocked: list, via: list) -> int:
    total = 0
    for xs in itertools.combinations(range(w + h), w):
        x = y = 0
        seen = {(0, 0)}
        for step in range(w + h):
            x, y = (x + 1, y) if step in xs else (x, y + 1)
            seen.add((x, y))
        total += all(tuple(p) not in seen for p in blocked) and all(tuple(p) in seen for p in via)
    return total


def _team_ok(team: set, a: str, b: str, c: str, d: str, trio: list) -> bool:
    return not {a, b} <= team and (c not in team or d in team) and len(team & set(trio)) >= 2


def _urn_value(kind: str, counts: list[int], draw: int, replace: bool) -> Fraction:
    """Probability of the urn event by enumerating labelled balls (ordered when replacing)."""
    balls = [colour for colour, c in enumerate(counts) for _ in range(c)]
    if replace:
        draws = list(itertools.product(range(len(balls)), repeat=draw))
    else:
        draws = list(itertools.combinations(range(len(balls)), draw))
    picked = [[balls[i] for i in d] for d in draws]
    if kind == "both_red":
        hits = [p.count(0) == draw for p in picked]
        return Fraction(sum(hits), len(picked))
    if kind == "one_each":
        return Fraction(sum(sorted(p) == [0, 1, 2] for p in picked), len(picked))
    given = [p for p in picked if 0 in p]
    return Fraction(sum(p.count(0) == 2 for p in given), len(given))


def probability(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        n = rng.choice((6, 8, 10, 12) if level != 1 else (4, 6, 8))
        dice = 3 if level == 1 else 2
        rolls = list(itertools.product(range(1, n + 1), repeat=dice))
        if level == 0 and rng.random() < 0.5:
            s = rng.randint(3, 2 * n - 1)
            meta: dict[str, Any] = {"kind": "dice_sum_eq", "sides": n, "dice": 2, "target": s}
            event = f"the sum is exactly {s}"
            value = Fraction(sum(sum(r) == s for r in rolls), len(rolls))
        elif level == 0:
            s = rng.randint(4, 15)
            meta = {"kind": "dice_product_multiple", "sides": n, "dice": 2, "target": s}
            event = f"the product of the two numbers is a multiple of {s}"
            value = Fraction(sum(r[0] * r[1] % s == 0 for r in rolls), len(rolls))
        elif level == 1:
            s = rng.randint(n + 2, 3 * n - 1)
            meta = {"kind": "dice_sum_ge", "sides": n, "dice": 3, "target": s}
            event = f"the sum is at least {s}"
            value = Fraction(sum(sum(r) >= s for r in rolls), len(rolls))
        else:
            s, k = rng.randint(n, 2 * n - 2), rng.randint(1, n)
            given = [r for r in rolls if sum(r) >= s]
            meta = {"kind": "dice_conditional", "sides": n, "dice": 2, "target": s, "face": k}
            event = f"at least one die shows {k}, given that the sum is at least {s}"
            value = Fraction(sum(k in r for r in given), len(given))
        question = (
            f"{('Two', 'Three')[dice - 2]} fair {n}-sided dice, with faces numbered 1 to {n}, are "
            "rolled. What is "
            f"the probability that {event}?"
        )
        return {
            "question": question,
            "scorer": "numeric",
            "answer": v2.fmt_fraction(value),
            "meta": meta,
        }
    if variant == 1:
        kind, draw = (("both_red", 2), ("one_each", 3), ("two_red_given_red", 4))[level]
        counts = [rng.randint(3, 6) for _ in range(3 if level == 1 else 2)]
        colours = ["red", "blue", "green"][: len(counts)]
        stock = ", ".join(f"{c} {col}" for c, col in zip(counts, colours, strict=True))
        stock = " and".join(stock.rsplit(",", 1))
        event = {
            "both_red": "both balls are red",
            "one_each": "the three balls are all of different colours",
            "two_red_given_red": "exactly two of the balls are red, given that at least "
            "one of them is red",
        }[kind]
        value = _urn_value(kind, counts, draw, replace=False)
        wrong = [_urn_value(kind, counts, draw, replace=True)]
        if kind == "two_red_given_red":
            plain = Fraction(
                math.comb(counts[0], 2) * math.comb(counts[1], 2), math.comb(sum(counts), 4)
            )
            wrong += [plain, plain * 2]
        else:
            wrong += [value / 2, value * Fraction(3, 2), 1 - value]
        texts = list(dict.fromkeys(v2.fmt_fraction(w) for w in wrong if w != value and 0 < w < 1))
        if len(texts) < 3:
            return probability(rng, level, variant)
        question = (
            f"A bag holds {stock} balls. {draw} balls are drawn at random without "
            f"replacement. What is the probability that {event}?"
        )
        meta = {"kind": "urn", "event": kind, "counts": counts, "draw": draw}
        return {
            "question": question,
            "scorer": "mc",
            "correct": v2.fmt_fraction(value),
            "distractors": texts[:3],
            "meta": meta,
        }
    if level == 0:
        prior = Fraction(1, rng.randint(2, 4))
        ra, na, rb, nb = rng.randint(1, 5), rng.randint(6, 9), rng.randint(1, 5), rng.randint(6, 9)
        priors, likes = [prior, 1 - prior], [Fraction(ra, na), Fraction(rb, nb)]
        question = (
            f"Box A holds {ra} red and {na - ra} white balls; box B holds {rb} red and "
            f"{nb - rb} white balls. Box A is chosen with probability {prior} and box B "
            f"otherwise, then one ball is drawn from the chosen box. The ball is red. "
            f"What is the probability that it came from box A?"
        )
    elif level == 1:
        prev = Fraction(1, rng.choice((20, 50, 100, 200)))
        sens, fpr = Fraction(rng.choice((90, 95, 98, 99)), 100), Fraction(rng.randint(2, 10), 100)
        priors, likes = [prev, 1 - prev], [sens, fpr]
        question = (
            f"A condition affects {prev} of a population. A screening test is positive for "
            f"{sens} of people with the condition and for {fpr} of people without it. A "
            f"randomly chosen person tests positive. What is the probability that they "
            f"have the condition?"
        )
    else:
        shares = rng.choice(((50, 30, 20), (45, 35, 20), (40, 35, 25), (60, 25, 15)))
        rates = [rng.randint(1, 6) for _ in range(3)]
        priors = [Fraction(s, 100) for s in shares]
        likes = [Fraction(r, 100) for r in rates]
        parts = ", ".join(
            f"machine {m} makes {s}% of the bolts and {r}% of its bolts are defective"
            for m, s, r in zip("PQR", shares, rates, strict=True)
        )
        question = (
            f"In a factory, {parts}. A randomly chosen bolt is defective. What is the "
            f"probability that machine P made it?"
        )
    value = priors[0] * likes[0] / sum(p * q for p, q in zip(priors, likes, strict=True))
    meta = {
        "kind": "bayes",
        "priors": [str(p) for p in priors],
        "likelihoods": [str(q) for q in likes],
    }
    return {
        "question": question,
        "scorer": "numeric",
        "answer": v2.fmt_fraction(value),
        "meta": meta,
    }


def _digit_step(rule: str, value: int) -> int:
    if rule == "add_digit_sum":
        return value + sum(map(int, str(value)))
    return sum(int(d) ** 2 for d in str(value))


def sequences(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        if level == 0:
            a, p, q, k = (
                rng.randint(1, 9),
                rng.choice((2, 3)),
                rng.randint(-5, 5),
                rng.randint(7, 9),
            )
            terms = [a]
            while len(terms) < k:
                terms.append(p * terms[-1] + q)
            rule = f"a(1) = {a} and a(n+1) = {p}*a(n) {'+' if q >= 0 else '-'} {abs(q)}"
            meta: dict[str, Any] = {"kind": "affine", "first": a, "mul": p, "add": q, "index": k}
        elif level == 1:
            a, b, p, q = (
                rng.randint(1, 5),
                rng.randint(1, 9),
                rng.choice((1, 2, 3)),
                rng.choice((-2, -1, 1, 2)),
            )
            k = rng.randint(10, 13)
            terms = [a, b]
            while len(terms) < k:
                terms.append(p * terms[-1] + q * terms[-2])
            rule = (
                f"a(1) = {a}, a(2) = {b} and a(n+2) = {p}*a(n+1) {'+' if q > 0 else '-'} "
                f"{abs(q)}*a(n)"
            )
            meta = {"kind": "second_order", "first": [a, b], "coefficients": [p, q], "index": k}
        else:
            a, k = rng.randint(10, 99), rng.randint(20, 30)
            terms = [a]
            while len(terms) < k:
                terms.append(_digit_step("add_digit_sum", terms[-1]))
            rule = f"a(1) = {a} and a(n+1) = a(n) + (the sum of the decimal digits of a(n))"
            meta = {"kind": "digit_rule", "rule": "add_digit_sum", "first": a, "index": k}
        question = f"A sequence is defined by {rule}. What is a({k})?"
        return {"question": question, "scorer": "numeric", "answer": str(terms[-1]), "meta": meta}
    if variant == 1:
        a, d = rng.randint(-20, 30), rng.choice([v for v in range(-9, 13) if v not in (0, 1)])
        if level == 0:
            k = rng.randint(50, 250)
            correct = a + (k - 1) * d
            seq = ", ".join(str(a + i * d) for i in range(4))
            question = f"What is the {k}th term of the arithmetic sequence {seq}, ...?"
            meta = {"kind": "nth_term", "first": a, "step": d, "index": k}
            wrong = [a + k * d, a + (k - 2) * d, k * d]
            lo, hi = -(10**9), 10**9
        elif level == 1:
            d, n = abs(d), rng.randint(40, 300)
            last = a + (n - 1) * d
            question = (
                f"How many terms does the arithmetic sequence {a}, {a + d}, {a + 2 * d}, "
                f"..., {last} have?"
            )
            correct, meta = n, {"kind": "term_count", "first": a, "step": d, "last": last}
            wrong, lo, hi = [n - 1, n + 1, (last - a) // d + 2], 1, 10**9
        else:
            a, r, bound = rng.randint(2, 9), rng.randint(2, 5), 10 ** rng.randint(5, 8)
            correct = sum(1 for i in range(200) if a * r**i < bound)
            question = (
                f"How many terms of the geometric sequence {a}, {a * r}, {a * r * r}, ... "
                f"are less than {bound}?"
            )
            meta = {"kind": "geometric_count", "first": a, "ratio": r, "bound": bound}
            wrong, lo, hi = [correct - 1, correct + 1, correct + 2], 1, 10**9
        return {
            "question": question,
            "scorer": "mc",
            "correct": str(correct),
            "distractors": _wrong(correct, wrong, lo, hi),
            "meta": meta,
        }
    if level == 0:
        a = rng.randint(2, 12)
        terms = [a]
        for n in range(1, 8):
            terms.append(2 * terms[-1] - n)
        rule = f"a(1) = {a} and a(n+1) = 2*a(n) - n"
        meta = {"kind": "list_affine_n", "first": a}
        lo = 5
    elif level == 1:
        m, k, c, a = (
            rng.randint(97, 199),
            rng.randint(11, 60),
            rng.randint(1, 50),
            rng.randint(1, 90),
        )
        terms = [a]
        for _ in range(7):
            terms.append((k * terms[-1] + c) % m)
        rule = f"a(1) = {a} and a(n+1) = the remainder of {k}*a(n) + {c} divided by {m}"
        meta = {"kind": "list_lcg", "first": a, "mul": k, "add": c, "modulus": m}
        lo = 4
    else:
        a = rng.randint(100, 999)
        terms = [a]
        for _ in range(8):
            terms.append(_digit_step("digit_squares", terms[-1]))
        rule = f"a(1) = {a} and a(n+1) = the sum of the squares of the decimal digits of a(n)"
        meta = {"kind": "list_digit_squares", "first": a}
        lo = 6
    wanted = terms[lo - 1 : lo + 2]
    meta["from_index"] = lo
    question = (
        f"A sequence is defined by {rule}. Give a({lo}), a({lo + 1}) and a({lo + 2}) in "
        f"that order, separated by commas."
    )
    return {"question": question, "scorer": "exact", "answer": _list_variants(wanted), "meta": meta}


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % p for p in range(2, math.isqrt(n) + 1))


def number_theory(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        if level < 2:
            n = math.prod(rng.choice((2, 2, 3, 3, 5, 7, 11, 13)) for _ in range(rng.randint(4, 6)))
            if not 100 <= n <= 30_000:
                return number_theory(rng, level, variant)
            divisors = [d for d in range(1, n + 1) if n % d == 0]
            what = "number" if level == 0 else "sum"
            value = len(divisors) if level == 0 else sum(divisors)
            question = (
                f"How many positive divisors does {n} have (counting 1 and {n})?"
                if level == 0
                else f"What is the sum of all positive divisors of {n}, including 1 and {n}?"
            )
            meta: dict[str, Any] = {"kind": f"divisor_{what}", "n": n}
        else:
            n, base = rng.randint(40, 150), rng.choice((6, 12, 15, 18, 20, 24, 28, 45))
            value, f = 0, math.factorial(n)
            while f % base == 0:
                f, value = f // base, value + 1
            question = (
                f"When {n}! ({n} factorial) is written in base {base}, how many zeros does "
                f"it end with?"
            )
            meta = {"kind": "factorial_zeros", "n": n, "base": base}
        return {"question": question, "scorer": "numeric", "answer": str(value), "meta": meta}
    if variant == 1:
        top = (300, 2000, 10_000)[level]
        primes = [p for p in range(50, top) if _is_prime(p)]
        hard = [n for n in range(49, top, 2) if not _is_prime(n) and n % 3 and n % 5]
        if level == 2:
            hard = [n for n in hard if min(p for p in range(2, n) if n % p == 0) >= 13]
            odd, rest = rng.choice(hard), rng.sample(primes, 3)
            question = "Which of the following numbers is NOT prime?"
        else:
            odd, rest = rng.choice(primes), rng.sample(hard, 3)
            question = "Which of the following numbers is prime?"
        meta = {"kind": "prime_pick", "odd_one_out": "composite" if level == 2 else "prime"}
        return {
            "question": question,
            "scorer": "mc",
            "correct": str(odd),
            "distractors": [str(v) for v in rest],
            "meta": meta,
        }
    periods = sorted(rng.sample(range(4, 31), 3 if level == 1 else 2))
    if level == 0:
        value = math.lcm(*periods)
        question = (
            f"Two lighthouses flash every {periods[0]} and every {periods[1]} seconds. They "
            f"flash together right now. After how many seconds will they next flash "
            f"together?"
        )
        meta = {"kind": "lcm_next", "periods": periods}
    elif level == 1:
        minutes = rng.randint(10, 90)
        value = minutes * 60 // math.lcm(*periods)
        question = (
            f"Three lighthouses flash every {periods[0]}, {periods[1]} and {periods[2]} "
            f"seconds, and they all flash together right now. How many more times will "
            f"all three flash together within the next {minutes} minutes (a joint flash "
            f"exactly at the end counts)?"
        )
        meta = {"kind": "lcm_count", "periods": periods, "minutes": minutes}
    else:
        offsets = [rng.randint(1, p - 1) for p in periods]
        horizon = math.lcm(*periods) + max(offsets)
        times = [
            t
            for t in range(horizon)
            if all(t >= o and (t - o) % p == 0 for o, p in zip(offsets, periods, strict=True))
        ]
        if not times or times[0] == math.lcm(*periods):
            return number_theory(rng, level, variant)
        value = times[0]
        question = (
            f"Lamp A first blinks {offsets[0]} seconds after a switch is thrown and then "
            f"every {periods[0]} seconds; lamp B first blinks after {offsets[1]} seconds "
            f"and then every {periods[1]} seconds. How many seconds after the switch is "
            f"thrown do both lamps first blink at the same moment?"
        )
        meta = {"kind": "offset_sync", "periods": periods, "offsets": offsets}
    return {"question": question, "scorer": "numeric", "answer": str(value), "meta": meta}


BUILDERS: dict[str, Callable[[random.Random, int, int], Item]] = {
    "linear_systems": linear_systems,
    "modular": modular,
    "combinatorics": combinatorics,
    "probability": probability,
    "sequences": sequences,
    "number_theory": number_theory,
}


def _suffix(category: str, item: dict[str, Any]) -> str:
    """Answer-line instruction for non-mc items: probabilities are asked as exact fractions."""
    if item["scorer"] == "exact":
        return v2.exact_suffix("the comma-separated values")
    return v2.FRACTION_SUFFIX if category == "probability" else v2.NUMERIC_SUFFIX


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: category cycles fastest, then difficulty, then the category's template."""
    category, level, variant = v2.cell(idx, CATEGORIES)
    item = BUILDERS[category](rng, level, variant)
    suffix = functools.partial(_suffix, category)
    return v2.item_row(rng, f"math2-{idx + 1:04d}", category, level, item, suffix)


# ---- proofs: each recomputes the answer by a route other than the builder's -------------------


def _cycle_power(base: int, exponent: int, modulus: int) -> int:
    """base**exponent mod modulus by finding the cycle of successive powers (no pow())."""
    seen: dict[int, int] = {}
    values: list[int] = []
    current = 1 % modulus
    while current not in seen:
        seen[current] = len(values)
        values.append(current)
        current = current * base % modulus
    start = seen[current]
    if exponent < len(values):
        return values[exponent]
    return values[start + (exponent - start) % (len(values) - start)]


def _crt(moduli: list[int], remainders: list[int]) -> int:
    total, product = 0, math.prod(moduli)
    for m, r in zip(moduli, remainders, strict=True):
        rest = product // m
        total += r * rest * pow(rest, -1, m)
    return total % product or product


def _count_paths(meta: dict[str, Any]) -> int:
    w, h = meta["width"], meta["height"]
    blocked = {tuple(p) for p in meta["blocked"]}

    def table(start: tuple[int, int], end: tuple[int, int]) -> int:
        ways = {start: 1}
        for x in range(start[0], end[0] + 1):
            for y in range(start[1], end[1] + 1):
                if (x, y) != start:
                    ways[(x, y)] = (
                        0
                        if (x, y) in blocked
                        else (ways.get((x - 1, y), 0) + ways.get((x, y - 1), 0))
                    )
        return ways.get(end, 0)

    points = [(0, 0), *(tuple(p) for p in meta["via"]), (w, h)]
    return math.prod(table(a, b) for a, b in itertools.pairwise(points))


def _no_adjacent(counts: dict[str, int], last: str) -> int:
    if not any(counts.values()):
        return 1
    total = 0
    for letter, left in sorted(counts.items()):
        if left and letter != last:
            counts[letter] -= 1
            total += _no_adjacent(counts, letter)
            counts[letter] += 1
    return total


def _dice_distribution(sides: int, dice: int) -> dict[int, int]:
    dist = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, ways in dist.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        dist = nxt
    return dist


def _factorise(n: int) -> dict[int, int]:
    factors: dict[int, int] = {}
    p = 2
    while p * p <= n:
        while n % p == 0:
            factors[p], n = factors.get(p, 0) + 1, n // p
        p += 1
    if n > 1:
        factors[n] = factors.get(n, 0) + 1
    return factors


def _expected(meta: dict[str, Any]) -> str:
    """The answer recomputed from ``meta`` (as the first accepted string of the row)."""
    kind = meta["kind"]
    if kind in ("word_problem", "system_choice", "system_solve"):
        sol = _solve(meta["matrix"], meta["rhs"])
        assert all(v.denominator == 1 for v in sol), sol
        if kind == "word_problem":
            return str(sum(w * int(v) for w, v in zip(meta["weights"], sol, strict=True)))
        if kind == "system_solve":
            return ", ".join(str(int(v)) for v in sol)
        return ", ".join(f"{k} = {int(v)}" for k, v in zip("xyzw", sol, strict=False))
    if kind == "power":
        return str(_cycle_power(meta["base"], meta["exponent"], meta["modulus"]))
    if kind == "crt":
        return str(_crt(meta["moduli"], meta["remainders"]))
    if kind == "linear_congruence":
        a, b, m = meta["a"], meta["b"], meta["modulus"]
        (x,) = [x for x in range(1, m) if (a * x - b) % m == 0]
        return str(x)
    if kind == "square_roots":
        m, r = meta["modulus"], meta["residue"]
        return ", ".join(str(x) for x in range(m) if (x * x - r) % m == 0)
    if kind == "digit_sum":
        q = meta["divisor"]
        ways = {(0, 0): 1}  # (digit sum, value mod q) -> count, building the number left to right
        for position in range(3):
            grown: dict[tuple[int, int], int] = {}
            for (total, mod), count in ways.items():
                for d in range(1 if position == 0 else 0, 10):
                    key = (total + d, (mod * 10 + d) % q)
                    grown[key] = grown.get(key, 0) + count
            ways = grown
        return str(ways.get((meta["sum"], 0), 0))
    if kind == "distinct_divisible":
        return str(
            sum(
                1
                for p in itertools.permutations("0123456789", 4)
                if p[0] != "0" and int("".join(p)) % meta["divisor"] == 0
            )
        )
    if kind == "five_digit":
        d, q = meta["must_contain"], meta["sum_divisor"]
        states = {(f, f == d, f % q): 1 for f in range(meta["lead_at_least"], 10)}
        for _ in range(4):
            nxt: dict[tuple[int, bool, int], int] = {}
            for (last, has, mod), paths in states.items():
                for f in range(10):
                    if f != last:
                        state = (f, has or f == d, (mod + f) % q)
                        nxt[state] = nxt.get(state, 0) + paths
            states = nxt
        return str(sum(w for (_, has, mod), w in states.items() if has and mod == 0))
    if kind == "lattice":
        return str(_count_paths(meta))
    if kind == "arrangements":
        letters = meta["letters"]
        counts = {ch: letters.count(ch) for ch in sorted(set(letters))}
        if meta["no_adjacent_equal"]:
            return str(_no_adjacent(counts, ""))
        return str(math.factorial(len(letters)) // math.prod(map(math.factorial, counts.values())))
    if kind == "committee":
        people, apart, needs, trio = (
            meta["people"],
            meta["apart"],
            meta["needs"],
            meta["at_least_two"],
        )
        bit = {p: 1 << i for i, p in enumerate(people)}
        good = 0
        for mask in range(1 << len(people)):
            if mask.bit_count() != meta["size"]:
                continue
            has = {p: bool(mask & bit[p]) for p in people}
            good += (
                not (has[apart[0]] and has[apart[1]])
                and (has[needs[1]] or not has[needs[0]])
                and sum(has[p] for p in trio) >= 2
            )
        return str(good)
    if kind.startswith("dice_"):
        n, dice, s = meta["sides"], meta["dice"], meta["target"]
        dist, total = _dice_distribution(n, dice), n**dice
        if kind == "dice_sum_eq":
            return v2.fmt_fraction(Fraction(dist.get(s, 0), total))
        if kind == "dice_product_multiple":
            hits = sum(1 for a in range(1, n + 1) for b in range(1, n + 1) if (a * b) % s == 0)
            return v2.fmt_fraction(Fraction(hits, total))
        if kind == "dice_sum_ge":
            return v2.fmt_fraction(Fraction(sum(w for t, w in dist.items() if t >= s), total))
        k = meta["face"]
        given = sum(w for t, w in dist.items() if t >= s)
        both = sum(
            1 for a in range(1, n + 1) for b in range(1, n + 1) if a + b >= s and k in (a, b)
        )
        return v2.fmt_fraction(Fraction(both, given))
    if kind == "urn":
        c, comb = meta["counts"], math.comb
        n = sum(c)
        if meta["event"] == "both_red":
            return v2.fmt_fraction(Fraction(comb(c[0], 2), comb(n, 2)))
        if meta["event"] == "one_each":
            return v2.fmt_fraction(Fraction(c[0] * c[1] * c[2], comb(n, 3)))
        two = Fraction(comb(c[0], 2) * comb(c[1], 2), comb(n, 4))
        return v2.fmt_fraction(two / (1 - Fraction(comb(c[1], 4), comb(n, 4))))
    if kind == "bayes":
        priors = [Fraction(p) for p in meta["priors"]]
        likes = [Fraction(q) for q in meta["likelihoods"]]
        size = math.lcm(
            *(p.denominator * q.denominator for p, q in zip(priors, likes, strict=True))
        )
        people = [int(size * p * q) for p, q in zip(priors, likes, strict=True)]
        return v2.fmt_fraction(Fraction(people[0], sum(people)))
    if kind == "affine":
        value = meta["first"]
        for _ in range(meta["index"] - 1):
            value = meta["mul"] * value + meta["add"]
        return str(value)
    if kind == "second_order":
        (p, q), (a, b) = meta["coefficients"], meta["first"]
        for _ in range(meta["index"] - 2):
            a, b = b, p * b + q * a
        return str(b)
    if kind == "digit_rule":
        value = meta["first"]
        for _ in range(meta["index"] - 1):
            rest, total = value, 0
            while rest:
                rest, digit = divmod(rest, 10)
                total += digit
            value += total
        return str(value)
    if kind == "nth_term":
        return str(meta["first"] + (meta["index"] - 1) * meta["step"])
    if kind == "term_count":
        return str((meta["last"] - meta["first"]) // meta["step"] + 1)
    if kind == "geometric_count":
        count, term = 0, meta["first"]
        while term < meta["bound"]:
            count, term = count + 1, term * meta["ratio"]
        return str(count)
    if kind.startswith("list_"):
        terms = [meta["first"]]
        while len(terms) < meta["from_index"] + 2:
            n, a = len(terms), terms[-1]
            if kind == "list_affine_n":
                terms.append(2 * a - n)
            elif kind == "list_lcg":
                terms.append((meta["mul"] * a + meta["add"]) % meta["modulus"])
            else:
                terms.append(sum(int(ch) * int(ch) for ch in str(a)))
        return ", ".join(str(t) for t in terms[meta["from_index"] - 1 :])
    if kind in ("divisor_number", "divisor_sum"):
        factors = _factorise(meta["n"])
        if kind == "divisor_number":
            return str(math.prod(e + 1 for e in factors.values()))
        return str(math.prod((p ** (e + 1) - 1) // (p - 1) for p, e in factors.items()))
    if kind == "factorial_zeros":
        n = meta["n"]
        legendre = {}
        for p in _factorise(meta["base"]):
            legendre[p], power = 0, p
            while power <= n:
                legendre[p], power = legendre[p] + n // power, power * p
        return str(min(legendre[p] // e for p, e in _factorise(meta["base"]).items()))
    if kind == "lcm_next":
        a, b = meta["periods"]
        return str(next(t for t in itertools.count(1) if t % a == 0 and t % b == 0))
    if kind == "lcm_count":
        horizon = meta["minutes"] * 60
        return str(
            sum(1 for t in range(1, horizon + 1) if all(t % p == 0 for p in meta["periods"]))
        )
    if kind == "offset_sync":
        (pa, pb), (oa, ob) = meta["periods"], meta["offsets"]
        return str(next(t for t in itertools.count(oa, pa) if t >= ob and (t - ob) % pb == 0))
    raise AssertionError(f"no proof for {kind}")


def prove(row: dict[str, Any]) -> None:
    meta, rid = row["meta"], row["id"]
    if meta["kind"] == "prime_pick":
        correct = v2.check_mc_layout(row)
        composite = [c for c in row["choices"] if _factorise(int(c)) != {int(c): 1}]
        odd = (
            composite
            if meta["odd_one_out"] == "composite"
            else [c for c in row["choices"] if c not in composite]
        )
        assert odd == [correct], rid
        return
    expected = _expected(meta)
    if row["scorer"] == "numeric":
        assert row["answer"] == expected, (rid, row["answer"], expected)
    elif row["scorer"] == "exact":
        assert row["answer"][0] == expected, (rid, row["answer"], expected)
    else:
        assert v2.check_mc_layout(row) == expected, (rid, expected)
        if meta["kind"] == "system_choice":
            for choice in row["choices"]:
                values = [int(part.split("=")[1]) for part in choice.split(",")]
                fits = [
                    sum(a * v for a, v in zip(eq, values, strict=True)) == b
                    for eq, b in zip(meta["matrix"], meta["rhs"], strict=True)
                ]
                assert all(fits) == (choice == expected), (rid, choice)
        else:
            assert len({Fraction(c) for c in row["choices"]}) == len(row["choices"]), rid


def prove_all(rows: list[dict[str, Any]]) -> None:
    v2.check_suite(rows, CATEGORIES)


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
