"""Three more list and three more number-theory task families for eval-code-v2 (task shape in
``base``; ``inputs[1]`` is the prompt's worked example, the rest are hidden tests).
"""

from __future__ import annotations

import itertools
import math
import random

from families.code.base import Task, ints, mutate, src, task


def dedupe(rng: random.Random, v: int) -> Task:
    last = rng.random() < 0.5
    which = "last" if last else "first"
    body = """
        def dedupe_keep_@W(xs: list[int]) -> list[int]:
            seen = set()
            out = []
            for x in @ITER:
                if x not in seen:
                    seen.add(x)
                    out.append(x)
            return @OUT
    """
    forward = {"W": which, "ITER": "xs", "OUT": "out"}
    backward = {"W": which, "ITER": "reversed(xs)", "OUT": "out[::-1]"}

    def oracle(xs: list[int]) -> list[int]:
        if last:
            return [x for i, x in enumerate(xs) if x not in xs[i + 1 :]]
        return [x for i, x in enumerate(xs) if x not in xs[:i]]

    inputs = [([],), (ints(rng, 9, 0, 5),), ([1, 2, 1, 3],), (ints(rng, 12, -3, 3),), ([7, 7],)]
    return task(
        "lists",
        "easy",
        f"def dedupe_keep_{which}(xs: list[int]) -> list[int]",
        f"Return the values of xs without repeats: keep only the {which} occurrence of each "
        f"value, and list the kept values in the order in which those {which} occurrences "
        "stand in xs.",
        src(body, **(backward if last else forward)),
        src(body, **(forward if last else backward)),
        inputs,
        oracle,
    )


def longest_run(rng: random.Random, v: int) -> Task:
    up = rng.random() < 0.5
    op, word = (">", "increasing") if up else ("<", "decreasing")
    body = """
        def longest_run(xs: list[int]) -> list[int]:
            best_start, best_len = 0, 0
            start = 0
            for i in range(len(xs)):
                if i > 0 and not xs[i] @OP xs[i - 1]:
                    start = i
                if i - start + 1 > best_len:
                    best_start, best_len = start, i - start + 1
            return xs[best_start : best_start + best_len]
    """

    def oracle(xs: list[int]) -> list[int]:
        runs = [
            xs[i:j]
            for i in range(len(xs))
            for j in range(i + 1, len(xs) + 1)
            if all((b > a) == up and a != b for a, b in itertools.pairwise(xs[i:j]))
        ]
        return max(runs, key=len, default=[])  # max keeps the first of equal lengths

    tie = [1, 2, 2, 3, 4] if up else [5, 4, 4, 3, 2]
    inputs = [([],), (ints(rng, 10, 0, 9),), (tie,), (ints(rng, 14, 0, 6),), ([3, 3, 3],)]
    return task(
        "lists",
        "medium",
        "def longest_run(xs: list[int]) -> list[int]",
        f"Return the longest block of consecutive elements of xs that is strictly {word} "
        f"(each element {'greater' if up else 'smaller'} than the one before it). If several "
        "blocks have that length, return the one that starts first; return [] for an empty xs.",
        src(body, OP=op),
        mutate(src(body, OP=op), f"xs[i] {op} xs", f"xs[i] {op}= xs"),
        inputs,
        oracle,
    )


def lis_length(rng: random.Random, v: int) -> Task:
    strict = rng.random() < 0.5
    body = """
        from bisect import @B

        def lis_length(xs: list[int]) -> int:
            tails = []
            for x in xs:
                i = @B(tails, x)
                if i == len(tails):
                    tails.append(x)
                else:
                    tails[i] = x
            return len(tails)
    """
    right, left = "bisect_right", "bisect_left"

    def oracle(xs: list[int]) -> int:
        for size in range(len(xs), 0, -1):
            for picked in itertools.combinations(xs, size):
                pairs = itertools.pairwise(picked)
                if all(a < b if strict else a <= b for a, b in pairs):
                    return size
        return 0

    inputs = [([],), (ints(rng, 9, 0, 9),), ([2, 2, 2, 3],), (ints(rng, 12, 0, 5),), ([5, 1],)]
    kind = "strictly increasing" if strict else "non-decreasing"
    rule = "smaller than the next" if strict else "smaller than or equal to the next"
    return task(
        "lists",
        "hard",
        "def lis_length(xs: list[int]) -> int",
        f"Return the length of the longest {kind} subsequence of xs: elements taken in their "
        f"original order, not necessarily adjacent, each one {rule}. An empty xs gives 0.",
        src(body, B=left if strict else right),
        src(body, B=right if strict else left),
        inputs,
        oracle,
    )


