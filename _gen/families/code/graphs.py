"""Graph task families for eval-code-v2, in the "graphs" category with ``graph_paths``
(task shape in ``base``; ``inputs[1]`` is the prompt's worked example, the rest are hidden
tests). Graphs are edge lists of [u, v] lists; node names are strings or the integers 0..n-1 as
each statement says. Every oracle brute-forces or uses another algorithm than the reference.
"""

from __future__ import annotations

import itertools
import random

from families.code.base import Task, mutate, src, task


def random_edges(rng: random.Random, n: int, m: int) -> list[list[int]]:
    pairs = rng.sample([[a, b] for a in range(n) for b in range(n) if a != b], m)
    return [sorted(p) if rng.random() < 0.3 else p for p in pairs]


def _names(rng: random.Random, m: int) -> list[list[str]]:
    return [[rng.choice("pqrstu"), rng.choice("pqrstu")] for _ in range(m)]


def degrees(rng: random.Random, v: int) -> Task:
    directed = rng.random() < 0.5
    body = """
        def degrees(edges: list[list[str]]) -> dict[str, int]:
            count = {}
            for a, b in edges:
                @FIRST
                count[b] = count.get(b, 0) + 1
            return count
    """
    first = "count.setdefault(a, 0)" if directed else "count[a] = count.get(a, 0) + 1"
    wrong_first = "pass" if directed else "count[a] = count.get(a, 0) + (a != b)"

    def oracle(edges: list[list[str]]) -> dict[str, int]:
        nodes = {x for edge in edges for x in edge}
        if directed:
            return {x: sum(1 for _, b in edges if b == x) for x in nodes}
        return {x: sum((a == x) + (b == x) for a, b in edges) for x in nodes}

    fixed = [["p", "q"], ["r", "r"], ["q", "p"], ["s", "q"]]
    inputs = [([],), (_names(rng, 6),), (fixed,), (_names(rng, 9),), ([["s", "t"]],)]
    what = (
        "edge [a, b] points from a to b. Return a dict mapping every node that appears in "
        "edges to its in-degree, the number of edges pointing to it (0 for a node that only "
        "has outgoing edges)"
        if directed
        else "edge [a, b] joins a and b in both directions. Return a dict mapping every node "
        "that appears in edges to its degree, the number of edge ends at it: a loop [a, a] "
        "adds 2 to a, and repeated edges count each time"
    )
    return task(
        "graphs",
        "easy",
        "def degrees(edges: list[list[str]]) -> dict[str, int]",
        f"edges is a list of [a, b] pairs of node names (strings); {what}.",
        src(body, FIRST=first),
        src(body, FIRST=wrong_first),
        inputs,
        oracle,
    )


def reachable(rng: random.Random, v: int) -> Task:
    body = """
        def reachable(edges: list[list[str]], start: str) -> list[str]:
            seen = {start}
            todo = [start]
            while todo:
                node = todo.pop()
                for a, b in edges:
                    if a == node and b not in seen:
                        seen.add(b)
                        todo.append(b)
            return sorted(seen)
    """
    wrong = """
        def reachable(edges: list[list[str]], start: str) -> list[str]:
            seen = {start}
            todo = [start]
            while todo:
                node = todo.pop()
                for a, b in edges:
                    for x, y in ((a, b), (b, a)):
                        if x == node and y not in seen:
                            seen.add(y)
                            todo.append(y)
            return sorted(seen)
    """

    def oracle(edges: list[list[str]], start: str) -> list[str]:
        found = {start}
        while True:  # grow until a fixed point
            more = found | {b for a, b in edges if a in found}
            if more == found:
                return sorted(found)
            found = more

    inputs = [([], "p"), (_names(rng, 7), "p"), ([["a", "b"], ["c", "a"]], "a")]
    inputs += [(_names(rng, 10), rng.choice("pqrstu")), ([["x", "y"]], "z")]
    return task(
        "graphs",
        "easy",
        "def reachable(edges: list[list[str]], start: str) -> list[str]",
        "edges is a list of one-way links [a, b] (from node a to node b; names are strings). "
        "Return the sorted list of all nodes that can be reached from start by following links "
        "forwards, start itself included (even when it has no links).",
        src(body),
        src(wrong),
        inputs,
        oracle,
    )


