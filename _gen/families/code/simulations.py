"""Simulation task families for eval-code-v2, in the "records" category with ``records``:
a cache, overlapping bookings and a ledger of transfers, stepped through in order (task shape in
``base``; ``inputs[1]`` is the prompt's worked example, the rest are hidden tests). Dict
results have string keys.
"""

from __future__ import annotations

import random

from families.code.base import Task, src, task
from families.code.records import NAMES


def cache_misses(rng: random.Random, v: int) -> Task:
    contents = rng.random() < 0.5
    body = """
        def lru_@NAME(capacity: int, requests: list[int]) -> @TYPE:
            cache, misses = [], 0
            for key in requests:
                if key in cache:
                    cache.remove(key)
                else:
                    misses += 1
                    if len(cache) == capacity:
                        cache.pop(0)
                cache.append(key)
            return @RESULT
    """
    subs = {
        "NAME": "contents" if contents else "misses",
        "TYPE": "list[int]" if contents else "int",
        "RESULT": "cache" if contents else "misses",
    }
    fifo = """
        def lru_@NAME(capacity: int, requests: list[int]) -> @TYPE:
            cache, misses = [], 0
            for key in requests:
                if key not in cache:
                    misses += 1
                    if len(cache) == capacity:
                        cache.pop(0)
                    cache.append(key)
            return @RESULT
    """

    def oracle(capacity: int, requests: list[int]) -> int | list[int]:
        last_used: dict[int, int] = {}
        misses = 0
        for t, key in enumerate(requests):
            if key not in last_used:
                misses += 1
                if len(last_used) == capacity:
                    del last_used[min(last_used, key=last_used.__getitem__)]
            last_used[key] = t
        return sorted(last_used, key=last_used.__getitem__) if contents else misses

    def stream(n: int) -> list[int]:
        return [rng.randint(1, 6) for _ in range(n)]

    inputs = [(1, []), (rng.randint(2, 3), stream(12)), (2, [1, 2, 1, 3, 2])]
    inputs += [(3, stream(20)), (4, [5, 5, 5])]
    result = (
        "the keys left in the cache at the end, from least to most recently used"
        if contents
        else "the number of misses"
    )
    return task(
        "records",
        "hard",
        f"def lru_{subs['NAME']}(capacity: int, requests: list[int]) -> {subs['TYPE']}",
        f"Simulate a cache holding at most capacity keys (capacity >= 1), fed the keys in "
        "requests one by one. A request for a key in the cache is a hit and makes that key the "
        "most recently used. Otherwise it is a miss: if the cache is full, first remove the "
        "least recently used key (the one whose last request is oldest), then add the new key. "
        f"Return {result}.",
        src(body, **subs),
        src(fifo, **subs),
        inputs,
        oracle,
    )


def peak_overlap(rng: random.Random, v: int) -> Task:
    closed = rng.random() < 0.5
    body = """
        def peak_overlap(intervals: list[list[int]]) -> int:
            events = []
            for start, end in intervals:
                events.append((start, @OPEN))
                events.append((end, @CLOSE))
            best = current = 0
            for _, change in sorted(events, key=lambda e: (e[0], -e[1] * @SIGN)):
                current += change
                best = max(best, current)
            return best
    """
    subs = {"OPEN": 1, "CLOSE": -1, "SIGN": 1 if closed else -1}
    wrong = {**subs, "SIGN": -1 if closed else 1}

    def oracle(intervals: list[list[int]]) -> int:
        points = {p for iv in intervals for p in iv}
        return max(
            (
                sum(1 for s, e in intervals if (s <= p <= e if closed else s <= p < e))
                for p in points
            ),
            default=0,
        )

    def spans(n: int) -> list[list[int]]:
        out = []
        for _ in range(n):
            s = rng.randint(0, 20)
            out.append([s, s + rng.randint(1, 8)])
        return out

    inputs = [([],), (spans(5),), ([[1, 3], [3, 5], [5, 6]],), (spans(9),), ([[2, 9]],)]
    rule = (
        "closed: [s, e] contains s, e and every point between, so [1, 3] and [3, 5] overlap at 3"
        if closed
        else "half-open: [s, e) contains s and the points up to but not including e, so [1, 3] "
        "and [3, 5] do not overlap"
    )
    return task(
        "records",
        "hard",
        "def peak_overlap(intervals: list[list[int]]) -> int",
        "intervals lists bookings as [s, e] pairs of integers with s < e. Intervals are "
        f"{rule}. Return the largest number of bookings that hold at a single point in time "
        "(0 for no bookings).",
        src(body, **subs),
        src(body, **wrong),
        inputs,
        oracle,
    )


def transfers(rng: random.Random, v: int) -> Task:
    partial = rng.random() < 0.5
    body = """
        def transfers(balances: dict[str, int], moves: list[list]) -> dict[str, int]:
            out = dict(balances)
            for sender, receiver, _ in moves:
                out.setdefault(sender, 0)
                out.setdefault(receiver, 0)
            for sender, receiver, amount in moves:
                @RULE
                out[sender] -= amount
                out[receiver] += amount
            return out
    """
    skip = "if out[sender] < amount:\n            continue"
    rule = "amount = min(amount, out[sender])" if partial else skip
    wrong_rule = skip if partial else skip.replace(" < amount", " <= amount")

    def oracle(balances: dict[str, int], moves: list[list[str | int]]) -> dict[str, int]:
        names = set(balances) | {str(x) for move in moves for x in move[:2]}
        money = {name: balances.get(name, 0) for name in names}
        for a, b, n in moves:
            a, b, n = str(a), str(b), int(n)
            sent = min(n, money[a]) if partial else (n if money[a] >= n else 0)
            money[a], money[b] = money[a] - sent, money[b] + sent
        return money

    def ledger(n: int) -> list[list[str | int]]:
        return [[*rng.sample(NAMES[:5], 2), rng.randint(1, 9)] for _ in range(n)]

    start = {name: rng.randint(0, 12) for name in NAMES[:4]}
    fixed = ({"ana": 5, "ben": 0}, [["ana", "ben", 5], ["ben", "cai", 7], ["cai", "ana", 1]])
    inputs = [({}, []), (start, ledger(5)), fixed, (dict(start), ledger(9)), ({"eli": 1}, [])]
    rule_text = (
        "When the sender has less than the amount, only what the sender has is moved "
        "(possibly nothing)"
        if partial
        else "A move whose amount is larger than the sender's balance at that moment is "
        "skipped entirely; a move of exactly the balance goes through"
    )
    return task(
        "records",
        "hard",
        "def transfers(balances: dict[str, int], moves: list[list]) -> dict[str, int]",
        "balances maps names to non-negative integer balances; moves is a list of [sender, "
        "receiver, amount] transfers (two different names, amount > 0) applied in order. A name "
        f"missing from balances starts at 0. {rule_text}. Return the final balances as a new "
        "dict holding every name of balances and every name that appears in moves.",
        src(body, RULE=rule),
        src(body, RULE=wrong_rule),
        inputs,
        oracle,
    )


FAMILIES = [
    cache_misses,
    peak_overlap,
    transfers,
]
