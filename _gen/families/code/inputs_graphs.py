"""eval-code-v4: seeded inputs of the graph families (see ``inputs``)."""

from __future__ import annotations

import random

from families.code.base import Task
from families.code.inputs import Args, Builder, Inputs

NAMES = "pqrstu"


def _named(rng: random.Random, m: int) -> list[list[str]]:
    return [[rng.choice(NAMES), rng.choice(NAMES)] for _ in range(m)]


def _pairs(rng: random.Random, n: int, m: int) -> list[list[int]]:
    """``m`` edges over nodes 0..n-1, loops and repeats allowed."""
    return [[rng.randrange(n), rng.randrange(n)] for _ in range(m)] if n else []


def _weighted(rng: random.Random, n: int, m: int, top: int) -> list[list[int]]:
    return [[a, b, rng.randint(1, top)] for a, b in _pairs(rng, n, m)]


def degrees(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (_named(rng, rng.randint(0, 10)),)

    edges: list[Args] = [([],), ([["p", "p"]],), ([["p", "q"], ["p", "q"]],), ([["p", "q"]],)]
    edges += [([["p", "q"], ["q", "p"]],), ([["s", "p"], ["s", "q"], ["s", "r"], ["t", "s"]],)]
    edges += [([["r", "r"], ["r", "r"], ["q", "r"]],)]
    return Inputs(edges, draw)


def reachable(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (_named(rng, rng.randint(0, 10)), rng.choice(NAMES))

    edges: list[Args] = [([], "p"), ([["p", "p"]], "p"), ([["q", "p"]], "p"), ([["p", "q"]], "p")]
    edges += [([["p", "q"], ["q", "r"], ["r", "p"]], "q"), ([["p", "q"], ["r", "s"]], "z")]
    edges += [
        ([["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"]], "b"),
        ([["u", "t"], ["t", "u"]], "t"),
    ]
    return Inputs(edges, draw)


def tree_height(task: Task, v: int) -> Inputs:
    def tree(rng: random.Random, n: int) -> list[int]:
        order = rng.sample(range(n), n)
        parents = [-1] * n
        for i, node in enumerate(order[1:], 1):
            parents[node] = (
                order[rng.randrange(max(0, i - 3), i)]
                if rng.random() < 0.5
                else order[rng.randrange(i)]
            )
        return parents

    def draw(rng: random.Random) -> Args:
        return (tree(rng, rng.randint(1, 15)),)

    edges: list[Args] = [([-1],), ([-1, 0],), ([1, -1],), ([-1, 0, 1, 2, 3, 4],), ([-1, 0, 0, 0],)]
    edges += [([1, 2, 3, 4, -1],), ([2, 2, -1, 1, 3],), (list(range(-1, 19)),)]
    return Inputs(edges, draw)


def topo_order(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        n = rng.randint(1, 7)
        rank = rng.sample(range(n), n)
        pairs = _pairs(rng, n, rng.randint(0, 10))
        if rng.random() < 0.8:  # mostly orders that exist
            pairs = [[a, b] for a, b in pairs if rank[a] < rank[b]]
        return (n, pairs)

    edges: list[Args] = [(1, []), (2, []), (2, [[0, 1]]), (2, [[1, 0]]), (2, [[0, 1], [1, 0]])]
    edges += [(1, [[0, 0]]), (3, [[0, 1], [0, 1]]), (4, [[3, 2], [2, 1], [1, 0]]), (0, [])]
    edges += [(5, [[0, 4], [1, 4], [2, 4], [3, 4]]), (5, [[4, 0], [4, 1], [4, 2], [4, 3]])]
    edges += [(4, [[0, 1], [1, 2], [2, 3], [3, 1]])]
    return Inputs(edges, draw)


def components(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        n = rng.randint(0, 10)
        return (n, _pairs(rng, n, rng.randint(0, 10)))

    edges: list[Args] = [(0, []), (1, []), (1, [[0, 0]]), (3, []), (3, [[0, 1]]), (2, [[0, 1]] * 3)]
    edges += [(5, [[0, 1], [1, 2], [3, 4]]), (6, [[5, 0], [4, 5], [1, 2]]), (4, [[3, 3], [2, 2]])]
    return Inputs(edges, draw)


def two_colorable(task: Task, v: int) -> Inputs:
    def cycle(n: int) -> list[list[int]]:
        return [[i, (i + 1) % n] for i in range(n)]

    def draw(rng: random.Random) -> Args:
        n = rng.randint(1, 10)
        return (n, _pairs(rng, n, rng.randint(0, 12)))

    edges: list[Args] = [(0, []), (1, []), (1, [[0, 0]]), (2, [[0, 1], [1, 0]]), (3, cycle(3))]
    edges += [(4, cycle(4)), (5, cycle(5)), (6, cycle(6)), (7, cycle(7)), (8, cycle(8))]
    edges += [(6, [[0, 1], [3, 4], [4, 5], [5, 3]]), (5, [[0, 1], [1, 2], [2, 3], [3, 4]])]
    edges += [(4, [[0, 1], [2, 2]])]
    return Inputs(edges, draw)


def distances(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        n = rng.randint(1, 7)
        return (n, _weighted(rng, n, rng.randint(0, 12), 9), rng.randrange(n))

    edges: list[Args] = [(1, [], 0), (2, [], 1), (2, [[0, 1, 5]], 0), (2, [[0, 1, 5]], 1)]
    edges += [(2, [[0, 1, 9], [0, 1, 2]], 0), (3, [[0, 1, 1], [1, 2, 1], [0, 2, 3]], 0)]
    edges += [(3, [[0, 1, 1], [1, 2, 1], [0, 2, 2]], 0), (1, [[0, 0, 4]], 0)]
    edges += [(4, [[0, 1, 1], [1, 2, 1], [2, 3, 1], [0, 3, 4]], 3), (4, [[1, 0, 2], [2, 3, 3]], 3)]
    edges += [(5, [[0, 1, 7], [0, 2, 1], [2, 3, 1], [3, 1, 1], [1, 4, 1]], 0)]
    return Inputs(edges, draw)


def shortest_path_count(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        n = rng.randint(2, 7)
        return (n, _pairs(rng, n, rng.randint(0, 12)), rng.randrange(n), rng.randrange(n))

    square = [[0, 1], [1, 3], [0, 2], [2, 3]]
    edges: list[Args] = [
        (1, [], 0, 0),
        (2, [], 0, 1),
        (2, [[0, 1]], 0, 1),
        (2, [[0, 1], [1, 0]], 1, 0),
    ]
    edges += [
        (3, [[0, 0], [0, 1], [1, 2]], 0, 2),
        (4, square, 0, 3),
        (4, square, 3, 0),
        (4, square, 1, 1),
    ]
    edges += [(6, [[0, 1], [0, 2], [1, 3], [2, 3], [3, 4], [3, 5], [4, 5]], 0, 5)]
    edges += [(6, [[0, 1], [0, 2], [0, 3], [1, 4], [2, 4], [3, 4], [4, 5]], 0, 5)]
    edges += [(5, [[0, 1], [1, 2], [0, 2], [2, 3]], 0, 4)]
    return Inputs(edges, draw)


def spanning_tree(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        n = rng.randint(1, 6)
        return (n, _weighted(rng, n, rng.randint(0, 9), 20))

    edges: list[Args] = [(1, []), (1, [[0, 0, 5]]), (2, []), (2, [[0, 1, 3]]), (2, [[1, 1, 2]])]
    edges += [(2, [[0, 1, 3], [0, 1, 1], [1, 0, 7]]), (3, [[0, 1, 2], [1, 2, 2], [0, 2, 2]])]
    edges += [
        (4, [[0, 1, 1], [2, 3, 1]]),
        (4, [[0, 1, 5], [1, 2, 1], [2, 3, 9], [3, 0, 2], [0, 2, 4]]),
    ]
    return Inputs(edges, draw)


INPUTS: dict[str, Builder] = {
    f.__name__: f
    for f in (
        degrees, reachable, tree_height, topo_order, components, two_colorable, distances,
        shortest_path_count, spanning_tree,
    )
}  # fmt: skip
