"""eval-code-v3: the record-keeping families of eval-code-v2 (``records``) with their mutants and
the hidden inputs that kill them (see ``mutation``).
"""

from __future__ import annotations

import random

from families.code import records
from families.code.base import src
from families.code.mutation import Strong, edit, strengthen
from families.code.records import ITEMS, NAMES


def group_totals(rng: random.Random, v: int) -> Strong:
    t = records.group_totals(rng, v)
    largest = t.entry == "group_max"
    combine = "max(out[name], amount)" if largest else "out[name] + amount"
    line = f"out[name] = {combine} if name in out else amount"
    rows = [[rng.choice(NAMES[:3]), rng.randint(-9, 9)] for _ in range(7)]
    return strengthen(
        t,
        [([["dev", 5], ["dev", -1], ["eli", -3], ["eli", -8]],), (rows,)],
        [
            ("never below 0" if largest else "the last amount", t.wrong),
            ("the first amount", edit(t.reference, (line, "out.setdefault(name, amount)"))),
            ("counts the rows", edit(t.reference, (line, "out[name] = out.get(name, 0) + 1"))),
            (
                "the sum" if largest else "the largest amount",
                edit(
                    t.reference,
                    (combine, "out[name] + amount" if largest else "max(out[name], amount)"),
                ),
            ),
            ("the last amount", edit(t.reference, (combine, "amount")) if largest else None),
        ],
    )


def invert(rng: random.Random, v: int) -> Strong:
    t = records.invert(rng, v)
    rev = ", reverse=True" if "reverse=True" in t.reference else ""
    mapping = {k: rng.choice(ITEMS[:2]) for k in rng.sample(NAMES, 6)}
    return strengthen(
        t,
        [({"dev": "y", "ana": "y", "hal": "z", "cai": "y"},), (mapping,)],
        [
            ("keys in the order of d", t.wrong),
            (
                "the other alphabetical order",
                edit(
                    t.reference,
                    (
                        f"sorted(keys{rev})",
                        "sorted(keys, reverse=True)" if not rev else "sorted(keys)",
                    ),
                ),
            ),
            (
                "one key per value",
                src("""
                def invert(d: dict[str, str]) -> dict[str, list[str]]:
                    return {value: [key] for key, value in d.items()}
            """),
            ),
        ],
    )


def best_average(rng: random.Random, v: int) -> Strong:
    t = records.best_average(rng, v)
    empty_is_zero = """
        def best_average(scores: dict[str, list[int]]) -> str | None:
            best, best_avg = None, None
            for name in sorted(scores):
                marks = scores[name]
                average = sum(marks) / len(marks) if marks else 0
                if best_avg is None or average > best_avg:
                    best, best_avg = name, average
            return best
    """
    table = {
        k: [rng.randint(0, 10) for _ in range(rng.randint(1, 4))] for k in rng.sample(NAMES, 5)
    }
    return strengthen(
        t,
        [({"ben": [0], "ana": []},), ({"fay": [], "gus": []},), ({"ben": [2, 1], "ana": [1]},)]
        + [(table,)],
        [
            ("the highest total", t.wrong),
            (
                "the first in d's order among ties",
                edit(t.reference, ("for name in sorted(scores):", "for name in scores:")),
            ),
            ("fails on a name without marks", edit(t.reference, ("if marks and (", "if ("))),
            ("an empty list averages 0", src(empty_is_zero)),
            (
                "averages with integer division",
                edit(t.reference, ("sum(marks) / len(marks)", "sum(marks) // len(marks)"), times=2),
            ),
        ],
    )


def ranks(rng: random.Random, v: int) -> Strong:
    t = records.ranks(rng, v)
    modified = "t >= s" in t.reference
    rank = "sum(t >= s for t in scores)" if modified else "1 + sum(t > s for t in scores)"
    other = "1 + sum(t > s for t in scores)" if modified else "sum(t >= s for t in scores)"
    low_first = "sum(t <= s for t in scores)" if modified else "1 + sum(t < s for t in scores)"
    by_position = """
        def ranks(scores: list[int]) -> list[int]:
            order = sorted(range(len(scores)), key=lambda i: -scores[i])
            out = [0] * len(scores)
            for place, i in enumerate(order, 1):
                out[i] = place
            return out
    """
    return strengthen(
        t,
        [([4, 4, 4, 1],), ([rng.randint(0, 6) for _ in range(8)],)],
        [
            ("dense ranks", t.wrong),
            ("the other rule for ties", edit(t.reference, (rank, other))),
            ("ties broken by position", src(by_position)),
            ("the lowest score ranks first", edit(t.reference, (rank, low_first))),
        ],
    )


def merge_stock(rng: random.Random, v: int) -> Strong:
    t = records.merge_stock(rng, v)
    by_count = "-p[1]" in t.reference
    key = "lambda p: (-p[1], p[0])" if by_count else "lambda p: p[0]"

    def stock() -> dict[str, int]:
        return {k: rng.randint(-3, 9) for k in rng.sample(ITEMS, 4)}

    return strengthen(
        t,
        [({"nail": 2, "bolt": 5}, {"nail": 3, "fuse": 5, "wire": -1}), (stock(), stock())],
        [
            ("keeps totals of 0 or less", t.wrong),
            ("drops only totals of 0", edit(t.reference, (" if n > 0]", " if n != 0]"))),
            (
                "forgets items that only b has",
                edit(
                    t.reference,
                    (
                        "        total[item] = total.get(item, 0) + n",
                        "        if item in total:\n            total[item] += n",
                    ),
                ),
            ),
            (
                "the other order",
                edit(
                    t.reference, (key, "lambda p: p[0]" if by_count else "lambda p: (-p[1], p[0])")
                ),
            ),
            (
                "equal counts in the order met",
                edit(t.reference, (key, "lambda p: -p[1]")) if by_count else None,
            ),
        ],
    )


def sort_people(rng: random.Random, v: int) -> Strong:
    t = records.sort_people(rng, v)
    age = "-p[1]" if "-p[1]" in t.reference else "p[1]"
    crowd = [[name, rng.randint(18, 21)] for name in rng.sample(NAMES, 6)]
    return strengthen(
        t,
        [([["gus", 9], ["fay", 10], ["hal", 100]],), (crowd,)],
        [
            ("names reversed too" if age == "-p[1]" else "equal ages in the order given", t.wrong),
            (
                "the other age order",
                edit(
                    t.reference,
                    (f"({age}, p[0])", f"({'p[1]' if age == '-p[1]' else '-p[1]'}, p[0])"),
                ),
            ),
            (
                "by name only",
                src("""
                def sort_people(people: list[list]) -> list[str]:
                    return [name for name, age in sorted(people)]
            """),
            ),
            (
                "compares ages as text",
                edit(
                    t.reference,
                    (f"({age}, p[0])", "(str(p[1]), p[0])")
                    if age == "p[1]"
                    else (f"({age}, p[0])", "(str(p[1]), p[0]), reverse=True"),
                ),
            ),
            (
                "equal ages in the order given",
                edit(t.reference, (f"({age}, p[0])", age)) if age == "-p[1]" else None,
            ),
        ],
    )


FAMILIES = [
    group_totals,
    invert,
    best_average,
    ranks,
    merge_stock,
    sort_people,
]