def tree_height(rng: random.Random, v: int) -> Task:
    levels = rng.random() < 0.5
    body = """
        def tree_height(parents: list[int]) -> int:
            best = 0
            for node in range(len(parents)):
                depth = @START
                while parents[node] != -1:
                    node = parents[node]
                    depth += 1
                best = max(best, depth)
            return best
    """

    def oracle(parents: list[int]) -> int:
        children: dict[int, list[int]] = {}
        for child, parent in enumerate(parents):
            children.setdefault(parent, []).append(child)
        layer, count = children[-1], 0
        while layer:
            layer, count = [c for p in layer for c in children.get(p, [])], count + 1
        return count if levels else count - 1

    def tree(n: int) -> list[int]:
        order = list(range(n))
        rng.shuffle(order)
        parents = [-1] * n
        for i, node in enumerate(order[1:], 1):
            parents[node] = order[rng.randrange(i)]
        return parents

    inputs = [([-1],), (tree(7),), ([1, 2, -1],), (tree(12),), ([-1, 0, 0, 0],)]
    what = (
        "the number of nodes on the longest path from the root down to a leaf (a lone root gives 1)"
        if levels
        else "the number of edges on the longest path from the root down to a leaf (a lone "
        "root gives 0)"
    )
    return task(
        "graphs",
        "easy",
        "def tree_height(parents: list[int]) -> int",
        "A rooted tree has nodes 0..n-1 (n >= 1); parents[i] is the parent of node i, and -1 "
        f"marks the root. Return {what}.",
        src(body, START=1 if levels else 0),
        src(body, START=0 if levels else 1),
        inputs,
        oracle,
    )


def topo_order(rng: random.Random, v: int) -> Task:
    largest = rng.random() < 0.5
    pick = "max" if largest else "min"
    body = """
        def topo_order(n: int, edges: list[list[int]]) -> list[int]:
            indegree = [0] * n
            for _, b in edges:
                indegree[b] += 1
            ready = [x for x in range(n) if indegree[x] == 0]
            order = []
            while ready:
                x = @PICK(ready)
                ready.remove(x)
                order.append(x)
                for a, b in edges:
                    if a == x:
                        indegree[b] -= 1
                        if indegree[b] == 0:
                            ready.append(b)
            return order if len(order) == n else []
    """

    def oracle(n: int, edges: list[list[int]]) -> list[int]:
        perms = itertools.permutations(range(n - 1, -1, -1) if largest else range(n))
        for perm in perms:  # in lexicographic order, smallest (or largest) first
            where = {x: i for i, x in enumerate(perm)}
            if all(where[a] < where[b] for a, b in edges):
                return list(perm)
        return []

    def dag(n: int, m: int) -> list[list[int]]:
        rank = rng.sample(range(n), n)
        return [[a, b] for a, b in random_edges(rng, n, m) if rank[a] < rank[b]]

    inputs = [(3, [[0, 1], [1, 2], [2, 0]]), (5, dag(5, 6)), (4, [[0, 3], [1, 2]])]
    inputs += [(6, dag(6, 9)), (7, dag(7, 12)), (2, [])]
    return task(
        "graphs",
        "medium",
        "def topo_order(n: int, edges: list[list[int]]) -> list[int]",
        "Tasks are numbered 0..n-1 and each edge [a, b] says task a must come before task b. "
        "Return an order of all n tasks that respects every edge; whenever several tasks could "
        f"come next, take the {'largest' if largest else 'smallest'} number first. Return [] "
        "if no order exists (the edges form a cycle).",
        src(body, PICK=pick),
        mutate(src(body, PICK=pick), f"x = {pick}(ready)", "x = ready[0]"),
        inputs,
        oracle,
    )


