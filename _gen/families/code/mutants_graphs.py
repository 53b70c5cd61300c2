"""eval-code-v3: the graph families of eval-code-v2 (``graphs``) with their mutants and the hidden
inputs that kill them (see ``mutation``).

two_colorable is code2-0062's defect: the -v2 graphs that could be coloured had no cycle and the
ones that could not held a triangle or a loop, so "True exactly when there is no cycle" passed.
Here hidden graphs hold an even cycle (True), a five-cycle (False), an odd cycle away from node
0, and a repeated edge.
"""

from __future__ import annotations

import random

from families.code import graphs
from families.code.base import src
from families.code.mutation import Strong, edit, strengthen


def dag(rng: random.Random, n: int, m: int) -> list[list[int]]:
    rank = rng.sample(range(n), n)
    return [[a, b] for a, b in graphs.random_edges(rng, n, m) if rank[a] < rank[b]]


def degrees(rng: random.Random, v: int) -> Strong:
    t = graphs.degrees(rng, v)
    directed = "count.setdefault(a, 0)" in t.reference
    once = edit(
        t.reference, ("for a, b in edges:", "for a, b in sorted({tuple(e) for e in edges}):")
    )
    neighbours = """
        def degrees(edges: list[list[str]]) -> dict[str, int]:
            near = {}
            for a, b in edges:
                near.setdefault(a, set()).add(b)
                near.setdefault(b, set()).add(a)
            return {x: len(ns) for x, ns in near.items()}
    """
    pairs = [[rng.choice("pqrs"), rng.choice("pqrs")] for _ in range(7)]
    common = [(["a", "b"], ["b", "a"], ["a", "b"])]
    if directed:
        mutants = [
            ("forgets nodes that only send", t.wrong),
            (
                "out-degree",
                edit(
                    t.reference,
                    (
                        "count.setdefault(a, 0)\n        count[b] = count.get(b, 0) + 1",
                        "count[a] = count.get(a, 0) + 1\n        count.setdefault(b, 0)",
                    ),
                ),
            ),
            (
                "counts both ends",
                edit(t.reference, ("count.setdefault(a, 0)", "count[a] = count.get(a, 0) + 1")),
            ),
            ("counts a repeated edge once", once),
        ]
    else:
        mutants = [
            ("a loop adds 1", t.wrong),
            (
                "counts the edges arriving only",
                edit(t.reference, ("count[a] = count.get(a, 0) + 1", "count.setdefault(a, 0)")),
            ),
            ("counts distinct neighbours", src(neighbours)),
            ("counts a repeated edge once", once),
        ]
    return strengthen(t, [(list(map(list, common[0])),), (pairs,)], mutants)


def reachable(rng: random.Random, v: int) -> Strong:
    t = graphs.reachable(rng, v)
    visiting_order = """
        def reachable(edges: list[list[str]], start: str) -> list[str]:
            order = [start]
            for node in order:
                for a, b in edges:
                    if a == node and b not in order:
                        order.append(b)
            return order
    """
    links = [[rng.choice("pqrstu"), rng.choice("pqrstu")] for _ in range(8)]
    return strengthen(
        t,
        [([["a", "c"], ["c", "b"]], "a"), (links, links[0][0])],
        [
            ("follows links both ways", t.wrong),
            (
                "leaves start out",
                edit(t.reference, ("return sorted(seen)", "return sorted(seen - {start})")),
            ),
            (
                "one link away only",
                src("""
                def reachable(edges: list[list[str]], start: str) -> list[str]:
                    return sorted({start} | {b for a, b in edges if a == start})
            """),
            ),
            ("in the order found, not sorted", src(visiting_order)),
        ],
    )


def tree_height(rng: random.Random, v: int) -> Strong:
    t = graphs.tree_height(rng, v)
    levels = "depth = 1" in t.reference
    from_zero = f"""
        def tree_height(parents: list[int]) -> int:
            children = {{}}
            for child, parent in enumerate(parents):
                children.setdefault(parent, []).append(child)

            def height(node: int) -> int:
                return max((1 + height(c) for c in children.get(node, [])), default=0)

            return height(0){" + 1" if levels else ""}
    """
    inner = "len(set(parents) - {-1})" + (" + 1" if levels else "")
    return strengthen(
        t,
        [([-1, 0, 0, 1, 2],), ([2, 2, -1, 0],)],
        [
            ("counts edges for nodes, or nodes for edges", t.wrong),
            (
                "the depth of the last node",
                edit(t.reference, ("best = max(best, depth)", "best = depth")),
            ),
            ("takes node 0 for the root", src(from_zero)),
            (
                "counts the nodes that have children",
                src(f"""
                def tree_height(parents: list[int]) -> int:
                    return {inner}
            """),
            ),
        ],
    )


