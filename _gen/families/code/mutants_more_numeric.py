"""eval-code-v3: the list and number-theory families eval-code-v2 added (``more_numeric``) with
their mutants and the hidden inputs that kill them (see ``mutation``).
"""

from __future__ import annotations

import random

from families.code import more_numeric
from families.code.base import ints, src
from families.code.mutation import Strong, edit, param, strengthen


def dedupe(rng: random.Random, v: int) -> Strong:
    t = more_numeric.dedupe(rng, v)
    last = t.entry == "dedupe_keep_last"
    head = f"def {t.entry}(xs: list[int]) -> list[int]:\n"
    return strengthen(
        t,
        [([3, 1, 3, 2],), (ints(rng, 10, 0, 4),)],
        [
            ("keeps the other occurrence", t.wrong),
            ("sorted, not in order", head + "    return sorted(set(xs))\n"),
            (
                "keeps only the values that occur once",
                head + "    return [x for x in xs if xs.count(x) == 1]\n",
            ),
            (
                "drops only adjacent repeats",
                head + "    return [x for i, x in enumerate(xs) if i == 0 or xs[i - 1] != x]\n",
            ),
            (
                "lists the kept values from the end",
                edit(t.reference, ("return out[::-1]", "return out")) if last else None,
            ),
        ],
    )


def longest_run(rng: random.Random, v: int) -> Strong:
    t = more_numeric.longest_run(rng, v)
    op = param(t.reference, r"not xs\[i\] (.) xs")
    other = "<" if op == ">" else ">"
    at_breaks = f"""
        def longest_run(xs: list[int]) -> list[int]:
            best, start = [], 0
            for i in range(1, len(xs)):
                if not xs[i] {op} xs[i - 1]:
                    if i - start > len(best):
                        best = xs[start:i]
                    start = i
            return best
    """
    tie = [5, 6, 1, 2] if op == ">" else [2, 1, 6, 5]
    return strengthen(
        t,
        [(tie,), (ints(rng, 12, 0, 5),)],
        [
            ("equal neighbours continue a run", t.wrong),
            (
                "the last of equal-length runs",
                edit(
                    t.reference, ("if i - start + 1 > best_len:", "if i - start + 1 >= best_len:")
                ),
            ),
            ("the other direction", edit(t.reference, (f"xs[i] {op} xs", f"xs[i] {other} xs"))),
            ("forgets the run that reaches the end", src(at_breaks)),
        ],
    )


def lis_length(rng: random.Random, v: int) -> Strong:
    t = more_numeric.lis_length(rng, v)
    cmp = "<" if "bisect_left" in t.reference else "<="
    contiguous = f"""
        def lis_length(xs: list[int]) -> int:
            best = run = 0
            for i, x in enumerate(xs):
                run = run + 1 if i and xs[i - 1] {cmp} x else 1
                best = max(best, run)
            return best
    """
    greedy = f"""
        def lis_length(xs: list[int]) -> int:
            kept = []
            for x in xs:
                if not kept or kept[-1] {cmp} x:
                    kept.append(x)
            return len(kept)
    """
    short = f"""
        def lis_length(xs: list[int]) -> int:
            best = [0] * len(xs)
            for i in range(len(xs)):
                for j in range(i):
                    if xs[j] {cmp} xs[i]:
                        best[i] = max(best[i], best[j] + 1)
            return max(best, default=0)
    """
    return strengthen(
        t,
        [([9, 1, 2, 3],), ([3, 1, 4, 1, 5, 9, 2, 6],), (ints(rng, 10, 0, 6),)],
        [
            ("strict and non-strict swapped", t.wrong),
            ("the longest block of neighbours", src(contiguous)),
            ("keeps every element that extends the last one kept", src(greedy)),
            ("does not count the element itself", src(short)),
        ],
    )


def collatz(rng: random.Random, v: int) -> Strong:
    t = more_numeric.collatz(rng, v)
    peak = t.entry == "collatz_peak"
    before_step = """
        def collatz_peak(n: int) -> int:
            top = 0
            while n != 1:
                top = max(top, n)
                n = n // 2 if n % 2 == 0 else 3 * n + 1
            return top
    """
    return strengthen(
        t,
        [(6,), (7,), (rng.randint(41, 99),)],
        [
            ("leaves n out of the peak" if peak else "counts the values, not the steps", t.wrong),
            (
                "takes (3n + 1) / 2 as one step",
                edit(t.reference, ("3 * n + 1", "(3 * n + 1) // 2")),
            ),
            (
                "never compares the last value, so n = 1 gives 0" if peak else "stops at 2",
                src(before_step) if peak else edit(t.reference, ("while n != 1", "while n > 2")),
            ),
        ],
    )


def coprimes(rng: random.Random, v: int) -> Strong:
    t = more_numeric.coprimes(rng, v)
    how = "sum" if t.entry == "coprime_sum" else "len"

    def brute(start: str, stop: str, test: str) -> str:
        return src(f"""
            from math import gcd

            def {t.entry}(n: int) -> int:
                return {how}([k for k in range({start}, {stop}) if {test}])
        """)

    return strengthen(
        t,
        [(15,), (rng.randint(100, 999),)],
        [
            ("forgets a prime factor above the square root", t.wrong),
            ("stops before n, so n = 1 has none", brute("1", "n", "gcd(k, n) == 1")),
            ("starts at k = 2", brute("2", "n + 1", "gcd(k, n) == 1")),
            ("takes the k that do not divide n", brute("1", "n + 1", "n % k != 0")),
        ],
    )


def min_coins(rng: random.Random, v: int) -> Strong:
    t = more_numeric.min_coins(rng, v)
    coins = param(t.reference, r"for c in (\(.*?\)) if")
    has_one = "(1," in coins
    once = f"""
        def min_coins(amount: int) -> int:
            best = {{0: 0}}
            for c in {coins}:
                for total, count in list(best.items()):
                    if total + c <= amount and best.get(total + c, amount + 1) > count + 1:
                        best[total + c] = count + 1
            return best.get(amount, -1)
    """
    ways = f"""
        def min_coins(amount: int) -> int:
            ways = [1] + [0] * amount
            for c in {coins}:
                for value in range(c, amount + 1):
                    ways[value] += ways[value - c]
            return ways[amount] if ways[amount] else -1
    """
    largest = max(int(c) for c in coins.strip("()").split(","))
    return strengthen(
        t,
        [(3 * largest,), (rng.randint(20, 80),)],
        [
            ("greedy, largest coin first", t.wrong),
            ("each coin at most once", src(once)),
            ("counts the combinations", src(ways)),
            (
                "0 when no combination adds up",
                None
                if has_one
                else edit(
                    t.reference, ("    return best[amount]", "    return max(best[amount], 0)")
                ),
            ),
            (
                "-1 for amount 0",
                edit(
                    t.reference,
                    ("    best = [0]", "    if amount == 0:\n        return -1\n    best = [0]"),
                ),
            ),
        ],
    )


LISTS = [dedupe, longest_run, lis_length]
NUMBERS = [collatz, coprimes, min_coins]
