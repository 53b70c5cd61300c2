"""eval-code-v3: the simulation families of eval-code-v2 (``simulations``) with their mutants and
the hidden inputs that kill them (see ``mutation``).
"""

from __future__ import annotations

import random

from families.code import simulations
from families.code.base import src
from families.code.mutation import Strong, edit, param, strengthen
from families.code.records import NAMES


def cache_misses(rng: random.Random, v: int) -> Strong:
    t = simulations.cache_misses(rng, v)
    contents = t.entry == "lru_contents"
    return strengthen(
        t,
        [
            (2, [1, 2, 3, 1, 2, 3]),
            (3, [1, 2, 3, 1, 4, 1, 5]),
            (2, [rng.randint(1, 4) for _ in range(10)]),
        ],
        [
            ("first in, first out", t.wrong),
            (
                "evicts the most recently used key",
                edit(t.reference, ("cache.pop(0)", "cache.pop()")),
            ),
            (
                "holds one key more than capacity",
                edit(t.reference, ("if len(cache) == capacity:", "if len(cache) > capacity:")),
            ),
            (
                "most recently used first" if contents else "counts the hits",
                edit(
                    t.reference,
                    ("return cache", "return cache[::-1]")
                    if contents
                    else ("return misses", "return len(requests) - misses"),
                ),
            ),
        ],
    )


def peak_overlap(rng: random.Random, v: int) -> Strong:
    t = simulations.peak_overlap(rng, v)
    closed = "-e[1] * 1)" in t.reference
    meets = "s <= f and t <= e" if closed else "s < f and t < e"
    overlapping = f"""
        def peak_overlap(intervals: list[list[int]]) -> int:
            return sum(
                1
                for i, (s, e) in enumerate(intervals)
                if any({meets} for j, (t, f) in enumerate(intervals) if j != i)
            )
    """
    at_points = """
        def peak_overlap(intervals: list[list[int]]) -> int:
            points = {p for iv in intervals for p in iv}
            return max(sum(1 for s, e in intervals if @HOLDS) for p in points)
    """
    sign = param(t.reference, r"-e\[1\] \* (-?1)\)")
    spans = [[s, s + rng.randint(1, 5)] for s in (rng.randint(0, 15) for _ in range(6))]
    return strengthen(
        t,
        [([[1, 3], [2, 4], [5, 7], [6, 8]],), ([[5, 9], [1, 2], [6, 7]],), (spans,)],
        [
            (
                "closed intervals for half-open ones"
                if not closed
                else "half-open intervals for closed ones",
                t.wrong,
            ),
            ("counts the bookings that overlap another", src(overlapping)),
            (
                "events in the order given",
                edit(
                    t.reference, (f"sorted(events, key=lambda e: (e[0], -e[1] * {sign}))", "events")
                ),
            ),
            (
                "fails on no bookings",
                src(at_points, HOLDS="s <= p <= e" if closed else "s <= p < e"),
            ),
        ],
    )


def transfers(rng: random.Random, v: int) -> Strong:
    t = simulations.transfers(rng, v)
    partial = "min(amount" in t.reference
    rule = (
        "amount = min(amount, out[sender])"
        if partial
        else "if out[sender] < amount:\n            continue"
    )
    only_moved = """
        def transfers(balances: dict[str, int], moves: list[list]) -> dict[str, int]:
            out = dict(balances)
            for sender, receiver, amount in moves:
                @RULE
                    out[sender] = out.get(sender, 0) - amount
                    out[receiver] = out.get(receiver, 0) + amount
            return out
    """
    moved = (
        "amount = min(amount, out.get(sender, 0))\n        if amount:"
        if partial
        else "if out.get(sender, 0) >= amount:"
    )
    start = {name: rng.randint(0, 9) for name in NAMES[:3]}
    ledger = [[*rng.sample(NAMES[:4], 2), rng.randint(1, 9)] for _ in range(6)]
    return strengthen(
        t,
        [
            ({"ana": 0}, [["ana", "ben", 3]]),
            ({"ana": 4}, [["ana", "ben", 4], ["ben", "ana", 9]]),
            (start, ledger),
        ],
        [
            (
                "skips a move the sender cannot cover"
                if partial
                else "skips a move of exactly the balance",
                t.wrong,
            ),
            ("lets balances go negative", edit(t.reference, (rule, "pass"))),
            (
                "moves what the sender has",
                None if partial else edit(t.reference, (rule, "amount = min(amount, out[sender])")),
            ),
            ("leaves out names no money reached", src(only_moved, RULE=moved)),
        ],
    )


FAMILIES = [
    cache_misses,
    peak_overlap,
    transfers,
]
