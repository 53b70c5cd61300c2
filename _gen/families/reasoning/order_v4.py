"""Finishing-order family of eval-reasoning-v4: eval-reasoning-v3's puzzles, wrong orders that
do not point at the right one.

In eval-reasoning-v3 the wrong options of "what was the complete finishing order" were the orders
breaking fewest clues, which differ from the right order by a swap or two, so the right order
was the option agreeing most, place by place, with the other three: the gold in 5 of 6 rows
(issue 19: reason3-0026, -0032, -0128, -0134, -0140). Here the puzzle, its clues and the other
forms are v3's (``order.build``), drawn until the asked runner is the one planned for the row's
cell (``WHO``: no two "who" rows of one form share a gold) and the asked place the one drawn for
the row (uniform over the race's places). The wrong orders of
the complete-order form come from the orders breaking at most two more clues than the closest
wrong ones, and ``common.orders.pick`` keeps a triple under which place agreement, shared
neighbours and shared first or last runner leave the right order at chance.

``slips``: the wrong answers of the open forms: the runners one place before and after the asked
one (who finished k-th), the neighbouring places, then every other (in which place).
The proof is v3's (every permutation against every clue).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from common import orders

from families.reasoning import order

CATEGORY = order.CATEGORY
FORMS = order.FORMS
Item = dict[str, Any]
prove = order.prove


#: (form, level) -> the runner asked for (who finished k-th), so that no two "who" rows of one
#: answer form share their gold: in v3 the asked runner was drawn per row and repeated.
WHO = {(0, 0): 0, (0, 1): 1, (0, 2): 2, (4, 0): 3, (4, 1): 4, (4, 2): 5, (3, 0): 6, (3, 1): 7}
WHO[(3, 2)] = 8
#: The "in which place" forms (numeric and mc): the place asked about is drawn per row, uniform
#: over the race's places. As first published this version planned one place per cell, the same
#: in every fresh instance, and the pooled audit predicted it from the race's size (issue 19:
#: ordering numeric 0.42 vs chance 0.17).
PLACE_FORMS = (2, 5, 6)


def build(rng: random.Random, level: int, form: int) -> Item:
    place = rng.randint(1, (5, 6, 7)[level]) if form in PLACE_FORMS else None
    while True:
        item = order.build(rng, level, form)
        m = item["meta"]
        if (form, level) in WHO and m["solution"][m["place"] - 1] != order.RUNNERS[
            WHO[(form, level)]
        ]:
            continue
        if place is not None and m["place"] != place:
            continue
        if item["scorer"] != "mc" or "complete finishing order" not in item["question"]:
            return item
        wrong = _wrong_orders(rng, m)
        if wrong is not None:
            return {**item, "distractors": [", ".join(w) for w in wrong]}


def _wrong_orders(rng: random.Random, meta: dict[str, Any]) -> list[tuple[str, ...]] | None:
    truth = tuple(meta["solution"])
    broken = {
        s: sum(not order.holds(c, s) for c in meta["clues"])
        for s in itertools.permutations(meta["runners"])
        if s != truth
    }
    fewest = min(broken.values())
    pool = sorted(s for s, k in broken.items() if k <= fewest + 2)
    return orders.pick(rng, truth, pool)


def slips(row: dict[str, Any]) -> tuple[list[Any], list[str]]:
    m = row["meta"]
    solution, place = m["solution"], m["place"]
    if row["scorer"] == "numeric":  # the neighbouring places first, then every other place
        near = [p for p in (place - 1, place + 1) if 1 <= p <= len(solution)]
        return near + [p for p in range(1, len(solution) + 1) if p not in near], []
    near = [solution[i] for i in (place - 2, place) if 0 <= i < len(solution)]
    return near + [r for r in m["runners"] if r not in near], []
