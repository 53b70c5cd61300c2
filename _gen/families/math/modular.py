"""Modular arithmetic for eval-math-v2 and -v3: huge powers, the Chinese remainder theorem,
inverses and linear congruences, square roots modulo m; proofs by cycle finding, the CRT
formula and exhaustive search. Moved here from the eval-math-v2 generator, unchanged.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from families.math.base import NAMES, Item, list_variants, wrong_options


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
        distractors = wrong_options(x, [m - x, x * 2 % m, a * b % m, (x + m // 2) % m], 1, m - 1)
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
    return {"question": question, "scorer": "exact", "answer": list_variants(roots), "meta": meta}


# ---- proofs -----------------------------------------------------------------------------------
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


def _power(meta: dict[str, Any]) -> str:
    """The remainder of the power, by its cycle."""
    return str(_cycle_power(meta["base"], meta["exponent"], meta["modulus"]))


def _crt_answer(meta: dict[str, Any]) -> str:
    """The pile size, by the CRT formula."""
    return str(_crt(meta["moduli"], meta["remainders"]))


def _congruence(meta: dict[str, Any]) -> str:
    """The one solution, by search."""
    a, b, m = meta["a"], meta["b"], meta["modulus"]
    (x,) = [x for x in range(1, m) if (a * x - b) % m == 0]
    return str(x)


def _roots(meta: dict[str, Any]) -> str:
    """Every square root, by search."""
    m, r = meta["modulus"], meta["residue"]
    return ", ".join(str(x) for x in range(m) if (x * x - r) % m == 0)


EXPECTED: dict[str, Callable[[dict[str, Any]], str]] = {
    "power": _power,
    "crt": _crt_answer,
    "linear_congruence": _congruence,
    "square_roots": _roots,
}
