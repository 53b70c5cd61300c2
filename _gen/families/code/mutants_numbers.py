"""eval-code-v3: the number-theory families of eval-code-v1 (``numbers``) with their mutants and
the hidden inputs that kill them (see ``mutation``).

primes_mod is code2-0019's defect: no -v2 range held 2, so a solution that tries odd numbers only
passed. Here every row is the variant whose residue class holds the even prime (remainder 2 mod
5), and a hidden range holds 2.
"""

from __future__ import annotations

import random

from families.code import numbers
from families.code.base import src
from families.code.mutation import Strong, edit, param, strengthen

#: The primes_mod variant (p % 5 == 2) whose class holds 2, so skipping 2 is always a slip.
PRIMES_MOD_VARIANT = 2


def digit_sum_base(rng: random.Random, v: int) -> Strong:
    t = numbers.digit_sum_base(rng, v)
    base = (2, 3, 5, 7, 9)[v]
    near = base + 1 if base != 9 else base - 1  # base 10 is the -v2 wrong solution already
    return strengthen(
        t,
        [(rng.randint(10**3, 10**5),)],
        [
            ("base 10", t.wrong),
            (
                "counts the digits instead of adding them",
                edit(t.reference, ("total += digit", "total += 1")),
            ),
            (f"base {near}", edit(t.reference, (f"divmod(n, {base})", f"divmod(n, {near})"))),
            (
                "stops before the leading digit",
                edit(t.reference, ("while n > 0", f"while n >= {base}")),
            ),
        ],
    )


def count_multiples(rng: random.Random, v: int) -> Strong:
    t = numbers.count_multiples(rng, v)
    a = int(param(t.reference, r"upto\(hi, (\d+)\) \+"))
    b = int(param(t.reference, r"\+ upto\(hi, (\d+)\)"))

    def loop(start: str, stop: str, test: str) -> str:
        return src(f"""
            def count_multiples(lo: int, hi: int) -> int:
                return sum(1 for x in range({start}, {stop}) if {test})
        """)

    either = f"x % {a} == 0 or x % {b} == 0"
    lo = rng.randint(-60, 60)
    # -v2's reference counted the multiples below hi minus those below lo, which is negative
    # when lo > hi + 1 (its only such test was lo = hi + 1); the statement says 0.
    guarded = edit(t.reference, ("    def upto", "    if lo > hi:\n        return 0\n    def upto"))
    return strengthen(
        t,
        [(-7, 7), (10, 2), (lo, lo + rng.randint(20, 90))],
        [
            ("counts the common multiples twice", t.wrong),
            ("a negative count when lo is above hi", t.reference),
            ("leaves out hi", loop("lo", "hi", either)),
            ("leaves out lo", loop("lo + 1", "hi + 1", either)),
            (
                f"multiples of both {a} and {b}",
                loop("lo", "hi + 1", either.replace(" or ", " and ")),
            ),
            ("starts at 1 (no zero or negatives)", loop("max(lo, 1)", "hi + 1", either)),
        ],
        reference=guarded,
    )


def recurrence(rng: random.Random, v: int) -> Strong:
    t = numbers.recurrence(rng, v)
    while len({expected for _, expected in t.cases}) < len(t.cases) - 1:
        t = numbers.recurrence(rng, v)  # a(0) = a(1) and p + q = 1: a constant sequence
    x, y = param(t.reference, r"a, b = (-?\d+), "), param(t.reference, r"a, b = -?\d+, (-?\d+)")
    p, q = param(t.reference, r"b, (\d+) \* b"), param(t.reference, r"\+ \((-?\d+)\) \* a")
    return strengthen(
        t,
        [(rng.randint(3, 9),), (rng.randint(13, 25),)],
        [
            ("one step behind from n = 1", None if x == y else t.wrong),  # same when a(0) = a(1)
            ("returns a(n + 1)", edit(t.reference, ("    return a\n", "    return b\n"))),
            ("returns a(n - 1)", edit(t.reference, ("range(n)", "range(n - 1)"))),
            (
                "the second term with the opposite sign",
                edit(t.reference, (f"({q}) * a", f"({-int(q)}) * a")),
            ),
            (
                "swaps a(0) and a(1)",
                None if x == y else edit(t.reference, (f"a, b = {x}, {y}", f"a, b = {y}, {x}")),
            ),
            (
                "swaps the two coefficients",
                None
                if p == q
                else edit(t.reference, (f"{p} * b + ({q}) * a", f"({q}) * b + {p} * a")),
            ),
        ],
    )


def to_base(rng: random.Random, v: int) -> Strong:
    t = numbers.to_base(rng, v)
    base = (3, 6, 8, 12, 16)[v]
    prefixed = {8: "oct", 16: "hex"}.get(base)
    return strengthen(
        t,
        [(base * base - 1,), (rng.randint(10**4, 10**6),)],
        [
            ("'' for 0", t.wrong),
            (
                "least significant digit first",
                edit(t.reference, ("out = digits[d] + out", "out = out + digits[d]")),
            ),
            (
                f"base {base + 1}",
                edit(t.reference, (f"divmod(n, {base})", f"divmod(n, {base + 1})")),
            ),
            (
                "capital letter digits",
                None
                if base <= 10
                else edit(t.reference, ('"0123456789abcdef"', '"0123456789ABCDEF"')),
            ),
            (
                f"keeps the prefix of {prefixed}()",
                None
                if prefixed is None
                else src(f"""
                    def to_base(n: int) -> str:
                        return {prefixed}(n)
                """),
            ),
        ],
    )


def primes_mod(rng: random.Random, v: int) -> Strong:
    t = numbers.primes_mod(rng, PRIMES_MOD_VARIANT)
    odd_only = edit(
        t.reference,
        ("sum(1 for p in range(lo, hi + 1)", "sum(1 for p in range(max(lo, 3) | 1, hi + 1, 2)"),
    )
    lo = rng.randint(3, 200)
    return strengthen(
        t,
        [(2, 60), (1, 2), (lo, lo + rng.randint(50, 300))],
        [
            ("leaves out hi", t.wrong),
            ("leaves out lo", edit(t.reference, ("range(lo, hi + 1)", "range(lo + 1, hi + 1)"))),
            (
                "ignores lo (counts from 2)",
                edit(t.reference, ("range(lo, hi + 1)", "range(2, hi + 1)")),
            ),
            ("forgets that p must be prime", edit(t.reference, (" and is_prime(p))", ")"))),
            ("tries odd numbers only (skips the even prime 2)", odd_only),
        ],
    )


def base_palindromes(rng: random.Random, v: int) -> Strong:
    t = numbers.base_palindromes(rng, v)
    base = (2, 3, 4, 5, 7)[v]
    return strengthen(
        t,
        [(base**3 + base**2,), (rng.randint(100, 2000),)],
        [
            ("leaves out n", t.wrong),
            ("base 10", edit(t.reference, (f"% {base})", "% 10)"), (f"//= {base}", "//= 10"))),
            ("counts 0 too", edit(t.reference, ("range(1, n + 1)", "range(0, n + 1)"))),
            (
                "compares the first and last digits only",
                edit(t.reference, ("digits == digits[::-1]", "digits[0] == digits[-1]")),
            ),
        ],
    )


FAMILIES = [digit_sum_base, count_multiples, recurrence, to_base, primes_mod, base_palindromes]
