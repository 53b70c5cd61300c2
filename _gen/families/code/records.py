"""Record-keeping task families for eval-code-v2, in the "records" category with
``simulations``: grouping, inverting, ranking and sorting lists and dicts (task shape in
``base``; ``inputs[1]`` is the prompt's worked example, the rest are hidden tests). Dict
results have string keys; pairs are lists.
"""

from __future__ import annotations

import random
from fractions import Fraction

from families.code.base import Task, mutate, src, task

NAMES = ("ana", "ben", "cai", "dev", "eli", "fay", "gus", "hal")


ITEMS = ("nail", "bolt", "tape", "glue", "wire", "fuse")


def _pairs(rng: random.Random, n: int, low: int, high: int) -> list[list[str | int]]:
    return [[rng.choice(NAMES[:4]), rng.randint(low, high)] for _ in range(n)]


def group_totals(rng: random.Random, v: int) -> Task:
    largest = rng.random() < 0.5
    body = """
        def group_@NAME(rows: list[list]) -> dict[str, int]:
            out = {}
            for name, amount in rows:
                out[name] = @COMBINE if name in out else amount
            return out
    """
    combine = "max(out[name], amount)" if largest else "out[name] + amount"
    subs = {"NAME": "max" if largest else "totals", "COMBINE": combine}
    wrong_subs = {**subs, "COMBINE": "max(out[name], amount, 0)" if largest else "amount"}

    def oracle(rows: list[list[str | int]]) -> dict[str, int]:
        names = {str(r[0]) for r in rows}
        pick = max if largest else sum
        return {n: pick(int(r[1]) for r in rows if r[0] == n) for n in names}

    fixed = [["ana", -4], ["ben", 3], ["ana", -2], ["ben", 3]]
    inputs = [([],), (_pairs(rng, 6, -5, 30),), (fixed,), (_pairs(rng, 10, -20, 20),)]
    inputs += [([["cai", 0]],)]
    what = "the largest amount listed" if largest else "the sum of the amounts listed"
    return task(
        "records",
        "easy",
        f"def group_{subs['NAME']}(rows: list[list]) -> dict[str, int]",
        "rows is a list of [name, amount] pairs (a string and an integer, which may be "
        "negative); a name may occur many times. Return a dict mapping each name that occurs "
        f"to {what} for it.",
        src(body, **subs),
        src(body, **wrong_subs),
        inputs,
        oracle,
    )


def invert(rng: random.Random, v: int) -> Task:
    descending = rng.random() < 0.5
    body = """
        def invert(d: dict[str, str]) -> dict[str, list[str]]:
            out = {}
            for key, value in d.items():
                out.setdefault(value, []).append(key)
            return {value: sorted(keys@REV) for value, keys in out.items()}
    """
    rev = ", reverse=True" if descending else ""

    def oracle(d: dict[str, str]) -> dict[str, list[str]]:
        keys = sorted(d, reverse=descending)
        return {value: [k for k in keys if d[k] == value] for value in set(d.values())}

    def mapping(n: int) -> dict[str, str]:
        return {k: rng.choice(ITEMS[:3]) for k in rng.sample(NAMES, n)}

    fixed = {"cai": "x", "hal": "x", "eli": "y", "ana": "x"}
    inputs = [({},), (mapping(5),), (fixed,), (mapping(8),), ({"ben": "ben"},)]
    order = "descending" if descending else "ascending"
    return task(
        "records",
        "easy",
        "def invert(d: dict[str, str]) -> dict[str, list[str]]",
        "d maps string keys to string values. Return a dict mapping each value of d to the "
        f"list of the keys that map to it, sorted in {order} alphabetical order.",
        src(body, REV=rev),
        src(body, REV=rev).replace(f"sorted(keys{rev})", "keys"),
        inputs,
        oracle,
    )


def best_average(rng: random.Random, v: int) -> Task:
    body = """
        def best_average(scores: dict[str, list[int]]) -> str | None:
            best, best_avg = None, None
            for name in sorted(scores):
                marks = scores[name]
                if marks and (best_avg is None or sum(marks) / len(marks) > best_avg):
                    best, best_avg = name, sum(marks) / len(marks)
            return best
    """

    def oracle(scores: dict[str, list[int]]) -> str | None:
        means = {n: Fraction(sum(m), len(m)) for n, m in scores.items() if m}
        if not means:
            return None
        top = max(means.values())
        return min(n for n, mean in means.items() if mean == top)

    def table(n: int) -> dict[str, list[int]]:
        names = rng.sample(NAMES, n)
        return {k: [rng.randint(0, 10) for _ in range(rng.randint(0, 4))] for k in names}

    fixed = {"eli": [20], "ana": [9, 9, 9], "ben": []}
    inputs = [({},), (table(4),), (fixed,), (table(6),), ({"fay": [3, 5], "dev": [4]},)]
    return task(
        "records",
        "easy",
        "def best_average(scores: dict[str, list[int]]) -> str | None",
        "scores maps each name to a list of integer marks (possibly empty). Return the name "
        "with the highest average mark, ignoring names with no marks; if several share the "
        "highest average, return the alphabetically first of them. Return None if no name has "
        "any mark.",
        src(body),
        src(body)
        .replace("sum(marks) / len(marks) >", "sum(marks) >")
        .replace("best_avg = name, sum(marks) / len(marks)", "best_avg = name, sum(marks)"),
        inputs,
        oracle,
    )


