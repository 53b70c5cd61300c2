"""Wrong orders for an mc "put these in order" row that do not point at the right one (issue 19).

Distractors made by small changes of the right order (adjacent swaps, the orders that break
fewest clues) cluster around it, so the right order is the *centroid* of the options: the one
that agrees most, place by place, with the others (eval-reasoning-v3 reason3-0026 and four
more: 5 of 6 rows; eval-security-v3's lifecycle orders likewise). ``pick`` draws candidate
triples of wrong orders from a pool and keeps the one whose options give the right order no
edge under the answer-free readings a guesser can make of an order list:

* place agreement: how many places an option shares with each other option;
* pair agreement: how many "x immediately before y" pairs it shares with the others;
* first and last item: how many other options start (end) with the same item.

For each reading, a guesser picking the option with the highest score (ties broken uniformly)
and one picking the lowest are both right with expected probability ``1/k`` on the kept options,
or as close to it as the pool allows; ``edge`` measures that distance.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

Order = tuple[str, ...]
Reading = Callable[[Order, Order], int]


def _places(a: Order, b: Order) -> int:
    return sum(x == y for x, y in zip(a, b, strict=True))


def _pairs(a: Order, b: Order) -> int:
    return len(set(itertools.pairwise(a)) & set(itertools.pairwise(b)))


def _ends(a: Order, b: Order) -> int:
    return (a[0] == b[0]) + (a[-1] == b[-1])


READINGS: tuple[Reading, ...] = (_places, _pairs, _ends)


def scores(options: Sequence[Order], reading: Reading) -> list[int]:
    """Each option's total agreement with the other options under ``reading``."""
    return [
        sum(reading(o, p) for j, p in enumerate(options) if j != i) for i, o in enumerate(options)
    ]


def _hit(values: list[int], gold: int, best: int) -> float:
    """Expected accuracy of picking an option whose score is ``best`` (ties uniform)."""
    top = [i for i, v in enumerate(values) if v == best]
    return (gold in top) / len(top)


def edge(options: Sequence[Order], gold: int) -> float:
    """Summed distance from chance of the highest- and lowest-score guessers, every reading."""
    k = len(options)
    total = 0.0
    for reading in READINGS:
        values = scores(options, reading)
        for best in (max(values), min(values)):
            total += abs(_hit(values, gold, best) - 1 / k)
    return total


def pick(
    rng: random.Random, right: Order, pool: Sequence[Order], count: int = 3, tries: int = 400
) -> list[Order] | None:
    """``count`` wrong orders from ``pool`` (none equal to ``right``) that leave ``right`` no
    edge; the first triple with no edge at all, else the one with the least of the ``tries``
    drawn (the draw order comes from ``rng``). None when the pool is too small."""
    wrong = sorted({tuple(p) for p in pool if tuple(p) != tuple(right)})
    if len(wrong) < count:
        return None
    best: tuple[float, list[Order]] | None = None
    for _ in range(tries):
        triple = rng.sample(wrong, count)
        options = [tuple(right), *triple]
        distance = edge(options, 0)
        if best is None or distance < best[0]:
            best = (distance, triple)
        if distance == 0:
            break
    assert best is not None
    return best[1]
