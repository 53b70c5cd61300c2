"""Finishing-order family of eval-reasoning-v3: 5-7 runners, one order fits every clue.

Clues are drawn from the hidden order until one permutation survives, then every clue the others
imply is dropped. Issue 13 (eval-reasoning-v1 rows 0071 and 0092 asked "who finished second?"
next to the clue "Mira finished second"): the asked fact must not follow from any single clue,
checked over all permutations. Wrong options: the orders that break the fewest clues, and other
runners or places.

Forms: who finished k-th (exact, mc), the place of a runner (numeric, mc), the whole order (mc).
The proof enumerates every permutation again with its own clue evaluation (places as numbers,
not list positions).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

CATEGORY = "ordering"
FORMS = ("exact", "mc", "numeric", "mc", "exact", "mc", "numeric", "mc")
RUNNERS = ("Abel", "Bianca", "Casimir", "Delia", "Emil", "Flora", "Gustav", "Hilde", "Ivo", "Juno")
Clue = list[Any]
Item = dict[str, Any]


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def holds(clue: Clue, order: tuple[str, ...] | list[str]) -> bool:
    kind, a = clue[0], order.index(clue[1])
    if kind == "pos":
        return a == clue[2]
    if kind == "not_pos":
        return a != clue[2]
    if kind == "parity":
        return (a + 1) % 2 == clue[2]
    b = order.index(clue[2])
    if kind == "ahead":
        return a < b
    if kind == "right_ahead":
        return a + 1 == b
    if kind == "gap":
        return abs(a - b) - 1 == clue[3]
    return abs(a - b) > 1  # apart


def render(clue: Clue) -> str:
    kind, a = clue[0], clue[1]
    if kind == "pos":
        return f"{a} finished {ordinal(clue[2] + 1)}."
    if kind == "not_pos":
        return f"{a} did not finish {ordinal(clue[2] + 1)}."
    if kind == "parity":
        return f"{a} finished in an {'odd' if clue[2] else 'even'}-numbered place."
    b = clue[2]
    if kind == "gap":
        k = clue[3]
        if k == 0:
            return f"{a} and {b} finished in neighbouring places."
        return f"Exactly {k} runner{'s' if k != 1 else ''} finished between {a} and {b}."
    return {
        "ahead": f"{a} finished ahead of {b}.",
        "right_ahead": f"{a} finished immediately ahead of {b}.",
        "apart": f"{a} and {b} did not finish in neighbouring places.",
    }[kind]


def random_clue(rng: random.Random, order: list[str]) -> Clue:
    i, j = sorted(rng.sample(range(len(order)), 2))
    a, b = order[i], order[j]
    kind = rng.choice(
        ("ahead", "ahead", "right_ahead", "gap", "gap", "not_pos", "parity", "apart", "pos")
    )
    if kind == "pos":
        return ["pos", a, i]
    if kind == "not_pos":
        return ["not_pos", a, j]
    if kind == "parity":
        return ["parity", a, (i + 1) % 2]
    if kind == "ahead":
        return ["ahead", a, b]
    if kind == "right_ahead" or (kind == "apart" and j == i + 1):
        return ["right_ahead", order[i], order[i + 1]]
    if kind == "gap":
        return ["gap", *rng.sample([a, b], 2), j - i - 1]
    return ["apart", *rng.sample([a, b], 2)]


def minimal_clues(rng: random.Random, truth: tuple[str, ...], space: list) -> list[Clue]:
    """Random true clues until one order survives, then drop every clue the others imply."""
    clues: list[Clue] = []
    alive = space
    while len(alive) > 1:
        clue = random_clue(rng, list(truth))
        kept = [s for s in alive if holds(clue, s)]
        if len(kept) < len(alive):
            clues.append(clue)
            alive = kept
    for clue in rng.sample(clues, len(clues)):
        rest = [c for c in clues if c is not clue]
        if sum(1 for s in space if all(holds(c, s) for c in rest)) == 1:
            clues = rest
    return clues


def forced_by_one(clues: list[Clue], space: list, runner: str, place: int) -> bool:
    """Does some single clue put ``runner`` in ``place`` in every order it allows?"""
    return any(all(s[place] == runner for s in space if holds(c, s)) for c in clues)


def build(rng: random.Random, level: int, form: int) -> Item:
    n = (5, 6, 7)[level]
    names = sorted(rng.sample(RUNNERS, n))
    truth = tuple(rng.sample(names, n))
    space = list(itertools.permutations(names))
    clues = minimal_clues(rng, truth, space)
    asks = [p for p in range(n) if not forced_by_one(clues, space, truth[p], p)]
    if not asks:
        return build(rng, level, form)
    place = rng.choice(asks)
    intro = (
        f"{n} runners, {', '.join(names[:-1])} and {names[-1]}, finished a race with no ties. "
        f"Places are numbered from 1 (the winner) to {n}.\n\nClues:\n"
        + "\n".join(f"{i + 1}. {render(c)}" for i, c in enumerate(clues))
    )
    meta: dict[str, Any] = {
        "kind": "order",
        "runners": names,
        "clues": clues,
        "solution": list(truth),
        "place": place + 1,
    }
    who, where = truth[place], place + 1
    if form in (0, 4, 3):
        q = f"{intro}\n\nWho finished {ordinal(where)}?"
        if FORMS[form] == "exact":
            return {
                "question": q + " Answer with the name only.",
                "scorer": "exact",
                "answer": who,
                "meta": meta,
            }
        return {
            "question": q,
            "scorer": "mc",
            "correct": who,
            "distractors": rng.sample([x for x in names if x != who], 3),
            "meta": meta,
        }
    if form in (2, 6, 5):
        q = f"{intro}\n\nIn which place did {who} finish?"
        if FORMS[form] == "numeric":
            return {
                "question": q + " Answer with the place number.",
                "scorer": "numeric",
                "answer": str(where),
                "meta": meta,
            }
        others = rng.sample([p for p in range(1, n + 1) if p != where], 3)
        return {
            "question": q,
            "scorer": "mc",
            "correct": ordinal(where),
            "distractors": [ordinal(p) for p in others],
            "meta": meta,
        }
    near = sorted((sum(not holds(c, s) for c in clues), s) for s in space if s != truth)
    pool = [s for k, s in near if k == near[0][0]] or [s for _, s in near]
    pool = pool if len(pool) >= 3 else [s for _, s in near[:6]]
    return {
        "question": f"{intro}\n\nWhat was the complete finishing order, from 1st to {n}th?",
        "scorer": "mc",
        "correct": ", ".join(truth),
        "distractors": [", ".join(s) for s in rng.sample(pool, 3)],
        "meta": meta,
    }


# ---- proof: every permutation, places counted from 1 ------------------------------------------
def _true(clue: Clue, place: dict[str, int]) -> bool:
    kind, a = clue[0], place[clue[1]]
    if kind == "pos":
        return a == clue[2] + 1
    if kind == "not_pos":
        return a != clue[2] + 1
    if kind == "parity":
        return a % 2 == clue[2]
    b = place[clue[2]]
    if kind == "gap":
        return abs(a - b) == clue[3] + 1
    return {"ahead": a < b, "right_ahead": b - a == 1, "apart": abs(a - b) >= 2}[kind]


def prove(row: dict[str, Any]) -> None:
    m = row["meta"]
    fits = []
    for perm in itertools.permutations(m["runners"]):
        place = {r: i + 1 for i, r in enumerate(perm)}
        if all(_true(c, place) for c in m["clues"]):
            fits.append(list(perm))
    assert fits == [m["solution"]], (row["id"], len(fits))
    order, asked = fits[0], m["place"]
    for clue in m["clues"]:  # no single clue fixes the asked place
        alone = {
            p[asked - 1]
            for p in itertools.permutations(m["runners"])
            if _true(clue, {r: i + 1 for i, r in enumerate(p)})
        }
        assert len(alone) > 1, (row["id"], clue)
    accepted = {order[asked - 1], str(asked), ordinal(asked), ", ".join(order)}
    gold = row["answer"] if row["scorer"] != "mc" else row["choices"]["ABCD".index(row["answer"])]
    assert gold in accepted, (row["id"], gold)
    if row["scorer"] == "mc":
        assert sum(c in accepted for c in row["choices"]) == 1, row["id"]
