# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-reasoning-v2: larger deduction puzzles, each solved by brute force (spec 001, -v2 wave).

Five categories: logic grids (3-5 houses, 3-4 attributes), finishing orders (5-7 runners),
knights and knaves (3-6 islanders), scheduling (critical path, slack, two-worker makespan,
meeting slots) and shortest paths (weighted, one-way roads on hard rows, a tempting direct road
that is never the shortest). Clues and statements are drawn at random from the hidden solution
until a brute-force search finds exactly one solution, so every puzzle is unique by
construction; ``prove`` re-runs the search on the stored structure (``meta``) and checks the
answer, and tests/gen/test_eval_reasoning_v2.py solves every puzzle again with its own search.
"""

from __future__ import annotations

import heapq
import itertools
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, v2
from families.reasoning.grid import NOUNS as GRID_NOUNS
from families.reasoning.grid import POOLS as GRID_POOLS
from families.reasoning.grid import clue_test as grid_test
from families.reasoning.grid import entity as grid_entity
from families.reasoning.grid import fact_text as grid_fact
from families.reasoning.grid import render as grid_render
from families.reasoning.grid import solve as grid_solve
from families.reasoning.knights import ISLANDERS
from families.reasoning.knights import render as kk_render
from families.reasoning.knights import says_true as kk_true
from families.reasoning.knights import worlds as kk_worlds
from families.reasoning.order import RUNNERS, ordinal
from families.reasoning.order import holds as order_holds
from families.reasoning.order import random_clue as order_random_clue
from families.reasoning.order import render as order_render
from families.reasoning.paths import TOWNS, bellman_ford
from families.reasoning.schedule import (
    clock,
    finish_times,
    minutes,
    project_length,
    random_project,
    two_worker_makespan,
    two_workers_by_sequences,
)

DATASET_ID = "eval-reasoning-v2"
KIND = "eval"
DESCRIPTION = (
    "Brute-force-verified deduction: logic grids, finishing orders, knights and knaves, "
    "scheduling and shortest paths, each with a unique solution; mixes mc, exact and numeric "
    "rows; supersedes eval-reasoning-v1."
)
SEED = 2_000_301
COUNT = 120
CREATED = "2026-09-01"
DEFAULT_SCORER = "exact"
CATEGORIES = ("logic_grid", "ordering", "knights_knaves", "scheduling", "shortest_path")
Item = dict[str, Any]

# ---- logic grids ------------------------------------------------------------------------------
GRID_SIZES = ((3, 3), (4, 4), (5, 4))  # (houses, attribute categories) per level


def grid_holds(clue: list, grid: dict[str, list[str]]) -> bool:
    """Truth of one clue in a full grid (``grid[cat][house]`` is the value in that house)."""
    where = {c: {v: h for h, v in enumerate(vals)} for c, vals in grid.items()}
    return bool(grid_test(clue)(where))


def grid_random_clue(rng: random.Random, cats: list[str], sol: dict[str, list[str]]) -> list:
    n = len(sol[cats[0]])
    kind = rng.choice(("same", "same", "diff", "at", "not_at", "left", "before", "next", "next"))
    ent = lambda cat, house: [cat, sol[cat][house]]  # noqa: E731
    c1, c2 = rng.sample(cats, 2)
    h1, h2 = rng.sample(range(n), 2)
    if kind == "same":
        return ["same", ent(c1, h1), ent(c2, h1)]
    if kind == "diff":
        return ["diff", ent(c1, h1), ent(c2, h2)]
    if kind in ("at", "not_at"):
        return [kind, ent(c1, h1), h1 if kind == "at" else h2]
    if kind == "left":
        h = rng.randrange(n - 1)
        return ["left", ent(c1, h), ent(rng.choice(cats), h + 1)]
    if kind == "before":
        lo, hi = sorted((h1, h2))
        return ["before", ent(c1, lo), ent(c2, hi)]
    h = rng.randrange(n - 1)
    pair = [ent(c1, h), ent(c2, h + 1)]
    rng.shuffle(pair)
    return ["next", *pair]


def logic_grid(rng: random.Random, level: int, variant: int) -> Item:
    n, k = GRID_SIZES[level]
    cats = ["name", *rng.sample(["pet", "drink", "colour", "job"], k - 1)]
    values = {c: sorted(rng.sample(GRID_POOLS[c], n)) for c in cats}
    sol = {c: rng.sample(values[c], n) for c in cats}
    clues: list = []
    while True:  # add clues that rule out a competing grid until the search finds only one
        found = grid_solve(cats, values, clues, limit=2)
        if len(found) == 1:
            break
        rival = found[0] if found[0] != sol else found[1]
        clue = grid_random_clue(rng, cats, sol)
        while grid_holds(clue, rival):
            clue = grid_random_clue(rng, cats, sol)
        clues.append(clue)
    for clue in rng.sample(clues, len(clues)):  # then drop every clue the others imply
        rest = [c for c in clues if c is not clue]
        if len(grid_solve(cats, values, rest, limit=2)) == 1:
            clues = rest
    assert grid_solve(cats, values, clues, limit=2) == [sol]
    stated = [c for c in clues if c[0] in ("same", "at")]  # never ask what one clue states
    asks = [
        (c, h)
        for c in cats[1:]
        for h in range(n)
        if not any(
            [c, sol[c][h]] in clue[1:] and (clue[0] == "at" or ["name", sol["name"][h]] in clue[1:])
            for clue in stated
        )
    ]
    other, house = rng.choice(asks or [(c, h) for c in cats[1:] for h in range(n)])
    listing = "; ".join(f"{GRID_NOUNS[c]} ({', '.join(values[c])})" for c in cats)
    intro = (
        f"{n} houses stand in a row, numbered 1 to {n} from left to right. Each house has one "
        f'resident, and no two residents share any of these: {listing}. "Directly to the '
        f'left of" means in the house numbered one lower; "next to" means in a '
        f"neighbouring house.\n\nClues:\n"
        + "\n".join(f"{i + 1}. {grid_render(c)}" for i, c in enumerate(clues))
    )
    meta: dict[str, Any] = {
        "kind": "grid",
        "categories": cats,
        "values": values,
        "clues": clues,
        "solution": sol,
    }
    target = sol[other][house]
    if variant == 0:
        ask = {
            "pet": f"Who keeps the {target}?",
            "drink": f"Who drinks {target}?",
            "colour": f"Who lives in the {target} house?",
            "job": f"Who is the {target}?",
        }[other]
        meta["question"] = {"find": "name", "of": [other, target]}
        return {
            "question": f"{intro}\n\n{ask} Answer with the name only.",
            "scorer": "exact",
            "answer": sol["name"][house],
            "meta": meta,
        }
    if variant == 1:
        meta["question"] = {"find": "house", "of": [other, target]}
        ask = f"In which house number does {grid_entity(other, target)} live?"
        return {
            "question": f"{intro}\n\n{ask}",
            "scorer": "numeric",
            "answer": str(house + 1),
            "meta": meta,
        }
    name = sol["name"][house]
    wrong = [grid_fact(name, c, v) for c in cats[1:] for v in values[c] if v != sol[c][house]]
    meta["question"] = {"find": "fact", "of": ["name", name], "category": other}
    return {
        "question": f"{intro}\n\nWhich of the following statements is true?",
        "scorer": "mc",
        "correct": grid_fact(name, other, target),
        "distractors": rng.sample(wrong, 3),
        "meta": meta,
    }


# ---- finishing orders -------------------------------------------------------------------------


def minimal_clues(
    rng: random.Random, truth: Any, space: list, random_clue: Any, holds: Any
) -> list:
    """Random true clues until ``space`` has one survivor, then drop every redundant clue."""
    clues: list = []
    alive = space
    while len(alive) > 1:
        clue = random_clue()
        kept = [s for s in alive if holds(clue, s)]
        if len(kept) < len(alive):
            clues.append(clue)
            alive = kept
    assert alive == [truth]
    for clue in rng.sample(clues, len(clues)):
        rest = [c for c in clues if c is not clue]
        if sum(1 for s in space if all(holds(c, s) for c in rest)) == 1:
            clues = rest
    return clues


def ordering(rng: random.Random, level: int, variant: int) -> Item:
    n = (5, 6, 7)[level]
    names = sorted(rng.sample(RUNNERS, n))
    truth = tuple(rng.sample(names, n))
    space = list(itertools.permutations(names))
    clues = minimal_clues(
        rng, truth, space, lambda: order_random_clue(rng, list(truth)), order_holds
    )
    intro = (
        f"{n} runners, {', '.join(names[:-1])} and {names[-1]}, finished a race with no "
        f"ties. Places are numbered from 1 (the winner) to {n}.\n\nClues:\n"
        + "\n".join(f"{i + 1}. {order_render(c)}" for i, c in enumerate(clues))
    )
    meta: dict[str, Any] = {
        "kind": "order",
        "runners": names,
        "clues": clues,
        "solution": list(truth),
    }
    fixed = {c[1] for c in clues if c[0] == "pos"}  # never ask what one clue states
    if variant == 0:
        place = rng.choice([i for i in range(n) if truth[i] not in fixed] or list(range(n)))
        meta["question"] = {"find": "runner", "place": place + 1}
        return {
            "question": f"{intro}\n\nWho finished {ordinal(place + 1)}? Answer with the name only.",
            "scorer": "exact",
            "answer": truth[place],
            "meta": meta,
        }
    if variant == 1:
        who = rng.choice([p for p in names if p not in fixed] or names)
        meta["question"] = {"find": "place", "runner": who}
        return {
            "question": f"{intro}\n\nIn which place did {who} finish? Answer with the place "
            f"number.",
            "scorer": "numeric",
            "answer": str(truth.index(who) + 1),
            "meta": meta,
        }
    near = sorted((sum(not order_holds(c, s) for c in clues), s) for s in space if s != truth)
    wrong = [", ".join(s) for _, s in near[:3]]
    meta["question"] = {"find": "order"}
    return {
        "question": f"{intro}\n\nWhat was the complete finishing order, from 1st to {n}th?",
        "scorer": "mc",
        "correct": ", ".join(truth),
        "distractors": wrong,
        "meta": meta,
    }


# ---- knights and knaves -----------------------------------------------------------------------


def kk_consistent(speeches: list[list], world: dict[str, bool]) -> list[bool]:
    return [world[s[0]] == kk_true(s[1], world) for s in speeches]


def knights_knaves(rng: random.Random, level: int, variant: int) -> Item:
    n = (3, 4, rng.choice((5, 6)))[level]
    names = sorted(rng.sample(ISLANDERS, n))
    worlds = kk_worlds(names)
    while True:
        truth = {p: rng.random() < 0.5 for p in names}
        speeches: list[list[Any]] = []
        for speaker in names:
            while True:
                kind = rng.choice(
                    (
                        "knight",
                        "knave",
                        "count",
                        "same",
                        "differ",
                        "some_knave",
                        "if_then",
                        "either",
                    )
                )
                if kind == "count":
                    statement = ["count", rng.randint(0, n)]
                elif kind in ("knight", "knave"):
                    statement = [kind, rng.choice([p for p in names if p != speaker])]
                else:
                    statement = [kind, *rng.sample([p for p in names if p != speaker], 2)]
                if kk_true(statement, truth) == truth[speaker]:
                    break
            speeches.append([speaker, statement])
        if [w for w in worlds if all(kk_consistent(speeches, w))] == [truth]:
            break
    intro = (
        f"On an island every inhabitant is either a knight, who always tells the truth, or a "
        f"knave, who always lies. You meet {n} inhabitants: {', '.join(names)}.\n\n"
        + "\n".join(f'{s}: "{kk_render(st)}"' for s, st in speeches)
    )
    meta: dict[str, Any] = {
        "kind": "knights",
        "people": names,
        "speeches": speeches,
        "solution": {p: ("knight" if v else "knave") for p, v in truth.items()},
    }
    knights = [p for p in names if truth[p]]
    if variant == 0:
        listed = knights or ["none"]
        ask = (
            "Which of them are knights? Give their names in alphabetical order separated by "
            "commas, or the word none if there are no knights."
        )
        return {
            "question": f"{intro}\n\n{ask}",
            "scorer": "exact",
            "answer": [", ".join(listed), ",".join(listed), " ".join(listed)],
            "meta": meta,
        }
    if variant == 1:
        return {
            "question": f"{intro}\n\nHow many of the {n} are knaves?",
            "scorer": "numeric",
            "answer": str(n - len(knights)),
            "meta": meta,
        }

    def describe(world: dict[str, bool]) -> str:
        return ", ".join(f"{p} is a {'knight' if world[p] else 'knave'}" for p in names)

    near = sorted(
        (sum(not ok for ok in kk_consistent(speeches, w)), describe(w))
        for w in worlds
        if w != truth
    )
    return {
        "question": f"{intro}\n\nWhich assignment is correct?",
        "scorer": "mc",
        "correct": describe(truth),
        "distractors": [d for _, d in near[:3]],
        "meta": meta,
    }


# ---- scheduling -------------------------------------------------------------------------------


def task_lines(durations: list[int], prereqs: list[list[int]]) -> str:
    lines = []
    for i, (d, pre) in enumerate(zip(durations, prereqs, strict=True)):
        after = (
            "has no prerequisites"
            if not pre
            else "can start only after "
            + " and ".join(", ".join("ABCDEFGHIJ"[p] for p in pre).rsplit(", ", 1))
            + (" is" if len(pre) == 1 else " are")
            + " finished"
        )
        lines.append(f"Task {'ABCDEFGHIJ'[i]} takes {d} day{'s' if d > 1 else ''} and {after}.")
    return "\n".join(lines)


def scheduling(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        n = (5, 7, 6)[level]
        durations, prereqs = random_project(rng, n)
        rule = "Any number of tasks can run at the same time."
        value = max(finish_times(durations, prereqs))
        if level == 2:
            rule = (
                "Only two workers are available: each task needs one worker for its whole "
                "duration, a worker does one task at a time, and tasks cannot be split."
            )
            easy = value
            value = two_worker_makespan(durations, prereqs)
            if value == easy or value == -(-sum(durations) // 2):
                return scheduling(rng, level, variant)
        question = (
            f"A project consists of these tasks; a task can start only when its "
            f"prerequisites are finished. {rule}\n\n{task_lines(durations, prereqs)}\n\n"
            f"What is the smallest number of days needed to finish the whole project?"
        )
        meta: dict[str, Any] = {
            "kind": "makespan",
            "durations": durations,
            "prereqs": prereqs,
            "workers": 2 if level == 2 else None,
        }
        return {"question": question, "scorer": "numeric", "answer": str(value), "meta": meta}
    if variant == 1:
        n, delay = (6, 7, 8)[level], rng.randint(2, 4)
        durations, prereqs = random_project(rng, n)
        base = max(finish_times(durations, prereqs))
        slack = []
        for t in range(n):
            longer = [d + delay * (i == t) for i, d in enumerate(durations)]
            slack.append(max(finish_times(longer, prereqs)) == base)
        free, tight = [t for t in range(n) if slack[t]], [t for t in range(n) if not slack[t]]
        if not free or len(tight) < 3:
            return scheduling(rng, level, variant)
        options = [rng.choice(free), *rng.sample(tight, 3)]
        question = (
            f"A project consists of these tasks; a task can start only when its "
            f"prerequisites are finished, and any number of tasks can run at the same "
            f"time.\n\n{task_lines(durations, prereqs)}\n\nWhich one of these tasks could "
            f"start {delay} days later than its earliest possible start without making the "
            f"whole project take longer?"
        )
        meta = {"kind": "slack", "durations": durations, "prereqs": prereqs, "delay": delay}
        return {
            "question": question,
            "scorer": "mc",
            "correct": f"Task {'ABCDEFGHIJ'[options[0]]}",
            "distractors": [f"Task {'ABCDEFGHIJ'[t]}" for t in options[1:]],
            "meta": meta,
        }
    people = sorted(rng.sample(RUNNERS, level + 2))
    length = rng.choice((30, 45, 60, 75, 90))
    busy: dict[str, list[list[str]]] = {p: [] for p in people}
    for p in people:  # non-overlapping busy periods, on a five-minute grid
        taken: list[tuple[int, int]] = []
        for _ in range(rng.randint(2, 4)):
            start = rng.randrange(540, 990, 5)
            end = min(1020, start + rng.choice((30, 45, 60, 90)))
            if all(end <= a or start >= b for a, b in taken):
                taken.append((start, end))
        busy[p] = [[clock(a), clock(b)] for a, b in sorted(taken)]
    gap = 15 if level == 2 else 0
    end_by = 1020 if level == 0 else rng.randrange(840, 1021, 15)
    blocked = [(minutes(a), minutes(b) + gap) for spans in busy.values() for a, b in spans]
    found = next(
        (
            s
            for s in range(540, end_by - length + 1)
            if all(s + length <= a or s >= b for a, b in blocked)
        ),
        None,
    )
    if found is None or found == 540:
        return scheduling(rng, level, variant)
    start = found
    lines = "\n".join(
        f"{p} is busy " + ", ".join(f"{a}-{b}" for a, b in busy[p]) + "." for p in people
    )
    rules = f"The meeting lasts {length} minutes and must end by {clock(end_by)}."
    if gap:
        rules += (
            " Each person also needs at least 15 free minutes between the end of any of "
            "their busy periods and the start of the meeting, when that busy period ends "
            "before the meeting starts."
        )
    question = (
        f"{', '.join(people[:-1])} and {people[-1]} need a meeting on the same day. "
        f"Everyone is free from 09:00 except when busy (busy periods include their start "
        f"time and end at their end time, so a meeting may start exactly when a busy "
        f"period ends).\n\n{lines}\n\n{rules} What is the earliest time the meeting can "
        f"start? Give the time in 24-hour HH:MM format."
    )
    meta = {"kind": "meeting", "busy": busy, "length": length, "end_by": clock(end_by), "gap": gap}
    variants = [clock(start), clock(start).lstrip("0")] if start < 600 else [clock(start)]
    return {"question": question, "scorer": "exact", "answer": variants, "meta": meta}


# ---- shortest paths ---------------------------------------------------------------------------


def dijkstra(edges: list[list], source: str) -> tuple[dict[str, int], dict[str, int]]:
    """Distances from ``source`` and the number of distinct shortest paths to each town."""
    adj: dict[str, list[tuple[str, int]]] = {}
    for a, b, w, oneway in edges:
        adj.setdefault(a, []).append((b, w))
        if not oneway:
            adj.setdefault(b, []).append((a, w))
    dist, ways, heap = {source: 0}, {source: 1}, [(0, source)]
    settled: set[str] = set()
    while heap:
        d, town = heapq.heappop(heap)
        if town in settled:
            continue
        settled.add(town)
        for nxt, w in adj.get(town, []):
            if d + w < dist.get(nxt, 10**9):
                dist[nxt], ways[nxt] = d + w, ways[town]
                heapq.heappush(heap, (d + w, nxt))
            elif d + w == dist[nxt]:
                ways[nxt] += ways[town]
    return dist, ways


def simple_paths(edges: list[list], source: str, target: str) -> list[tuple[int, list[str]]]:
    adj: dict[str, list[tuple[str, int]]] = {}
    for a, b, w, oneway in edges:
        adj.setdefault(a, []).append((b, w))
        if not oneway:
            adj.setdefault(b, []).append((a, w))
    found: list[tuple[int, list[str]]] = []

    def walk(path: list[str], length: int) -> None:
        if path[-1] == target:
            found.append((length, list(path)))
            return
        for nxt, w in sorted(adj.get(path[-1], [])):
            if nxt not in path:
                walk([*path, nxt], length + w)

    walk([source], 0)
    return sorted(found)


def shortest_path(rng: random.Random, level: int, variant: int) -> Item:
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
        return shortest_path(rng, level, variant)
    best, route = paths[0]
    if frozenset((source, target)) not in pairs:
        edges.append([source, target, best + rng.randint(1, 6), False])
    rng.shuffle(edges)
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
    if variant == 0:
        return {
            "question": f"{intro}What is the length, in km, of the shortest drive from {source} "
            f"to {target}?",
            "scorer": "numeric",
            "answer": str(best),
            "meta": meta,
        }
    if variant == 1:
        joins = ("-", " - ", " -> ", "->", ", ", " to ")
        return {
            "question": f"{intro}Which route is the shortest drive from {source} to {target}? "
            f"Give the towns in order from {source} to {target}, separated by "
            f"hyphens.",
            "scorer": "exact",
            "answer": [j.join(route) for j in joins],
            "meta": meta,
        }
    others = simple_paths(edges, source, target)[1:]
    fewest = min(others, key=lambda p: (len(p[1]), p[0]))
    pool = [fewest, *others[:2], *others[2:]]
    wrong = list(dict.fromkeys(" - ".join(p) for _, p in pool))[:3]
    if len(wrong) < 3:
        return shortest_path(rng, level, variant)
    return {
        "question": f"{intro}Which of these routes is the shortest drive from {source} to "
        f"{target}?",
        "scorer": "mc",
        "correct": " - ".join(route),
        "distractors": wrong,
        "meta": meta,
    }


# ---- rows and proofs --------------------------------------------------------------------------
BUILDERS = {
    "logic_grid": logic_grid,
    "ordering": ordering,
    "knights_knaves": knights_knaves,
    "scheduling": scheduling,
    "shortest_path": shortest_path,
}


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: category cycles fastest, then difficulty, then the question form."""
    category, level, variant = v2.cell(idx, CATEGORIES)
    item = BUILDERS[category](rng, level, variant)
    return v2.item_row(
        rng, f"reason2-{idx + 1:04d}", category, level, item, v2.plain_suffix("the answer")
    )


