"""Sequences for eval-math-v2 and -v3: recurrences, arithmetic and geometric sequences (with
their off-by-one traps) and terms of rule-defined lists; proofs by stepping each rule again.
Moved here from the eval-math-v2 generator, unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from families.math.base import Item, list_variants, wrong_options


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
            "distractors": wrong_options(correct, wrong, lo, hi),
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
    return {"question": question, "scorer": "exact", "answer": list_variants(wanted), "meta": meta}


# ---- proofs -----------------------------------------------------------------------------------
def _affine(meta: dict[str, Any]) -> str:
    """a(k) by stepping the recurrence."""
    value = meta["first"]
    for _ in range(meta["index"] - 1):
        value = meta["mul"] * value + meta["add"]
    return str(value)


def _second_order(meta: dict[str, Any]) -> str:
    """a(k) by stepping the two-term recurrence."""
    (p, q), (a, b) = meta["coefficients"], meta["first"]
    for _ in range(meta["index"] - 2):
        a, b = b, p * b + q * a
    return str(b)


def _digit_rule(meta: dict[str, Any]) -> str:
    """a(k) by adding digit sums, digit by digit."""
    value = meta["first"]
    for _ in range(meta["index"] - 1):
        rest, total = value, 0
        while rest:
            rest, digit = divmod(rest, 10)
            total += digit
        value += total
    return str(value)


def _nth_term(meta: dict[str, Any]) -> str:
    """The closed form of the arithmetic sequence."""
    return str(meta["first"] + (meta["index"] - 1) * meta["step"])


def _term_count(meta: dict[str, Any]) -> str:
    """The number of terms of the arithmetic sequence."""
    return str((meta["last"] - meta["first"]) // meta["step"] + 1)


def _geometric_count(meta: dict[str, Any]) -> str:
    """Terms below the bound, by multiplying."""
    count, term = 0, meta["first"]
    while term < meta["bound"]:
        count, term = count + 1, term * meta["ratio"]
    return str(count)


def _listed(meta: dict[str, Any]) -> str:
    """The asked terms of a rule-defined list."""
    kind = meta["kind"]
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


EXPECTED: dict[str, Callable[[dict[str, Any]], str]] = {
    "affine": _affine,
    "second_order": _second_order,
    "digit_rule": _digit_rule,
    "nth_term": _nth_term,
    "term_count": _term_count,
    "geometric_count": _geometric_count,
    "list_affine_n": _listed,
    "list_lcg": _listed,
    "list_digit_squares": _listed,
}