def ranks(rng: random.Random, v: int) -> Task:
    modified = rng.random() < 0.5
    body = """
        def ranks(scores: list[int]) -> list[int]:
            return [@RANK for s in scores]
    """
    rank = "sum(t >= s for t in scores)" if modified else "1 + sum(t > s for t in scores)"
    dense = "1 + len({t for t in scores if t > s})"

    def oracle(scores: list[int]) -> list[int]:
        order = sorted(scores, reverse=True)
        if modified:
            return [len(order) - order[::-1].index(s) for s in scores]
        return [order.index(s) + 1 for s in scores]

    inputs = [([],), ([rng.randint(0, 9) for _ in range(7)],), ([7, 9, 7, 5],)]
    inputs += [([rng.randint(0, 4) for _ in range(10)],), ([3],)]
    how = (
        "the number of scores that are greater than or equal to it (so 9, 7, 7, 5 get 1, 3, 3, 4)"
        if modified
        else "1 plus the number of scores strictly greater than it (so 9, 7, 7, 5 get 1, 2, 2, 4)"
    )
    return task(
        "records",
        "medium",
        "def ranks(scores: list[int]) -> list[int]",
        "scores lists the points of players (a higher score is better). Return the list of "
        f"their ranks, in the same order as scores: a player's rank is {how}.",
        src(body, RANK=rank),
        src(body, RANK=dense),
        inputs,
        oracle,
    )


def merge_stock(rng: random.Random, v: int) -> Task:
    by_count = rng.random() < 0.5
    body = """
        def merge_stock(a: dict[str, int], b: dict[str, int]) -> list[list]:
            total = dict(a)
            for item, n in b.items():
                total[item] = total.get(item, 0) + n
            kept = [[item, n] for item, n in total.items() if n > 0]
            return sorted(kept, key=@KEY)
    """
    key = "lambda p: (-p[1], p[0])" if by_count else "lambda p: p[0]"

    def oracle(a: dict[str, int], b: dict[str, int]) -> list[list[str | int]]:
        names = sorted(set(a) | set(b))
        pairs = [[n, a.get(n, 0) + b.get(n, 0)] for n in names]
        pairs = [p for p in pairs if int(p[1]) > 0]
        return sorted(pairs, key=lambda p: -int(p[1])) if by_count else pairs

    def stock() -> dict[str, int]:
        return {k: rng.randint(-3, 9) for k in rng.sample(ITEMS, rng.randint(2, 5))}

    fixed = ({"nail": 4, "tape": 2, "glue": 1}, {"tape": -2, "bolt": 4, "glue": -3})
    inputs = [({}, {}), (stock(), stock()), fixed, (stock(), stock()), ({"wire": 1}, {})]
    order = (
        "largest count first, names in alphabetical order among equal counts"
        if by_count
        else "in alphabetical order of name"
    )
    return task(
        "records",
        "medium",
        "def merge_stock(a: dict[str, int], b: dict[str, int]) -> list[list]",
        "a and b map item names to stock changes (integers, possibly negative). Add them up "
        "per item (an item missing from one dict counts 0 there), drop every item whose total "
        f"is 0 or less, and return the rest as a list of [name, total] lists, {order}.",
        src(body, KEY=key),
        mutate(src(body, KEY=key), " if n > 0]", "]"),
        inputs,
        oracle,
    )


def sort_people(rng: random.Random, v: int) -> Task:
    oldest_first = rng.random() < 0.5
    body = """
        def sort_people(people: list[list]) -> list[str]:
            return [name for name, age in sorted(people, key=lambda p: (@AGE, p[0]))]
    """
    age = "-p[1]" if oldest_first else "p[1]"
    wrong = (  # oldest first: names reversed too; youngest first: ties left in input order
        "def sort_people(people: list[list]) -> list[str]:\n"
        "    return [p[0] for p in sorted(people, key=lambda p: "
        + ("(p[1], p[0]), reverse=True)]\n" if oldest_first else "p[1])]\n")
    )

    def oracle(people: list[list[str | int]]) -> list[str]:
        by_name = sorted(people, key=lambda p: str(p[0]))
        return [str(p[0]) for p in sorted(by_name, key=lambda p: int(p[1]), reverse=oldest_first)]

    def crowd(n: int) -> list[list[str | int]]:
        return [[name, rng.randint(20, 24)] for name in rng.sample(NAMES, n)]

    fixed = [["cai", 30], ["ana", 30], ["ben", 41], ["dev", 30]]
    inputs = [([],), (crowd(5),), (fixed,), (crowd(8),), ([["eli", 5]],)]
    order = "oldest first" if oldest_first else "youngest first"
    return task(
        "records",
        "medium",
        "def sort_people(people: list[list]) -> list[str]",
        "people is a list of [name, age] pairs (a string and an integer; names are distinct). "
        f"Return the names ordered by age, {order}; people of the same age are ordered by name "
        "alphabetically (a before z).",
        src(body, AGE=age),
        wrong,
        inputs,
        oracle,
    )


FAMILIES = [
    group_totals,
    invert,
    best_average,
    ranks,
    merge_stock,
    sort_people,
]
