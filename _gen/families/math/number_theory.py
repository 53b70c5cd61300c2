"""Number theory for eval-math-v2 and -v3: divisor counts and sums, trailing zeros of factorials
in other bases, picking the prime (or the composite) among look-alikes, and synchronised
periods; proofs by factorisation, Legendre's formula and stepping through time. Moved here from
the eval-math-v2 generator, unchanged.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from typing import Any

from families.math.base import Item, factorise


def is_prime(n: int) -> bool:
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
        primes = [p for p in range(50, top) if is_prime(p)]
        hard = [n for n in range(49, top, 2) if not is_prime(n) and n % 3 and n % 5]
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


# ---- proofs -----------------------------------------------------------------------------------
def _divisors(meta: dict[str, Any]) -> str:
    """Divisor count or sum from the factorisation."""
    kind = meta["kind"]
    factors = factorise(meta["n"])
    if kind == "divisor_number":
        return str(math.prod(e + 1 for e in factors.values()))
    return str(math.prod((p ** (e + 1) - 1) // (p - 1) for p, e in factors.items()))


def _factorial_zeros(meta: dict[str, Any]) -> str:
    """Trailing zeros by Legendre's formula per prime of the base."""
    n = meta["n"]
    legendre = {}
    for p in factorise(meta["base"]):
        legendre[p], power = 0, p
        while power <= n:
            legendre[p], power = legendre[p] + n // power, power * p
    return str(min(legendre[p] // e for p, e in factorise(meta["base"]).items()))


def _lcm_next(meta: dict[str, Any]) -> str:
    """The next joint flash, by stepping."""
    a, b = meta["periods"]
    return str(next(t for t in itertools.count(1) if t % a == 0 and t % b == 0))


def _lcm_count(meta: dict[str, Any]) -> str:
    """Joint flashes in the horizon, second by second."""
    horizon = meta["minutes"] * 60
    return str(sum(1 for t in range(1, horizon + 1) if all(t % p == 0 for p in meta["periods"])))


def _offset_sync(meta: dict[str, Any]) -> str:
    """The first joint blink, stepping lamp A's blinks."""
    (pa, pb), (oa, ob) = meta["periods"], meta["offsets"]
    return str(next(t for t in itertools.count(oa, pa) if t >= ob and (t - ob) % pb == 0))


EXPECTED: dict[str, Callable[[dict[str, Any]], str]] = {
    "divisor_number": _divisors,
    "divisor_sum": _divisors,
    "factorial_zeros": _factorial_zeros,
    "lcm_next": _lcm_next,
    "lcm_count": _lcm_count,
    "offset_sync": _offset_sync,
}