def components(rng: random.Random, v: int) -> Task:
    largest = rng.random() < 0.5
    body = """
        def components(n: int, edges: list[list[int]]) -> int:
            links = {x: set() for x in range(n)}
            for a, b in edges:
                links[a].add(b)
                links[b].add(a)
            seen, sizes = set(), []
            for x in range(n):
                if x not in seen:
                    seen.add(x)
                    todo, size = [x], 0
                    while todo:
                        y = todo.pop()
                        size += 1
                        for z in links[y] - seen:
                            seen.add(z)
                            todo.append(z)
                    sizes.append(size)
            return @RESULT
    """
    result = "max(sizes, default=0)" if largest else "len(sizes)"

    def oracle(n: int, edges: list[list[int]]) -> int:
        label = list(range(n))
        for _ in range(n):  # push the smallest label along every edge until stable
            for a, b in edges:
                label[a] = label[b] = min(label[a], label[b])
        groups = [label.count(x) for x in set(label)]
        return max(groups, default=0) if largest else len(groups)

    inputs = [(0, []), (6, random_edges(rng, 6, 4)), (3, [[1, 0], [2, 0], [1, 2]])]
    inputs += [(9, random_edges(rng, 9, 6)), (4, [[0, 0], [2, 3]])]
    what = (
        "the number of nodes in the largest connected group (0 when n is 0)"
        if largest
        else "the number of connected groups; a node without edges is a group by itself"
    )
    return task(
        "graphs",
        "medium",
        "def components(n: int, edges: list[list[int]]) -> int",
        "An undirected graph has nodes 0..n-1 (n >= 0) and the edges [a, b] in edges (loops and "
        "repeats may occur). Nodes are connected when a path of edges joins them; a connected "
        f"group holds every node connected to any of its nodes. Return {what}.",
        src(body, RESULT=result),
        src(body, RESULT=result).replace("    links[b].add(a)\n", "")
        if largest
        else src(body, RESULT="n - len(edges)"),
        inputs,
        oracle,
    )


def two_colorable(rng: random.Random, v: int) -> Task:
    body = """
        def two_colorable(n: int, edges: list[list[int]]) -> bool:
            links = {x: [] for x in range(n)}
            for a, b in edges:
                links[a].append(b)
                links[b].append(a)
            color = {}
            for x in range(n):
                if x in color:
                    continue
                color[x] = 0
                todo = [x]
                while todo:
                    y = todo.pop()
                    for z in links[y]:
                        if z not in color:
                            color[z] = 1 - color[y]
                            todo.append(z)
                        elif color[z] == color[y]:
                            return False
            return True
    """
    wrong = """
        def two_colorable(n: int, edges: list[list[int]]) -> bool:
            color = {}
            for x in range(n):
                near = set()
                for a, b in edges:
                    for y in (a, b):
                        if x in (a, b) and y != x and y in color:
                            near.add(color[y])
                if near == {0, 1}:
                    return False
                color[x] = 1 if 0 in near else 0
            return all(color[a] != color[b] for a, b in edges)
    """

    def oracle(n: int, edges: list[list[int]]) -> bool:
        return any(
            all(bits[a] != bits[b] for a, b in edges)
            for bits in itertools.product((0, 1), repeat=n)
        )

    inputs = [
        (1, []),
        (6, random_edges(rng, 6, 5)),
        (4, [[0, 2], [1, 3], [2, 3]]),
        (3, [[0, 1], [1, 2], [2, 0]]),
    ]
    inputs += [(8, random_edges(rng, 8, 8)), (2, [[1, 1]])]
    return task(
        "graphs",
        "medium",
        "def two_colorable(n: int, edges: list[list[int]]) -> bool",
        "An undirected graph has nodes 0..n-1 and the edges [a, b] in edges. Return True if "
        "every node can be given one of two colours so that the two ends of every edge have "
        "different colours (a loop [a, a] makes that impossible), and False otherwise.",
        src(body),
        src(wrong),
        inputs,
        oracle,
    )


FAMILIES = [
    degrees,
    reachable,
    tree_height,
    topo_order,
    components,
    two_colorable,
]
