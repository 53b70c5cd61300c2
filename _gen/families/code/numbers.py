"""Number theory task families of eval-code-v1 (see ``base`` for the task shape)."""

from __future__ import annotations

import random

from families.code.base import Task, mutate, src, task


def _digits(n: int, base: int) -> list[int]:
    """Digits of n >= 0 in ``base``, most significant first (the oracles' own conversion)."""
    return _digits(n // base, base) + [n % base] if n >= base else [n]


def digit_sum_base(rng: random.Random, v: int) -> Task:
    base = (2, 3, 5, 7, 9)[v]
    body = """
        def digit_sum_base(n: int) -> int:
            total = 0
            while n > 0:
                n, digit = divmod(n, @B)
                total += digit
            return total
    """
    inputs = [(0,), (base,), (base * base - 1,), (rng.randint(100, 10**6),), (rng.randint(11, 99),)]
    return task(
        "number_theory",
        "easy",
        "def digit_sum_base(n: int) -> int",
        f"Return the sum of the digits of the non-negative integer n written in base {base}.",
        src(body, B=base),
        mutate(src(body, B=base), f"divmod(n, {base})", "divmod(n, 10)"),
        inputs,
        lambda n: sum(_digits(n, base)),
    )


def count_multiples(rng: random.Random, v: int) -> Task:
    a, b = ((2, 3), (3, 5), (4, 6), (5, 7), (6, 10))[v]
    body = """
        def count_multiples(lo: int, hi: int) -> int:
            def upto(n: int, d: int) -> int:
                return n // d - (lo - 1) // d
            return upto(hi, @A) + upto(hi, @B) - upto(hi, @L)
    """
    lcm = a * b // __import__("math").gcd(a, b)
    lo = rng.randint(1, 50)
    inputs = [(1, 1), (1, lcm), (lo, lo + rng.randint(30, 400)), (-lcm, lcm), (7, 6)]
    return task(
        "number_theory",
        "easy",
        "def count_multiples(lo: int, hi: int) -> int",
        f"Return how many integers x with lo <= x <= hi are divisible by {a} or by {b} "
        "(or both). Return 0 when lo > hi.",
        src(body, A=a, B=b, L=lcm),
        mutate(src(body, A=a, B=b, L=lcm), f" - upto(hi, {lcm})", ""),
        inputs,
        lambda lo, hi: sum(1 for x in range(lo, hi + 1) if x % a == 0 or x % b == 0),
    )


def recurrence(rng: random.Random, v: int) -> Task:
    p, q = v + 1, rng.choice((-1, 1, 2))
    x, y = rng.randint(0, 5), rng.randint(1, 9)
    body = """
        def recurrence(n: int) -> int:
            a, b = @X, @Y
            for _ in range(n):
                a, b = b, @P * b + @Q * a
            return a
    """
    wrong = """
        def recurrence(n: int) -> int:
            a, b = @X, @Y
            for _ in range(n - 1):
                a, b = b, @P * b + @Q * a
            return b
    """

    def oracle(n: int) -> int:
        seq = [x, y]
        while len(seq) <= n:
            seq.append(p * seq[-1] + q * seq[-2])
        return seq[n]

    subs = {"X": x, "Y": y, "P": p, "Q": f"({q})"}
    inputs = [(0,), (1,), (2,), (rng.randint(5, 12),), (30,)]
    return task(
        "number_theory",
        "medium",
        "def recurrence(n: int) -> int",
        f"The sequence a is defined by a(0) = {x}, a(1) = {y} and "
        f"a(n) = {p} * a(n-1) + ({q}) * a(n-2) for n >= 2. Return a(n) for n >= 0.",
        src(body, **subs),
        src(wrong, **subs),
        inputs,
        oracle,
    )


def to_base(rng: random.Random, v: int) -> Task:
    base = (3, 6, 8, 12, 16)[v]
    body = """
        def to_base(n: int) -> str:
            digits = "0123456789abcdef"
            if n == 0:
                return "0"
            out = ""
            while n > 0:
                n, d = divmod(n, @B)
                out = digits[d] + out
            return out
    """
    inputs = [(0,), (base - 1,), (base,), (rng.randint(10**3, 10**7),), (base**4 + 1,)]
    return task(
        "number_theory",
        "medium",
        "def to_base(n: int) -> str",
        f"Return the non-negative integer n written in base {base}, using the digits 0-9 "
        "then lowercase a-f, with no prefix or leading zeros (0 gives '0').",
        src(body, B=base),
        mutate(src(body, B=base), '        return "0"\n', '        return ""\n'),
        inputs,
        lambda n: "".join("0123456789abcdef"[d] for d in _digits(n, base)),
    )


def primes_mod(rng: random.Random, v: int) -> Task:
    m, r = ((4, 3), (6, 5), (5, 2), (8, 7), (10, 3))[v]
    body = """
        def primes_mod(lo: int, hi: int) -> int:
            def is_prime(p: int) -> bool:
                if p < 2:
                    return False
                d = 2
                while d * d <= p:
                    if p % d == 0:
                        return False
                    d += 1
                return True
            return sum(1 for p in range(lo, hi + 1) if p % @M == @R and is_prime(p))
    """

    def oracle(lo: int, hi: int) -> int:
        return sum(
            1 for p in range(max(lo, 2), hi + 1) if all(p % d for d in range(2, p)) and p % m == r
        )

    top = next(
        p
        for p in range(rng.randint(200, 900), 10**4)
        if p % m == r and all(p % d for d in range(2, p))
    )
    inputs = [(0, 1), (1, top), (top, top), (rng.randint(2, 50), rng.randint(60, 300))]
    return task(
        "number_theory",
        "hard",
        "def primes_mod(lo: int, hi: int) -> int",
        f"Return how many prime numbers p with lo <= p <= hi leave remainder {r} when "
        f"divided by {m}.",
        src(body, M=m, R=r),
        mutate(src(body, M=m, R=r), "hi + 1", "hi"),
        inputs,
        oracle,
    )


def base_palindromes(rng: random.Random, v: int) -> Task:
    base = (2, 3, 4, 5, 7)[v]
    body = """
        def base_palindromes(n: int) -> int:
            count = 0
            for k in range(1, n + 1):
                digits = []
                x = k
                while x:
                    digits.append(x % @B)
                    x //= @B
                if digits == digits[::-1]:
                    count += 1
            return count
    """
    pal = base**4 + 1  # 1 0 0 0 1 in base b
    inputs = [(1,), (pal,), (rng.randint(50, 3000),), (base,)]
    return task(
        "number_theory",
        "hard",
        "def base_palindromes(n: int) -> int",
        f"Return how many integers k with 1 <= k <= n read the same forwards and "
        f"backwards when written in base {base} (without leading zeros).",
        src(body, B=base),
        mutate(src(body, B=base), "n + 1", "n"),
        inputs,
        lambda n: sum(1 for k in range(1, n + 1) if _digits(k, base) == _digits(k, base)[::-1]),
    )


FAMILIES = [digit_sum_base, count_multiples, recurrence, to_base, primes_mod, base_palindromes]