def topo_order(rng: random.Random, v: int) -> Strong:
    t = graphs.topo_order(rng, v)
    pick = "max" if "max(ready)" in t.reference else "min"
    depth_first = """
        def topo_order(n: int, edges: list[list[int]]) -> list[int]:
            state, out = [0] * n, []

            def visit(x: int) -> None:
                if state[x] == 1:
                    raise ValueError("cycle")
                if state[x] == 0:
                    state[x] = 1
                    for a, b in edges:
                        if a == x:
                            visit(b)
                    state[x] = 2
                    out.append(x)

            try:
                for x in range(n):
                    visit(x)
            except ValueError:
                return []
            return out[::-1]
    """
    return strengthen(
        t,
        [(4, [[0, 1], [1, 2], [2, 1], [0, 3]]), (4, [[0, 3], [0, 2]]), (6, dag(rng, 6, 8))],
        [
            ("takes the first ready task", t.wrong),
            (
                "the other tie rule",
                edit(
                    t.reference,
                    (f"x = {pick}(ready)", f"x = {'min' if pick == 'max' else 'max'}(ready)"),
                ),
            ),
            (
                "returns the partial order on a cycle",
                edit(t.reference, ("return order if len(order) == n else []", "return order")),
            ),
            ("a depth-first order without the tie rule", src(depth_first)),
        ],
    )


def components(rng: random.Random, v: int) -> Strong:
    t = graphs.components(rng, v)
    largest = "max(sizes" in t.reference
    result = "max(sizes, default=0)" if largest else "len(sizes)"
    if largest:
        mutants = [
            ("follows edges one way", t.wrong),
            ("counts the groups", edit(t.reference, (result, "len(sizes)"))),
            ("the group of node 0", edit(t.reference, (result, "sizes[0] if sizes else 0"))),
            ("fails when n is 0", edit(t.reference, (result, "max(sizes)"))),
        ]
    else:
        mutants = [
            ("n minus the number of edges", t.wrong),
            (
                "forgets nodes without edges",
                edit(
                    t.reference,
                    (
                        "for x in range(n):\n",
                        "for x in sorted({a for e in edges for a in e}):\n",
                    ),
                ),
            ),
            ("follows edges one way", edit(t.reference, ("        links[b].add(a)\n", ""))),
        ]
    return strengthen(
        t, [(5, [[3, 4], [4, 3], [1, 1]]), (7, graphs.random_edges(rng, 7, 5))], mutants
    )


def two_colorable(rng: random.Random, v: int) -> Strong:
    t = graphs.two_colorable(rng, v)
    acyclic = """
        def two_colorable(n: int, edges: list[list[int]]) -> bool:
            group = list(range(n))

            def find(x: int) -> int:
                while group[x] != x:
                    x = group[x]
                return x

            for a, b in sorted({tuple(sorted(edge)) for edge in edges}):
                if find(a) == find(b):
                    return False
                group[find(a)] = find(b)
            return True
    """
    triangles = """
        def two_colorable(n: int, edges: list[list[int]]) -> bool:
            links = {x: set() for x in range(n)}
            for a, b in edges:
                if a == b:
                    return False
                links[a].add(b)
                links[b].add(a)
            return not any(links[a] & links[b] for a, b in edges)
    """
    return strengthen(
        t,
        [
            (4, [[0, 1], [1, 2], [2, 3], [3, 0]]),
            (5, [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0]]),
            (6, [[0, 1], [2, 3], [3, 4], [4, 2]]),
            (2, [[0, 1], [1, 0]]),
            (7, graphs.random_edges(rng, 7, 6)),
        ],
        [
            ("colours greedily in node order", t.wrong),
            ("True exactly when there is no cycle", src(acyclic)),
            ("looks for loops and triangles only", src(triangles)),
            (
                "ignores loops",
                edit(
                    t.reference,
                    (
                        "\n        links[a]",
                        "\n        if a == b:\n            continue\n        links[a]",
                    ),
                ),
            ),
            (
                "checks the part around node 0 only",
                edit(t.reference, ("for x in range(n):", "for x in range(min(n, 1)):")),
            ),
        ],
    )


FAMILIES = [
    degrees,
    reachable,
    tree_height,
    topo_order,
    components,
    two_colorable,
]
