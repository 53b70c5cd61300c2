"""eval-code-v4: seeded inputs of the record families (see ``inputs``)."""

from __future__ import annotations

import random

from families.code.base import Task
from families.code.inputs import Args, Builder, Inputs, numbers

NAMES = ("ana", "ben", "cai", "dev", "eli", "fay", "gus", "hal")
ITEMS = ("nail", "bolt", "tape", "glue", "wire", "fuse")


def group_totals(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        names = NAMES[: rng.randint(1, 6)]
        return ([[rng.choice(names), rng.randint(-30, 30)] for _ in range(rng.randint(0, 12))],)

    edges: list[Args] = [([],), ([["ana", 0]],), ([["ana", -3]],), ([["ana", 5], ["ana", 7]],)]
    edges += [([["ben", -4], ["ben", -9], ["ben", -1]],), ([["cai", 2], ["dev", -2], ["cai", -2]],)]
    edges += [([["eli", 0], ["eli", 0], ["fay", 1]],)]
    return Inputs(edges, draw)


def invert(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        keys = rng.sample(NAMES, rng.randint(0, 8))
        return ({k: rng.choice(ITEMS[: rng.randint(1, 4)]) for k in keys},)

    edges: list[Args] = [({},), ({"ana": "x"},), ({"ben": "x", "ana": "x", "cai": "x"},)]
    edges += [({"ana": "x", "ben": "y", "cai": "z"},), ({"ana": "ben", "ben": "ana"},)]
    edges += [({"hal": "a", "gus": "a", "fay": "b", "eli": "a"},)]
    return Inputs(edges, draw)


def best_average(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        names = rng.sample(NAMES, rng.randint(0, 6))
        return ({k: numbers(rng, rng.randint(0, 5), 0, 10) for k in names},)

    edges: list[Args] = [({},), ({"ana": []},), ({"ana": [], "ben": []},), ({"cai": [0]},)]
    edges += [({"ben": [2, 4], "ana": [3]},), ({"ana": [1, 2], "ben": [2, 2, 2]},)]
    edges += [({"eli": [10], "dev": [1, 10, 10, 10]},), ({"fay": [0, 0], "gus": []},)]
    edges += [({"hal": [5], "ana": [4, 6], "cai": [6, 4]},), ({"ben": [9, 0], "ana": [4]},)]
    return Inputs(edges, draw)


def ranks(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (numbers(rng, rng.randint(0, 12), 0, 6),)

    edges: list[Args] = [([],), ([3],), ([5, 5, 5],), ([1, 2, 3, 4],), ([4, 3, 2, 1],)]
    edges += [([9, 9, 1],), ([1, 1, 9],), ([-2, 0, -2, 7],), ([2, 1, 2, 1, 3],)]
    return Inputs(edges, draw)


def merge_stock(task: Task, v: int) -> Inputs:
    def stock(rng: random.Random) -> dict[str, int]:
        return {k: rng.randint(-5, 9) for k in rng.sample(ITEMS, rng.randint(0, 6))}

    def draw(rng: random.Random) -> Args:
        return (stock(rng), stock(rng))

    edges: list[Args] = [
        ({}, {}),
        ({"nail": 3}, {}),
        ({}, {"bolt": 2}),
        ({"tape": 2}, {"tape": -2}),
    ]
    edges += [({"glue": -1}, {"glue": 2}), ({"wire": -4}, {}), ({"a": 1, "b": 1}, {"c": 1})]
    edges += [({"nail": 5, "bolt": 2}, {"bolt": 3, "fuse": 5}), ({"tape": 1}, {"tape": -2})]
    return Inputs(edges, draw)


def sort_people(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        names = rng.sample(NAMES, rng.randint(0, 8))
        return ([[name, rng.randint(18, 24)] for name in names],)

    edges: list[Args] = [([],), ([["eli", 5]],), ([["ben", 30], ["ana", 30], ["cai", 30]],)]
    edges += [
        ([["ana", 20], ["ben", 30], ["cai", 40]],),
        ([["cai", 40], ["ben", 30], ["ana", 20]],),
    ]
    edges += [([["hal", 1], ["ana", 2], ["gus", 1], ["ben", 2]],), ([["dev", 0], ["ana", 99]],)]
    return Inputs(edges, draw)


def cache_misses(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (rng.randint(1, 4), numbers(rng, rng.randint(0, 20), 1, 6))

    edges: list[Args] = [(1, []), (3, []), (1, [1, 1, 1]), (1, [1, 2, 1]), (2, [1, 2, 1, 3, 1])]
    edges += [
        (2, [1, 2, 1, 3, 2]),
        (3, [1, 2, 3, 1, 4, 2, 5]),
        (4, [1, 2, 3, 2, 1]),
        (2, [5, 5, 6]),
    ]
    edges += [(5, [1, 2, 3, 4, 5, 6, 1]), (1, [4, 4, 5, 5, 4])]
    return Inputs(edges, draw)


def peak_overlap(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        spans = []
        for _ in range(rng.randint(0, 9)):
            start = rng.randint(0, 20)
            spans.append([start, start + rng.randint(1, 8)])
        return (spans,)

    edges: list[Args] = [([],), ([[2, 9]],), ([[1, 3], [3, 5]],), ([[1, 3], [3, 5], [5, 6]],)]
    edges += [([[1, 10], [2, 3], [4, 5]],), ([[1, 4], [1, 4], [1, 4]],), ([[3, 5], [1, 3]],)]
    edges += [([[0, 2], [1, 3], [2, 4], [3, 5]],), ([[-5, -1], [-1, 2]],)]
    return Inputs(edges, draw)


def transfers(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        balances = {k: rng.randint(0, 12) for k in rng.sample(NAMES[:4], rng.randint(0, 4))}
        moves = [[*rng.sample(NAMES[:5], 2), rng.randint(1, 12)] for _ in range(rng.randint(0, 9))]
        return (balances, moves)

    edges: list[Args] = [({}, []), ({"eli": 1}, []), ({}, [["ana", "ben", 3]])]
    edges += [({"ana": 5}, [["ana", "ben", 5]]), ({"ana": 5}, [["ana", "ben", 6]])]
    edges += [({"ana": 5}, [["ana", "ben", 4], ["ben", "cai", 4], ["cai", "ana", 9]])]
    edges += [({"ana": 0, "ben": 2}, [["ana", "ben", 1], ["ben", "ana", 2], ["ana", "ben", 2]])]
    return Inputs(edges, draw)


INPUTS: dict[str, Builder] = {
    f.__name__: f
    for f in (
        group_totals, invert, best_average, ranks, merge_stock, sort_people, cache_misses,
        peak_overlap, transfers,
    )
}  # fmt: skip
