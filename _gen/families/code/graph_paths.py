"""Path task families for eval-code-v2, in the "graphs" category with ``graphs``:
shortest distances, counts of shortest paths and spanning trees (task shape in ``base``;
``inputs[1]`` is the prompt's worked example, the rest are hidden tests). Every oracle
brute-forces or uses another algorithm than the reference.
"""

from __future__ import annotations

import itertools
import random

from families.code.base import Task, mutate, src, task
from families.code.graphs import random_edges


def distances(rng: random.Random, v: int) -> Task:
    undirected = rng.random() < 0.5
    body = """
        import heapq

        def distances(n: int, edges: list[list[int]], source: int) -> list[int]:
            links = {x: [] for x in range(n)}
            for a, b, w in edges:
                links[a].append((b, w))
                @BACK
            best = [-1] * n
            queue = [(0, source)]
            while queue:
                d, x = heapq.heappop(queue)
                if best[x] != -1:
                    continue
                best[x] = d
                for y, w in links[x]:
                    if best[y] == -1:
                        heapq.heappush(queue, (d + w, y))
            return best
    """
    back = "links[b].append((a, w))" if undirected else "pass"
    wrong = """
        from collections import deque

        def distances(n: int, edges: list[list[int]], source: int) -> list[int]:
            links = {x: [] for x in range(n)}
            for a, b, w in edges:
                links[a].append((b, w))
                @BACK
            best = [-1] * n
            best[source] = 0
            queue = deque([source])
            while queue:
                x = queue.popleft()
                for y, w in links[x]:
                    if best[y] == -1 and y != source:
                        best[y] = best[x] + w
                        queue.append(y)
            return best
    """

    def oracle(n: int, edges: list[list[int]], source: int) -> list[int]:
        inf = 10**9
        dist = [[0 if i == j else inf for j in range(n)] for i in range(n)]
        for a, b, w in edges:  # Floyd-Warshall over every pair
            dist[a][b] = min(dist[a][b], w)
            if undirected:
                dist[b][a] = min(dist[b][a], w)
        for k, i, j in itertools.product(range(n), repeat=3):
            dist[i][j] = min(dist[i][j], dist[i][k] + dist[k][j])
        return [d if d < inf else -1 for d in dist[source]]

    def weighted(n: int, m: int) -> list[list[int]]:
        return [[a, b, rng.randint(1, 9)] for a, b in random_edges(rng, n, m)]

    inputs = [(1, [], 0), (5, weighted(5, 7), 0), (3, [[0, 1, 9], [0, 2, 2], [2, 1, 3]], 0)]
    inputs += [(7, weighted(7, 10), rng.randrange(7)), (4, [[1, 0, 5], [2, 3, 1]], 0)]
    kind = "undirected edges (usable both ways)" if undirected else "one-way edges (from a to b)"
    return task(
        "graphs",
        "hard",
        "def distances(n: int, edges: list[list[int]], source: int) -> list[int]",
        f"A graph has nodes 0..n-1 and {kind} given as [a, b, w] with a positive integer "
        "length w. Return a list whose item i is the length of the shortest path from source "
        "to node i (0 for source itself), or -1 when node i cannot be reached.",
        src(body, BACK=back),
        src(wrong, BACK=back),
        inputs,
        oracle,
    )


