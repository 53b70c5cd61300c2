"""Shortest-path family of eval-reasoning-v3: road maps of 6-10 towns, one shortest route.

A random spanning tree plus extra roads (one-way on hard rows), a start and an end whose shortest
route is unique and at least three roads long, and a direct road between them that is always
longer. Questions: the length (numeric, and mc among four consecutive lengths with the right one
at a drawn place), the route (exact, and mc among the next-shortest routes, preferring routes
with as many towns as the right one so that neither the longest nor the shortest option stands
out), the first town on the route (mc), and the shortest drive that must pass a given town.

Answers come from Dijkstra's algorithm and an enumeration of simple routes; the proof uses
Bellman-Ford relaxation and re-measures every offered route.
"""

from __future__ import annotations

import heapq
import itertools
import random
from typing import Any

CATEGORY = "shortest_path"
FORMS = ("numeric", "mc", "exact", "mc", "numeric", "mc", "exact", "mc")
TOWNS = (
    "Alder",
    "Birchwood",
    "Cedarford",
    "Dunmore",
    "Elmstead",
    "Fenwick",
    "Glenrock",
    "Harlow",
    "Ivybridge",
    "Juniper",
    "Kestrel",
    "Larkspur",
)
Edge = list[Any]  # [a, b, km, one_way]
Item = dict[str, Any]


def _adjacency(edges: list[Edge]) -> dict[str, list[tuple[str, int]]]:
    adj: dict[str, list[tuple[str, int]]] = {}
    for a, b, w, oneway in edges:
        adj.setdefault(a, []).append((b, w))
        if not oneway:
            adj.setdefault(b, []).append((a, w))
    return adj


def dijkstra(edges: list[Edge], source: str) -> dict[str, int]:
    adj, dist, heap = _adjacency(edges), {source: 0}, [(0, source)]
    while heap:
        d, town = heapq.heappop(heap)
        if d > dist[town]:
            continue
        for nxt, w in adj.get(town, []):
            if d + w < dist.get(nxt, 10**9):
                dist[nxt] = d + w
                heapq.heappush(heap, (d + w, nxt))
    return dist


def simple_paths(edges: list[Edge], source: str, target: str) -> list[tuple[int, list[str]]]:
    adj, found = _adjacency(edges), []

    def walk(path: list[str], length: int) -> None:
        if path[-1] == target:
            found.append((length, list(path)))
            return
        for nxt, w in sorted(adj.get(path[-1], [])):
            if nxt not in path:
                walk([*path, nxt], length + w)

    walk([source], 0)
    return sorted(found)


def random_map(rng: random.Random, level: int) -> tuple[list[Edge], str, str, list]:
    while True:
        found = _try_map(rng, level)
        if found is not None:
            return found


def _try_map(rng: random.Random, level: int) -> tuple[list[Edge], str, str, list] | None:
    n = (6, 8, 10)[level]
    towns = sorted(rng.sample(TOWNS, n))
    order = rng.sample(towns, n)
    edges = [[order[i], rng.choice(order[:i]), rng.randint(2, 25), False] for i in range(1, n)]
    pairs = {frozenset(e[:2]) for e in edges}
    while len(edges) < int(n * 1.7):
        a, b = rng.sample(towns, 2)
        if frozenset((a, b)) not in pairs:
            pairs.add(frozenset((a, b)))
            edges.append([a, b, rng.randint(2, 25), level == 2 and rng.random() < 0.4])
    source, target = rng.sample(towns, 2)
    paths = simple_paths(edges, source, target)
    if not paths or len(paths[0][1]) < 4 or (len(paths) > 1 and paths[1][0] == paths[0][0]):
        return None
    if frozenset((source, target)) not in pairs:  # a tempting direct road, always longer
        edges.append([source, target, paths[0][0] + rng.randint(1, 6), False])
    rng.shuffle(edges)
    return edges, source, target, simple_paths(edges, source, target)


def _window(rng: random.Random, value: int) -> tuple[str, list[str]]:
    """Four consecutive numbers around ``value`` (its place drawn); bare numbers, since a road
    of the same length in the map is a coincidence, not a leak."""
    start = value - rng.randrange(4)
    return str(value), [str(v) for v in range(start, start + 4) if v != value]


def build(rng: random.Random, level: int, form: int) -> Item:
    while True:
        item = _build(rng, level, form)
        if item is not None:
            return item


