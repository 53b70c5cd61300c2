"""Counting for eval-math-v2 and -v3: digit conditions, lattice paths around blocked points,
arrangements of letters and committees with rules, each counted by brute force; proofs by
dynamic programming, permutations and bit masks instead. Moved here from the eval-math-v2
generator, unchanged.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from typing import Any

from families.math.base import NAMES, Item, wrong_options


def combinatorics(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        if level == 0:
            s, q = rng.randint(5, 22), rng.choice((2, 4, 5))
            meta: dict[str, Any] = {"kind": "digit_sum", "digits": 3, "sum": s, "divisor": q}
            question = (
                f"How many three-digit positive integers are divisible by {q} and have "
                f"digits that add up to {s}?"
            )
            count = sum(1 for k in range(100, 1000) if sum(map(int, str(k))) == s and k % q == 0)
        elif level == 1:
            d = rng.choice((3, 4, 6, 7, 9, 11))
            meta = {"kind": "distinct_divisible", "digits": 4, "divisor": d}
            question = (
                f"How many four-digit positive integers have four different digits and are "
                f"divisible by {d}?"
            )
            count = sum(1 for k in range(1000, 10_000) if len(set(str(k))) == 4 and k % d == 0)
        else:
            d, q, f = rng.randint(0, 9), rng.choice((3, 4, 6, 7, 8, 9, 11)), rng.randint(2, 8)
            meta = {"kind": "five_digit", "must_contain": d, "sum_divisor": q, "lead_at_least": f}
            question = (
                f"How many five-digit positive integers have a first digit of at least {f}, "
                f"no two equal adjacent digits, contain the digit {d} at least once, and "
                f"have a digit sum divisible by {q}?"
            )
            count = sum(1 for k in range(f * 10_000, 100_000) if _five_digit_ok(str(k), d, q))
        return {"question": question, "scorer": "numeric", "answer": str(count), "meta": meta}
    if variant == 1:
        w, h = rng.randint(3, 5 + level), rng.randint(3, 4 + level)
        cells = [
            (x, y) for x in range(w + 1) for y in range(h + 1) if (x, y) not in ((0, 0), (w, h))
        ]
        blocked = rng.sample(cells, level)
        via = [rng.choice([c for c in cells if c not in blocked])] if level == 2 else []
        count = paths(w, h, blocked, via)
        if count == 0:
            return combinatorics(rng, level, variant)
        rules = "".join(
            f" The path must not pass through the point {p}." for p in map(tuple, blocked)
        )
        rules += "".join(f" The path must pass through the point {p}." for p in map(tuple, via))
        question = (
            f"A path on the integer grid starts at (0, 0) and ends at ({w}, {h}); each "
            f"step adds 1 to either the x or the y coordinate.{rules} How many such paths "
            f"are there?"
        )
        naive = math.comb(w + h, w)
        distractors = wrong_options(
            count, [naive, naive - count, count * 2, math.comb(w + h, w + 1)], 1, 10**9
        )
        meta = {"kind": "lattice", "width": w, "height": h, "blocked": blocked, "via": via}
        return {
            "question": question,
            "scorer": "mc",
            "correct": str(count),
            "distractors": distractors,
            "meta": meta,
        }
    if level < 2:
        letters = rng.sample("BCDFGKLMNPRST", 3)
        counts = rng.choice(((3, 2, 1), (2, 2, 2), (3, 2, 2), (2, 2, 1)))
        word = "".join(ch * c for ch, c in zip(letters, counts, strict=True))
        arrangements = set(itertools.permutations(word))
        if level == 1:
            arrangements = {
                p for p in arrangements if all(a != b for a, b in itertools.pairwise(p))
            }
        rule = " in which no two identical letters are next to each other" if level else ""
        question = (
            f"How many different strings can be made by arranging all the letters of {word}{rule}?"
        )
        meta = {"kind": "arrangements", "letters": word, "no_adjacent_equal": bool(level)}
        return {
            "question": question,
            "scorer": "numeric",
            "answer": str(len(arrangements)),
            "meta": meta,
        }
    people = list(NAMES[: rng.randint(8, 10)])
    k = rng.randint(4, 5)
    pa, pb, pc, pd = rng.sample(people, 4)
    trio = rng.sample([p for p in people if p not in (pa, pb, pc, pd)], 3)
    count = sum(
        1 for team in itertools.combinations(people, k) if _team_ok(set(team), pa, pb, pc, pd, trio)
    )
    question = (
        f"A committee of {k} is chosen from {', '.join(people)}. {pa} and {pb} refuse to "
        f"serve together; {pc} will serve only if {pd} also serves; and at least two of "
        f"{', '.join(trio)} must be on it. How many different committees are possible?"
    )
    meta = {
        "kind": "committee",
        "people": people,
        "size": k,
        "apart": [pa, pb],
        "needs": [pc, pd],
        "at_least_two": trio,
    }
    return {"question": question, "scorer": "numeric", "answer": str(count), "meta": meta}


def _five_digit_ok(text: str, d: int, q: int) -> bool:
    return (
        str(d) in text
        and all(a != b for a, b in itertools.pairwise(text))
        and sum(map(int, text)) % q == 0
    )


def paths(w: int, h: int, blocked: list, via: list) -> int:
    total = 0
    for xs in itertools.combinations(range(w + h), w):
        x = y = 0
        seen = {(0, 0)}
        for step in range(w + h):
            x, y = (x + 1, y) if step in xs else (x, y + 1)
            seen.add((x, y))
        total += all(tuple(p) not in seen for p in blocked) and all(tuple(p) in seen for p in via)
    return total


def _team_ok(team: set, a: str, b: str, c: str, d: str, trio: list) -> bool:
    return not {a, b} <= team and (c not in team or d in team) and len(team & set(trio)) >= 2


# ---- proofs -----------------------------------------------------------------------------------
def count_paths(meta: dict[str, Any]) -> int:
    w, h = meta["width"], meta["height"]
    blocked = {tuple(p) for p in meta["blocked"]}

    def table(start: tuple[int, int], end: tuple[int, int]) -> int:
        ways = {start: 1}
        for x in range(start[0], end[0] + 1):
            for y in range(start[1], end[1] + 1):
                if (x, y) != start:
                    ways[(x, y)] = (
                        0
                        if (x, y) in blocked
                        else (ways.get((x - 1, y), 0) + ways.get((x, y - 1), 0))
                    )
        return ways.get(end, 0)

    points = [(0, 0), *(tuple(p) for p in meta["via"]), (w, h)]
    return math.prod(table(a, b) for a, b in itertools.pairwise(points))


def _no_adjacent(counts: dict[str, int], last: str) -> int:
    if not any(counts.values()):
        return 1
    total = 0
    for letter, left in sorted(counts.items()):
        if left and letter != last:
            counts[letter] -= 1
            total += _no_adjacent(counts, letter)
            counts[letter] += 1
    return total


def _digit_sum(meta: dict[str, Any]) -> str:
    """Digit-sum count by dynamic programming over (sum, remainder)."""
    q = meta["divisor"]
    ways = {(0, 0): 1}  # (digit sum, value mod q) -> count, building the number left to right
    for position in range(3):
        grown: dict[tuple[int, int], int] = {}
        for (total, mod), count in ways.items():
            for d in range(1 if position == 0 else 0, 10):
                key = (total + d, (mod * 10 + d) % q)
                grown[key] = grown.get(key, 0) + count
        ways = grown
    return str(ways.get((meta["sum"], 0), 0))


def _distinct(meta: dict[str, Any]) -> str:
    """Four different digits, by permutations."""
    return str(
        sum(
            1
            for p in itertools.permutations("0123456789", 4)
            if p[0] != "0" and int("".join(p)) % meta["divisor"] == 0
        )
    )


def _five_digit(meta: dict[str, Any]) -> str:
    """Five-digit count by dynamic programming over (last digit, seen, sum)."""
    d, q = meta["must_contain"], meta["sum_divisor"]
    states = {(f, f == d, f % q): 1 for f in range(meta["lead_at_least"], 10)}
    for _ in range(4):
        nxt: dict[tuple[int, bool, int], int] = {}
        for (last, has, mod), paths in states.items():
            for f in range(10):
                if f != last:
                    state = (f, has or f == d, (mod + f) % q)
                    nxt[state] = nxt.get(state, 0) + paths
        states = nxt
    return str(sum(w for (_, has, mod), w in states.items() if has and mod == 0))


def _lattice(meta: dict[str, Any]) -> str:
    """Lattice paths by a table, leg by leg."""
    return str(count_paths(meta))


def _arrangements(meta: dict[str, Any]) -> str:
    """Arrangements by recursion or the multinomial."""
    letters = meta["letters"]
    counts = {ch: letters.count(ch) for ch in sorted(set(letters))}
    if meta["no_adjacent_equal"]:
        return str(_no_adjacent(counts, ""))
    return str(math.factorial(len(letters)) // math.prod(map(math.factorial, counts.values())))


def _committee(meta: dict[str, Any]) -> str:
    """Committees by bit masks."""
    people, apart, needs, trio = (
        meta["people"],
        meta["apart"],
        meta["needs"],
        meta["at_least_two"],
    )
    bit = {p: 1 << i for i, p in enumerate(people)}
    good = 0
    for mask in range(1 << len(people)):
        if mask.bit_count() != meta["size"]:
            continue
        has = {p: bool(mask & bit[p]) for p in people}
        good += (
            not (has[apart[0]] and has[apart[1]])
            and (has[needs[1]] or not has[needs[0]])
            and sum(has[p] for p in trio) >= 2
        )
    return str(good)


EXPECTED: dict[str, Callable[[dict[str, Any]], str]] = {
    "digit_sum": _digit_sum,
    "distinct_divisible": _distinct,
    "five_digit": _five_digit,
    "lattice": _lattice,
    "arrangements": _arrangements,
    "committee": _committee,
}