def shortest_path_count(rng: random.Random, v: int) -> Task:
    body = """
        def shortest_path_count(n: int, edges: list[list[int]], s: int, t: int) -> int:
            links = {x: set() for x in range(n)}
            for a, b in edges:
                links[a].add(b)
                links[b].add(a)
            dist, ways = {s: 0}, {s: 1}
            layer = [s]
            while layer:
                nxt = []
                for x in layer:
                    for y in links[x]:
                        if y not in dist:
                            dist[y], ways[y] = dist[x] + 1, 0
                            nxt.append(y)
                        if dist[y] == dist[x] + 1:
                            ways[y] += ways[x]
                layer = nxt
            return ways.get(t, 0)
    """

    def oracle(n: int, edges: list[list[int]], s: int, t: int) -> int:
        links = {
            x: {b for a, b in edges if a == x} | {a for a, b in edges if b == x} for x in range(n)
        }
        paths: list[int] = []

        def walk(x: int, seen: set[int]) -> None:
            if x == t:
                paths.append(len(seen))
                return
            for y in links[x] - seen:
                walk(y, seen | {y})

        walk(s, {s})
        return paths.count(min(paths)) if paths else 0

    square = [[0, 1], [0, 2], [1, 3], [2, 3], [1, 2]]
    inputs = [(2, [], 0, 1), (6, random_edges(rng, 6, 8), 0, 5), (4, square, 0, 3)]
    inputs += [(7, random_edges(rng, 7, 11), 0, 6), (3, [[0, 1], [1, 2]], 2, 2)]
    return task(
        "graphs",
        "hard",
        "def shortest_path_count(n: int, edges: list[list[int]], s: int, t: int) -> int",
        "An undirected graph has nodes 0..n-1 and the edges [a, b] in edges (repeats may "
        "occur and count once). Return how many different shortest paths (fewest edges) lead "
        "from s to t; two paths differ when their sequences of nodes differ. Return 1 when s "
        "equals t and 0 when t cannot be reached.",
        src(body),
        mutate(src(body), "if dist[y] == dist[x] + 1:", "if dist[y] >= dist[x]:"),
        inputs,
        oracle,
    )


def spanning_tree(rng: random.Random, v: int) -> Task:
    maximum = rng.random() < 0.5
    body = """
        def spanning_tree(n: int, edges: list[list[int]]) -> int:
            group = list(range(n))

            def find(x: int) -> int:
                while group[x] != x:
                    x = group[x]
                return x

            total, used = 0, 0
            for a, b, w in sorted(edges, key=lambda e: e[2], reverse=@REV):
                if find(a) != find(b):
                    group[find(a)] = find(b)
                    total += w
                    used += 1
            return total if used == n - 1 else -1
    """
    wrong = """
        def spanning_tree(n: int, edges: list[list[int]]) -> int:
            if len(edges) < n - 1:
                return -1
            weights = sorted((w for _, _, w in edges), reverse=@REV)
            return sum(weights[: n - 1])
    """

    def oracle(n: int, edges: list[list[int]]) -> int:
        best = None
        for chosen in itertools.combinations(edges, n - 1):
            label = list(range(n))
            for _ in range(n):
                for a, b, _w in chosen:
                    label[a] = label[b] = min(label[a], label[b])
            if len(set(label)) == 1:
                total = sum(w for _, _, w in chosen)
                best = total if best is None else (max if maximum else min)(best, total)
        return -1 if best is None else best

    def weighted(n: int, m: int) -> list[list[int]]:
        return [[a, b, rng.randint(1, 20)] for a, b in random_edges(rng, n, m)]

    trap = (
        [[0, 1, 1], [1, 2, 1], [0, 2, 1], [2, 3, 8]]
        if not maximum
        else [[0, 1, 9], [1, 2, 9], [0, 2, 9], [2, 3, 1]]
    )
    inputs = [
        (1, []),
        (5, weighted(5, 7)),
        (4, trap),
        (6, weighted(6, 9)),
        (4, [[0, 1, 3], [2, 3, 4]]),
    ]
    which = "largest" if maximum else "smallest"
    return task(
        "graphs",
        "hard",
        "def spanning_tree(n: int, edges: list[list[int]]) -> int",
        "An undirected graph has nodes 0..n-1 (n >= 1) and weighted edges [a, b, w]. Choose "
        "edges that connect all n nodes without forming a cycle (a spanning tree) with the "
        f"{which} possible total weight, and return that total; return -1 if the graph is not "
        "connected (a single node needs no edge and gives 0).",
        src(body, REV=maximum),
        src(wrong, REV=maximum),
        inputs,
        oracle,
    )


FAMILIES = [
    distances,
    shortest_path_count,
    spanning_tree,
]