def _build(rng: random.Random, level: int, form: int) -> Item | None:
    edges, source, target, paths = random_map(rng, level)
    best, route = paths[0]
    lines = "\n".join(
        f"One-way road from {a} to {b}: {w} km (it cannot be driven from {b} to {a})."
        if oneway
        else f"Road between {a} and {b}: {w} km."
        for a, b, w, oneway in edges
    )
    intro = (
        f"A map lists these roads; every road not marked one-way can be driven in both "
        f"directions.\n\n{lines}\n\n"
    )
    meta: dict[str, Any] = {"kind": "route", "edges": edges, "source": source, "target": target}
    drive = f"the shortest drive from {source} to {target}"
    if form == 0:
        return {
            "question": f"{intro}What is the length, in km, of {drive}?",
            "scorer": "numeric",
            "answer": str(best),
            "meta": meta,
        }
    if form == 4:  # via a town off the shortest route
        towns = sorted({t for e in edges for t in e[:2]} - set(route))
        via = rng.choice(towns)
        there, back = dijkstra(edges, source), dijkstra(edges, via)
        if via not in there or target not in back:
            return None
        meta["via"] = via
        q = (
            f"{intro}A delivery must go from {source} to {target} and stop at {via} on the way "
            f"(roads may be driven more than once). What is the length, in km, of the "
            f"shortest such drive?"
        )
        return {
            "question": q,
            "scorer": "numeric",
            "answer": str(there[via] + back[target]),
            "meta": meta,
        }
    if FORMS[form] == "exact":
        q = (
            f"{intro}Which route is {drive}? Give the towns in order from {source} to "
            f"{target}, separated by hyphens."
        )
        joins = ("-", " - ", " -> ", "->", ", ", " to ")
        return {
            "question": q,
            "scorer": "exact",
            "answer": [j.join(route) for j in joins],
            "meta": meta,
        }
    if form == 3:
        right, wrong = _window(rng, best)
        return {
            "question": f"{intro}What is the length, in km, of {drive}?",
            "scorer": "mc",
            "correct": right,
            "distractors": wrong,
            "meta": meta,
        }
    if form == 5:
        after = route[1]
        others = [t for t in sorted({t for e in edges for t in e[:2]}) if t not in (source, after)]
        meta["asked"] = "first_stop"
        return {
            "question": f"{intro}Which town does {drive} reach first after leaving {source}?",
            "scorer": "mc",
            "correct": after,
            "distractors": rng.sample(others, 3),
            "meta": meta,
        }
    others = [p for _, p in paths[1:]]
    same = [p for p in others if len(p) == len(route)]
    pool = (same + [p for p in others if p not in same])[:3] if len(same) >= 2 else others[:3]
    if len(pool) < 3:
        return None
    return {
        "question": f"{intro}Which of these routes is {drive}?",
        "scorer": "mc",
        "correct": " - ".join(route),
        "distractors": [" - ".join(p) for p in pool],
        "meta": meta,
    }


# ---- proof: Bellman-Ford and re-measured routes ------------------------------------------------
def bellman_ford(edges: list[Edge], source: str) -> dict[str, int]:
    dist = {source: 0}
    arcs = [(a, b, w) for a, b, w, _ in edges] + [(b, a, w) for a, b, w, one in edges if not one]
    for _ in range(len(edges) + 1):
        for a, b, w in arcs:
            if a in dist and dist[a] + w < dist.get(b, 10**9):
                dist[b] = dist[a] + w
    return dist


def _length(edges: list[Edge], towns: list[str]) -> int | None:
    roads = {(a, b): w for a, b, w, _ in edges} | {(b, a): w for a, b, w, one in edges if not one}
    steps = [roads.get(pair) for pair in itertools.pairwise(towns)]
    return None if None in steps else sum(s for s in steps if s is not None)


def _ways(edges: list[Edge], source: str, target: str) -> int:
    """How many distinct shortest routes lead from ``source`` to ``target``."""
    dist = bellman_ford(edges, source)
    arcs = [(a, b, w) for a, b, w, _ in edges] + [(b, a, w) for a, b, w, one in edges if not one]
    ways = {source: 1}
    for town in sorted(dist, key=dist.__getitem__):
        if town != source:
            ways[town] = sum(
                ways[a] for a, b, w in arcs if b == town and a in dist and dist[a] + w == dist[town]
            )
    return ways[target]


def prove(row: dict[str, Any]) -> None:
    m = row["meta"]
    start = bellman_ford(m["edges"], m["source"])
    best = start[m["target"]]
    assert _ways(m["edges"], m["source"], m["target"]) == 1, row["id"]
    gold = row["answer"] if row["scorer"] != "mc" else row["choices"]["ABCD".index(row["answer"])]
    gold = gold[0] if isinstance(gold, list) else gold
    if "via" in m:
        total = start[m["via"]] + bellman_ford(m["edges"], m["via"])[m["target"]]
        assert gold == str(total), (row["id"], gold, total)
    elif row["scorer"] == "numeric" or gold.isdigit():
        assert gold == str(best), (row["id"], gold, best)
    elif m.get("asked") == "first_stop":  # a road s -> X, then a shortest drive X -> t
        on = [
            c
            for c in row["choices"]
            if (first := _length(m["edges"], [m["source"], c]))
            and first + bellman_ford(m["edges"], c).get(m["target"], 10**9) == best
        ]
        assert on == [gold], (row["id"], on)
    else:
        routes = row["choices"] if row["scorer"] == "mc" else [gold]
        fits = [r for r in routes if _length(m["edges"], r.replace(" ", "").split("-")) == best]
        assert fits == [gold], (row["id"], fits)
