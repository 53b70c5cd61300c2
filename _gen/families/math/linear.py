"""Linear systems for eval-math-v2 and -v3: word problems with a distractor sentence, choosing
the assignment that solves a system, and solving one (exact rows); proofs by Gauss-Jordan
elimination over the rationals. Moved here from the eval-math-v2 generator, unchanged.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from families.math.base import NAMES, THEMES, Item, tuple_variants


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


def solve(matrix: list[list[int]], rhs: list[int]) -> list[Fraction]:
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


def system(rng: random.Random, n: int, lo: int, hi: int, sol: list[int]) -> tuple[list, list]:
    while True:
        matrix = [[rng.randint(lo, hi) for _ in range(n)] for _ in range(n)]
        if _det(matrix) != 0 and all(sum(1 for v in row if v) >= 2 for row in matrix):
            rhs = [sum(a * x for a, x in zip(row, sol, strict=True)) for row in matrix]
            return matrix, rhs


def equation(row: list[int], rhs: int) -> str:
    terms: list[str] = []
    for coef, var in zip(row, "xyzw", strict=False):
        if coef:
            mag = "" if abs(coef) == 1 else str(abs(coef))
            sign = ("-" if coef < 0 else "") if not terms else ("- " if coef < 0 else "+ ")
            terms.append(f"{sign}{mag}{var}")
    return " ".join(terms) + f" = {rhs}"


def linear_systems(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:  # word problem, positive prices, distractor sentence on hard
        shop, items, unit = rng.choice(THEMES)
        n = 2 if level == 0 else 3
        prices = [rng.randint(3, 40) * (5 if unit == "cents" else 1) for _ in range(n)]
        matrix, rhs = system(rng, n, 0, 5, prices)
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
    matrix, rhs = system(rng, n, -span, span, sol)
    eqs = "\n".join(equation(row, b) for row, b in zip(matrix, rhs, strict=True))
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
    return {"question": question, "scorer": "exact", "answer": tuple_variants(sol), "meta": meta}


# ---- proofs -----------------------------------------------------------------------------------
def _system_answer(meta: dict[str, Any]) -> str:
    """The answer from the solved system."""
    kind = meta["kind"]
    sol = solve(meta["matrix"], meta["rhs"])
    assert all(v.denominator == 1 for v in sol), sol
    if kind == "word_problem":
        return str(sum(w * int(v) for w, v in zip(meta["weights"], sol, strict=True)))
    if kind == "system_solve":
        return ", ".join(str(int(v)) for v in sol)
    return ", ".join(f"{k} = {int(v)}" for k, v in zip("xyzw", sol, strict=False))


EXPECTED: dict[str, Callable[[dict[str, Any]], str]] = {
    "word_problem": _system_answer,
    "system_choice": _system_answer,
    "system_solve": _system_answer,
}
