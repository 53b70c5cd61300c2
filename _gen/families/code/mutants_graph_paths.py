"""eval-code-v3: the path families of eval-code-v2 (``graph_paths``) with their mutants and the
hidden inputs that kill them (see ``mutation``).
"""

from __future__ import annotations

import random

from families.code import graph_paths
from families.code.base import src
from families.code.graphs import random_edges
from families.code.mutation import Strong, edit, strengthen


def weighted(rng: random.Random, n: int, m: int) -> list[list[int]]:
    return [[a, b, rng.randint(1, 9)] for a, b in random_edges(rng, n, m)]


def distances(rng: random.Random, v: int) -> Strong:
    t = graph_paths.distances(rng, v)
    undirected = "links[b].append((a, w))" in t.reference
    back = "links[b].append((a, w))" if undirected else "pass"
    last_edge = edit(
        t.reference,
        ("links = {x: [] for x in range(n)}", "links = {x: {} for x in range(n)}"),
        ("links[a].append((b, w))", "links[a][b] = w"),
        (back, "links[b][a] = w" if undirected else "pass"),
        ("for y, w in links[x]:", "for y, w in links[x].items():"),
    )
    return strengthen(
        t,
        [
            (2, [[0, 1, 2], [0, 1, 5]], 0),
            (3, [[1, 0, 4], [1, 2, 1]], 1),
            (6, weighted(rng, 6, 8), 0),
        ],
        [
            ("keeps the first distance found", t.wrong),
            (
                "one-way edges" if undirected else "edges usable both ways",
                edit(t.reference, (back, "pass" if undirected else "links[b].append((a, w))")),
            ),
            ("counts edges, not lengths", edit(t.reference, ("(d + w, y)", "(d + 1, y)"))),
            ("keeps the last of parallel edges", last_edge),
            (
                "infinity for a node out of reach",
                edit(
                    t.reference,
                    ("    return best", '    return [d if d >= 0 else float("inf") for d in best]'),
                ),
            ),
        ],
    )


def shortest_path_count(rng: random.Random, v: int) -> Strong:
    t = graph_paths.shortest_path_count(rng, v)
    every_path = """
        def shortest_path_count(n: int, edges: list[list[int]], s: int, t: int) -> int:
            links = {x: set() for x in range(n)}
            for a, b in edges:
                links[a].add(b)
                links[b].add(a)

            def walk(x: int, seen: set[int]) -> int:
                if x == t:
                    return 1
                return sum(walk(y, seen | {y}) for y in links[x] - seen)

            return walk(s, {s})
    """
    return strengthen(
        t,
        [
            (3, [[0, 1], [0, 1], [1, 2]], 0, 2),
            (3, [[1, 0], [2, 1]], 0, 2),
            (6, random_edges(rng, 6, 9), 1, 4),
        ],
        [
            ("also counts edges inside a layer", t.wrong),
            (
                "counts a repeated edge each time",
                edit(edit(t.reference, ("set()", "[]")), (".add(", ".append("), times=2),
            ),
            (
                "0 when s equals t",
                edit(
                    t.reference,
                    ("    links = {", "    if s == t:\n        return 0\n    links = {"),
                ),
            ),
            ("follows edges one way", edit(t.reference, ("        links[b].add(a)\n", ""))),
            (
                "-1 when t cannot be reached",
                edit(t.reference, ("ways.get(t, 0)", "ways.get(t, -1)")),
            ),
            ("counts every path, not only the shortest", src(every_path)),
        ],
    )


def spanning_tree(rng: random.Random, v: int) -> Strong:
    t = graph_paths.spanning_tree(rng, v)
    maximum = "reverse=True" in t.reference
    return strengthen(
        t,
        [(3, [[0, 1, 5], [1, 2, 1], [0, 2, 2]]), (5, weighted(rng, 5, 7))],
        [
            ("the n - 1 extreme weights", t.wrong),
            (
                "the other extreme",
                edit(t.reference, (f"reverse={maximum}", f"reverse={not maximum}")),
            ),
            (
                "does not check that all nodes are joined",
                edit(t.reference, ("return total if used == n - 1 else -1", "return total")),
            ),
            (
                "takes the edges in the order given",
                edit(
                    t.reference, (f"sorted(edges, key=lambda e: e[2], reverse={maximum})", "edges")
                ),
            ),
            (
                "-1 for a single node",
                edit(
                    t.reference,
                    (
                        "    group = list(range(n))",
                        "    if not edges:\n        return -1\n    group = list(range(n))",
                    ),
                ),
            ),
        ],
    )


FAMILIES = [
    distances,
    shortest_path_count,
    spanning_tree,
]
