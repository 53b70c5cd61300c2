"""eval-reasoning-v2: every puzzle solved again by a search written independently of the
generator (houses filled left to right instead of attribute by attribute, all permutations,
all truth assignments, all simple routes), checking that the solution is unique and matches."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

ROWS_PATH = Path(__file__).resolve().parents[2] / "datasets" / "eval-reasoning-v2" / "rows.jsonl"
ROWS = [json.loads(line) for line in ROWS_PATH.read_text(encoding="utf-8").splitlines()]
LETTERS = "ABCDEFGHIJ"


def _clue_ok(clue: list, pos: dict[tuple[str, str], int], filled: int) -> bool:
    """Clue check on houses 0..filled; an entity not yet placed lives in a later house."""
    kind = clue[0]
    a = pos.get(tuple(clue[1]))
    if kind in ("at", "not_at"):
        if a is None:
            return kind == "not_at" or clue[2] > filled
        return (a == clue[2]) == (kind == "at")
    b = pos.get(tuple(clue[2]))
    if a is not None and b is not None:
        return {
            "same": a == b,
            "diff": a != b,
            "left": a + 1 == b,
            "before": a < b,
            "next": abs(a - b) == 1,
        }[kind]
    if a is None and b is None:
        return True
    placed = a if a is not None else b
    if kind == "same":
        return False
    if kind == "left":
        return a is not None and a == filled
    if kind == "before":
        return a is not None
    if kind == "next":
        return placed == filled
    return True  # diff


def _grids(meta: dict[str, Any]) -> list[dict[str, list[str]]]:
    cats, values = meta["categories"], meta["values"]
    n = len(values[cats[0]])
    found: list[dict[str, list[str]]] = []

    def place(house: int, pos: dict[tuple[str, str], int]) -> None:
        if len(found) > 1:
            return
        if house == n:
            found.append({c: sorted(values[c], key=lambda v, c=c: pos[(c, v)]) for c in cats})
            return
        free = [[v for v in values[c] if (c, v) not in pos] for c in cats]
        for combo in itertools.product(*free):
            new = dict(pos) | {(c, v): house for c, v in zip(cats, combo, strict=True)}
            if all(_clue_ok(clue, new, house) for clue in meta["clues"]):
                place(house + 1, new)

    place(0, {})
    return found


def _order_ok(clue: list, order: tuple[str, ...]) -> bool:
    a = order.index(clue[1])
    rules = {
        "pos": lambda: a == clue[2],
        "not_pos": lambda: a != clue[2],
        "parity": lambda: (a + 1) % 2 == clue[2],
        "ahead": lambda: a < order.index(clue[2]),
        "right_ahead": lambda: order.index(clue[2]) == a + 1,
        "gap": lambda: abs(order.index(clue[2]) - a) == clue[3] + 1,
        "apart": lambda: abs(order.index(clue[2]) - a) >= 2,
    }
    return rules[clue[0]]()


def _says(statement: list, world: dict[str, bool]) -> bool:
    kind, args = statement[0], statement[1:]
    if kind == "count":
        return list(world.values()).count(True) == args[0]
    if kind in ("knight", "knave"):
        return world[args[0]] is (kind == "knight")
    x, y = (world[p] for p in args)
    table = {
        "same": x is y,
        "differ": x is not y,
        "some_knave": not x or not y,
        "if_then": y if x else True,
        "either": x or y,
    }
    return table[kind]


def _starts(durations: list[int], prereqs: list[list[int]], delay: dict[int, int]) -> list[int]:
    """Unlimited workers: relax start days (not before ``delay``) until nothing moves."""
    start = [delay.get(t, 0) for t in range(len(durations))]
    changed = True
    while changed:
        changed = False
        for t, pre in enumerate(prereqs):
            need = max([delay.get(t, 0), *(start[p] + durations[p] for p in pre)])
            if need > start[t]:
                start[t], changed = need, True
    return start


def _project_days(durations: list[int], prereqs: list[list[int]], delay: dict[int, int]) -> int:
    starts = _starts(durations, prereqs, delay)
    return max(s + d for s, d in zip(starts, durations, strict=True))


def _two_workers(durations: list[int], prereqs: list[list[int]]) -> int:
    best = sum(durations)
    n = len(durations)
    for order in itertools.permutations(range(n)):
        if any(order.index(p) > order.index(t) for t in range(n) for p in prereqs[t]):
            continue
        for workers in itertools.product((0, 1), repeat=n):
            free, end = [0, 0], {}
            for t in order:
                w = workers[t]
                end[t] = max([free[w], *(end[p] for p in prereqs[t])]) + durations[t]
                free[w] = end[t]
            best = min(best, max(end.values()))
    return best


def _routes(meta: dict[str, Any]) -> list[tuple[int, list[str]]]:
    arcs: dict[tuple[str, str], int] = {}
    for a, b, w, oneway in meta["edges"]:
        arcs[(a, b)] = w
        if not oneway:
            arcs[(b, a)] = w
    out: list[tuple[int, list[str]]] = []
    stack = [(0, [meta["source"]])]
    while stack:
        length, path = stack.pop()
        if path[-1] == meta["target"]:
            out.append((length, path))
            continue
        for (a, b), w in arcs.items():
            if a == path[-1] and b not in path:
                stack.append((length + w, [*path, b]))
    return sorted(out)


def _hhmm(value: int) -> str:
    return f"{value // 60:02d}:{value % 60:02d}"


def _meeting(meta: dict[str, Any]) -> str:
    def mins(text: str) -> int:
        return int(text[:2]) * 60 + int(text[3:])

    busy = [(mins(a), mins(b)) for spans in meta["busy"].values() for a, b in spans]
    for s in range(540, mins(meta["end_by"]) - meta["length"] + 1):
        minutes = set(range(s, s + meta["length"]))
        if all(
            not minutes & set(range(a, b)) and not a < b <= s < b + meta["gap"] for a, b in busy
        ):
            return _hhmm(s)
    raise AssertionError("no slot")


def _chosen(row: dict[str, Any]) -> str:
    return row["choices"][ord(row["answer"]) - 65]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_puzzle_solved_independently(row: dict[str, Any]) -> None:
    meta, kind = row["meta"], row["meta"]["kind"]
    if kind == "grid":
        grids = _grids(meta)
        assert grids == [meta["solution"]]
        q = meta["question"]
        house = grids[0][q["of"][0]].index(q["of"][1])
        if q["find"] == "name":
            assert row["answer"] == grids[0]["name"][house]
        elif q["find"] == "house":
            assert row["answer"] == str(house + 1)
        else:
            value = grids[0][q["category"]][house]
            assert value in _chosen(row) and q["of"][1] in _chosen(row)
    elif kind == "order":
        orders = [
            p
            for p in itertools.permutations(meta["runners"])
            if all(_order_ok(c, p) for c in meta["clues"])
        ]
        assert len(orders) == 1
        q = meta["question"]
        if q["find"] == "runner":
            assert row["answer"] == orders[0][q["place"] - 1]
        elif q["find"] == "place":
            assert row["answer"] == str(orders[0].index(q["runner"]) + 1)
        else:
            assert _chosen(row) == ", ".join(orders[0])
    elif kind == "knights":
        people = meta["people"]
        worlds = [
            dict(zip(people, bits, strict=True))
            for bits in itertools.product((False, True), repeat=len(people))
        ]
        good = [w for w in worlds if all(_says(st, w) is w[who] for who, st in meta["speeches"])]
        assert len(good) == 1
        knights = [p for p in people if good[0][p]]
        if row["scorer"] == "numeric":
            assert row["answer"] == str(len(people) - len(knights))
        elif row["scorer"] == "exact":
            assert row["answer"][0] == (", ".join(knights) or "none")
        else:
            for p in people:
                assert f"{p} is a {'knight' if good[0][p] else 'knave'}" in _chosen(row)
    elif kind == "makespan":
        d, pre = meta["durations"], meta["prereqs"]
        want = _two_workers(d, pre) if meta["workers"] == 2 else _project_days(d, pre, {})
        assert row["answer"] == str(want)
    elif kind == "slack":
        d, pre = meta["durations"], meta["prereqs"]
        base = _project_days(d, pre, {})
        fine = []
        for choice in row["choices"]:
            t = LETTERS.index(choice[-1])
            earliest = _starts(d, pre, {})[t]
            fine.append(_project_days(d, pre, {t: earliest + meta["delay"]}) == base)
        assert fine.count(True) == 1 and fine.index(True) == ord(row["answer"]) - 65
    elif kind == "meeting":
        assert _meeting(meta) == row["answer"][0]
    else:
        routes = _routes(meta)
        assert routes[0][0] < routes[1][0]  # the shortest route is unique
        if row["scorer"] == "numeric":
            assert row["answer"] == str(routes[0][0])
        elif row["scorer"] == "exact":
            assert row["answer"][0] == "-".join(routes[0][1])
        else:
            assert _chosen(row) == " - ".join(routes[0][1])
            valid = {" - ".join(p) for _, p in routes}
            assert set(row["choices"]) <= valid


def test_suite_shape() -> None:
    assert len(ROWS) >= 100
    assert {r["scorer"] for r in ROWS} == {"mc", "exact", "numeric"}
    assert {(r["category"], r["difficulty"]) for r in ROWS} == {
        (c, d)
        for c in ("logic_grid", "ordering", "knights_knaves", "scheduling", "shortest_path")
        for d in ("easy", "medium", "hard")
    }
    assert len({r["prompt"] for r in ROWS}) == len(ROWS)