def collatz(rng: random.Random, v: int) -> Task:
    peak = rng.random() < 0.5
    body = """
        def collatz_@NAME(n: int) -> int:
            steps, top = 0, n
            while n != 1:
                n = n // 2 if n % 2 == 0 else 3 * n + 1
                steps += 1
                top = max(top, n)
            return @RESULT
    """
    subs = {"NAME": "peak" if peak else "steps", "RESULT": "top" if peak else "steps"}
    wrong = (
        mutate(src(body, **subs), "steps, top = 0, n", "steps, top = 0, 0")
        if peak
        else mutate(src(body, **subs), "steps, top = 0, n", "steps, top = 1, n")
    )

    def oracle(n: int) -> int:
        path = [n]
        while path[-1] != 1:
            path.append(path[-1] * 3 + 1 if path[-1] % 2 else path[-1] // 2)
        return max(path) if peak else len(path) - 1

    inputs = [(1,), (rng.randint(5, 40),), (8,), (27,), (rng.randint(100, 999),), (16,)]
    what = (
        "the largest value the sequence reaches (n itself counts)"
        if peak
        else "how many steps it takes to reach 1 (0 for n = 1)"
    )
    return task(
        "number_theory",
        "easy",
        f"def collatz_{subs['NAME']}(n: int) -> int",
        "Starting from the positive integer n, repeatedly replace n by n // 2 when it is even "
        f"and by 3 * n + 1 when it is odd, stopping at 1. Return {what}.",
        src(body, **subs),
        wrong,
        inputs,
        oracle,
    )


def coprimes(rng: random.Random, v: int) -> Task:
    total = rng.random() < 0.5
    body = """
        def coprime_@NAME(n: int) -> int:
            result, m, p = n, n, 2
            while p * p <= m:
                if m % p == 0:
                    while m % p == 0:
                        m //= p
                    result -= result // p
                p += 1
            if m > 1:
                result -= result // m
            return @RESULT
    """
    subs = {
        "NAME": "sum" if total else "count",
        "RESULT": "(n * result // 2 if n > 1 else 1)" if total else "result",
    }

    def oracle(n: int) -> int:
        chosen = [k for k in range(1, n + 1) if math.gcd(k, n) == 1]
        return sum(chosen) if total else len(chosen)

    inputs = [(1,), (rng.randint(20, 99),), (14,), (rng.randint(1000, 5000),), (97,), (2**7,)]
    return task(
        "number_theory",
        "medium",
        f"def coprime_{subs['NAME']}(n: int) -> int",
        f"Return the {'sum' if total else 'number'} of the integers k with 1 <= k <= n that "
        "have no common divisor with n other than 1 (gcd(k, n) == 1). n is a positive integer.",
        src(body, **subs),
        mutate(src(body, **subs), "    if m > 1:\n        result -= result // m\n", ""),
        inputs,
        oracle,
    )


COIN_SETS = ((1, 3, 4), (1, 5, 6, 9), (2, 5, 7), (3, 7, 11), (1, 7, 10), (4, 5, 9), (1, 6, 9))


def min_coins(rng: random.Random, v: int) -> Task:
    coins = rng.choice(COIN_SETS)
    body = """
        def min_coins(amount: int) -> int:
            best = [0] + [-1] * amount
            for value in range(1, amount + 1):
                options = [best[value - c] for c in @COINS if c <= value and best[value - c] >= 0]
                best[value] = min(options) + 1 if options else -1
            return best[amount]
    """
    wrong = """
        def min_coins(amount: int) -> int:
            count = 0
            for c in sorted(@COINS, reverse=True):
                count += amount // c
                amount %= c
            return count if amount == 0 else -1
    """

    def oracle(amount: int) -> int:
        reached, frontier, steps = {0}, {0}, 0
        while amount not in reached:
            frontier = {a + c for a in frontier for c in coins if a + c <= amount} - reached
            if not frontier:
                return -1
            reached |= frontier
            steps += 1
        return steps

    greedy_fails = next(a for a in range(1, 100) if _greedy(a, coins) != oracle(a))
    inputs = [(0,), (rng.randint(10, 40),), (greedy_fails,), (rng.randint(41, 120),), (1,)]
    return task(
        "number_theory",
        "hard",
        "def min_coins(amount: int) -> int",
        f"Coins come in the values {', '.join(map(str, coins))}, with as many of each as "
        "needed. Return the smallest number of coins whose values add up to exactly amount "
        "(a non-negative integer), or -1 if no combination does; 0 for amount 0.",
        src(body, COINS=coins),
        src(wrong, COINS=coins),
        inputs,
        oracle,
    )


def _greedy(amount: int, coins: tuple[int, ...]) -> int:
    count = 0
    for c in sorted(coins, reverse=True):
        count, amount = count + amount // c, amount % c
    return count if amount == 0 else -1


LISTS = [dedupe, longest_run, lis_length]
NUMBERS = [collatz, coprimes, min_coins]