def _free_intervals(meta: dict[str, Any]) -> int:
    """Earliest meeting start by scanning the merged busy intervals (not minute by minute)."""
    spans = sorted(
        (minutes(a), minutes(b) + meta["gap"]) for p in meta["busy"].values() for a, b in p
    )
    start = 540
    for a, b in spans:
        if start + meta["length"] <= a:
            break
        start = max(start, b)
    assert start + meta["length"] <= minutes(meta["end_by"])
    return start


def _route_length(edges: list[list], towns: list[str]) -> int:
    lengths = {(a, b): w for a, b, w, _ in edges} | {(b, a): w for a, b, w, one in edges if not one}
    return sum(lengths[(x, y)] for x, y in itertools.pairwise(towns))


def _expected(row: dict[str, Any]) -> Any:
    meta, q = row["meta"], row["meta"].get("question", {})
    kind = meta["kind"]
    if kind == "grid":
        sols = grid_solve(meta["categories"], meta["values"], meta["clues"], limit=2)
        assert sols == [meta["solution"]], row["id"]
        sol = sols[0]
        cat, value = q["of"]
        house = sol[cat].index(value)
        if q["find"] == "name":
            return sol["name"][house]
        if q["find"] == "house":
            return str(house + 1)
        return grid_fact(value, q["category"], sol[q["category"]][house])
    if kind == "order":
        sols = [
            p
            for p in itertools.permutations(meta["runners"])
            if all(order_holds(c, p) for c in meta["clues"])
        ]
        assert sols == [tuple(meta["solution"])], row["id"]
        if q["find"] == "runner":
            return sols[0][q["place"] - 1]
        if q["find"] == "place":
            return str(sols[0].index(q["runner"]) + 1)
        return ", ".join(sols[0])
    if kind == "knights":
        worlds = [w for w in kk_worlds(meta["people"]) if all(kk_consistent(meta["speeches"], w))]
        assert len(worlds) == 1, row["id"]
        world = worlds[0]
        assert {p: ("knight" if v else "knave") for p, v in world.items()} == meta["solution"]
        knights = [p for p in meta["people"] if world[p]]
        if row["scorer"] == "exact":
            return ", ".join(knights) or "none"
        if row["scorer"] == "numeric":
            return str(len(meta["people"]) - len(knights))
        return ", ".join(f"{p} is a {'knight' if world[p] else 'knave'}" for p in meta["people"])
    if kind == "makespan":
        if meta["workers"] == 2:
            return str(two_workers_by_sequences(meta["durations"], meta["prereqs"]))
        return str(project_length(meta["durations"], meta["prereqs"]))
    if kind == "slack":
        d, pre = meta["durations"], meta["prereqs"]
        n, finish = len(d), project_length(d, pre)
        early = [0] * n
        for t in range(n):
            early[t] = max((early[p] + d[p] for p in pre[t]), default=0)
        late = [finish - d[t] for t in range(n)]
        for t in reversed(range(n)):
            for u in range(t + 1, n):
                if t in pre[u]:
                    late[t] = min(late[t], late[u] - d[t])
        fits = [
            c
            for c in row["choices"]
            if late["ABCDEFGHIJ".index(c[-1])] - early["ABCDEFGHIJ".index(c[-1])] >= meta["delay"]
        ]
        assert len(fits) == 1, row["id"]
        return fits[0]
    if kind == "meeting":
        return clock(_free_intervals(meta))
    dist = bellman_ford(meta["edges"], meta["source"])
    best = dist[meta["target"]]
    if row["scorer"] == "numeric":
        return str(best)
    routes = row["answer"] if row["scorer"] == "exact" else row["choices"]
    parsed = (
        [r.replace(" ", "").split("-") for r in routes[:1]]
        if row["scorer"] == "exact"
        else [r.split(" - ") for r in routes]
    )
    fits = [
        r
        for r in parsed
        if r[0] == meta["source"]
        and r[-1] == meta["target"]
        and _route_length(meta["edges"], r) == best
    ]
    assert len(fits) == 1, row["id"]
    return "-".join(fits[0]) if row["scorer"] == "exact" else " - ".join(fits[0])


def prove(row: dict[str, Any]) -> None:
    expected = _expected(row)
    if row["scorer"] == "mc":
        assert v2.check_mc_layout(row) == expected, (row["id"], expected)
    elif row["scorer"] == "exact":
        assert row["answer"] == expected or row["answer"][0] == expected, (row["id"], expected)
    else:
        assert row["answer"] == expected, (row["id"], row["answer"], expected)


def prove_all(rows: list[dict[str, Any]]) -> None:
    v2.check_suite(rows, CATEGORIES)


def main(argv: list[str] | None = None) -> None:
    lib.run(
        dataset_id=DATASET_ID,
        kind=KIND,
        description=DESCRIPTION,
        generator_file=f"_gen/{Path(__file__).name}",
        seed=SEED,
        count=COUNT,
        default_scorer=DEFAULT_SCORER,
        created=CREATED,
        generate=generate,
        prove=prove,
        prove_all=prove_all,
        argv=argv,
    )


if __name__ == "__main__":
    main()
