"""The arithmetic suite of eval-math-v1 (and -v4): four categories at three levels, each row
built from an expression (``build``) and proved by exact rational evaluation (``evaluate``),
independently of Python's ``eval`` that computed the answer.
"""

from __future__ import annotations

import ast
import random
from fractions import Fraction
from typing import Any

from common import lib

CATEGORIES = ("arithmetic", "fractions", "percentages", "word_problems")
DIFFICULTIES = ("easy", "medium", "hard")
SUFFIX = "\n\nWork it out, then give the result on the last line as 'Answer: <number>'."
NAMES = (
    "Ama",
    "Bruno",
    "Chen",
    "Dara",
    "Elif",
    "Femi",
    "Goran",
    "Hana",
    "Ines",
    "Jonas",
    "Kofi",
    "Lena",
    "Mateo",
    "Nour",
    "Oskar",
    "Priya",
    "Quinn",
    "Rosa",
    "Sami",
    "Tomas",
)
ITEMS = (
    ("pencils", "box", "boxes"),
    ("apples", "crate", "crates"),
    ("stamps", "album", "albums"),
    ("bolts", "bag", "bags"),
    ("tiles", "pack", "packs"),
    ("cards", "deck", "decks"),
)


def fmt(value: Fraction) -> str:
    """Integers as integers, other values as a fraction in lowest terms."""
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def _arithmetic(rng: random.Random, level: int) -> tuple[str, str]:
    if level == 0:
        a, b, c = rng.randint(2, 60), rng.randint(2, 60), rng.randint(2, 9)
        expr = f"{a} + {b} * {c}"
    elif level == 1:
        a, b, c, d = (
            rng.randint(100, 999),
            rng.randint(10, 99),
            rng.randint(2, 30),
            rng.randint(2, 9),
        )
        expr = f"({a} - {b}) * {c} - {d}"
    else:
        a, b, c, d = (
            rng.randint(1000, 9999),
            rng.randint(11, 99),
            rng.randint(-500, -20),
            rng.randint(3, 12),
        )
        expr = f"{a} * {b} + ({c}) * {d} - {b * d}"
    return f"Compute {expr}.", expr


def _fractions(rng: random.Random, level: int) -> tuple[str, str]:
    dens = (2, 3, 4, 5, 6, 8, 10, 12) if level < 2 else (3, 7, 9, 11, 13, 15)
    a, b = rng.choice(dens), rng.choice(dens)
    n, m = rng.randint(1, a * 2), rng.randint(1, b * 2)
    if level == 0:
        expr = f"{n}/{a} + {m}/{b}"
    elif level == 1:
        expr = f"{n}/{a} * {m}/{b} - 1/{rng.choice(dens)}"
    else:
        c = rng.choice(dens)
        expr = f"({n}/{a} - {m}/{b}) / ({rng.randint(1, 9)}/{c})"
    question = (
        f"Compute {expr} and write the result as a fraction in lowest terms (or a whole number)."
    )
    return question, expr


def _percentages(rng: random.Random, level: int) -> tuple[str, str]:
    if level == 0:
        p, base = rng.choice((10, 20, 25, 50, 75)), rng.randint(2, 40) * 4
        return f"What is {p}% of {base}?", f"{p} * {base} / 100"
    if level == 1:
        p, base = rng.randint(3, 40), rng.randint(5, 90) * 20
        return (
            f"A price of {base} rises by {p}%. What is the new price?",
            f"{base} * (100 + {p}) / 100",
        )
    up, down, base = rng.randint(5, 40), rng.randint(5, 40), rng.randint(4, 50) * 100
    question = (
        f"A quantity of {base} increases by {up}% and the result then decreases by {down}%. "
        "What is the final quantity?"
    )
    return question, f"{base} * (100 + {up}) / 100 * (100 - {down}) / 100"


def _word_problem(rng: random.Random, level: int) -> tuple[str, str]:
    who = rng.choice(NAMES)
    thing, unit, units = rng.choice(ITEMS)
    per, count = rng.randint(6, 24), rng.randint(3, 15)
    if level == 0:
        return (
            f"{who} has {count} {units} of {thing} with {per} {thing} in each {unit}. "
            f"How many {thing} does {who} have?"
        ), f"{count} * {per}"
    given = rng.randint(1, count - 1)
    if level == 1:
        loose = rng.randint(1, per - 1)
        return (
            f"{who} has {count} {units} of {thing}, {per} per {unit}, plus {loose} loose {thing}. "
            f"{who} gives away {given} full {units}. How many {thing} are left?"
        ), f"{count} * {per} + {loose} - {given} * {per}"
    price, share = rng.randint(2, 9), rng.randint(2, 5)
    return (
        f"{who} buys {count} {units} of {thing} at {price} euros per {unit}, returns {given} of "
        f"the {units} for a full refund, and splits the remaining cost equally with {share - 1} "
        f"friend{'s' if share > 2 else ''}. How many euros does each person pay? "
        "Give an exact value."
    ), f"({count} - {given}) * {price} / {share}"


BUILDERS = {
    "arithmetic": _arithmetic,
    "fractions": _fractions,
    "percentages": _percentages,
    "word_problems": _word_problem,
}


def evaluate(expr: str) -> Fraction:
    """Exact evaluation of + - * / and parentheses over integer literals (the proof's evaluator)."""

    def walk(node: ast.AST) -> Fraction:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return Fraction(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -walk(node.operand)
        if isinstance(node, ast.BinOp):
            left, right = walk(node.left), walk(node.right)
            ops = {
                ast.Add: left.__add__,
                ast.Sub: left.__sub__,
                ast.Mult: left.__mul__,
                ast.Div: left.__truediv__,
            }
            return ops[type(node.op)](right)
        raise ValueError(f"unsupported syntax in {expr!r}")

    return walk(ast.parse(expr, mode="eval"))


def build(rng: random.Random, idx: int) -> tuple[str, str, int, str, str]:
    """Row ``idx``'s category, level, prompt, expression and answer (the v1 layout: the category
    cycles fastest, then the difficulty)."""
    category = CATEGORIES[idx % len(CATEGORIES)]
    level = (idx // len(CATEGORIES)) % len(DIFFICULTIES)
    question, expr = BUILDERS[category](rng, level)
    value = Fraction(eval(expr, {"__builtins__": {}}, {})).limit_denominator(10**9)  # noqa: S307
    return category, level, question + SUFFIX, expr, fmt(value)


def check_answer(row: dict[str, Any]) -> None:
    """A row's proof: its expression re-evaluated exactly gives its answer."""
    assert fmt(evaluate(row["meta"]["expression"])) == row["answer"], row["id"]


def check_suite(rows: list[dict[str, Any]]) -> None:
    """Unique prompts, and every category at every level."""
    lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    seen = {(r["category"], r["difficulty"]) for r in rows}
    assert len(seen) == len(CATEGORIES) * len(DIFFICULTIES), seen
