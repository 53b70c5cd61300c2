"""eval-commonsense-v5 altered riddles: v3's riddles, with Monty Hall options that do not give the
answer away (issue 30).

What the check for answer-free shortcuts found in v3's (and v4's) Monty Hall rows: the wrong
options come from a pool of "classic" fractions (1/2, 2/3, 1/3, 0, 1/d, ...), but some right
answers are never in that pool, so they are only ever offered when they are right: 3/8 (four
doors, the host opens one), 4/15 and 2/5 (five doors, one or two opened). And the glass-door
row always had the car behind your own door, so its answer was always 0, which a reader who
has seen one such row picks without reading. Pooled with the audit's fresh instances, the
option text's record in the family's other rows picked the gold of 48 % of the mc rows of
altered riddles (chance 25 %).

Here every option is drawn from the values the riddle's variants can take (``VALUES``): each of
them is the answer of some variant and offered as a wrong option in others. The glass-door row
shows the car behind a door drawn among all of them, so its answer is 0 (your own door), or
1/(d - 2) (another door). Which variant and which wrong options a row gets is weighted by
``common.balance`` over the three levels, so that each option text, the largest and smallest
value and the longest and shortest text are the answer about as often as a blind pick makes
them. The other riddles and every proof but Monty's are v3's (``riddles``); Monty's proof walks
every (car, host's ordered picks, final door) path with its probability.
"""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction
from typing import Any

from common import balance, v2
from common import mc_plan as plan

from families.commonsense import riddles

FORMS = riddles.FORMS
DOORS = (3, 4, 5)
Config = tuple[int, int, int | None]  # doors, doors the host opens, door the car is seen behind


def configs(level: int) -> list[tuple[Config, float]]:
    """Each level's variants with their base weights (every door count equally likely; the
    glass door with the car is any of the doors, yours one time in ``doors``)."""
    if level == 0:  # the host does not know and happens to reveal a goat
        return [((d, 1, None), 1.0) for d in DOORS]
    if level == 1:  # the host knows and opens several goat doors
        return [((d, k, None), 1 / (d - 2)) for d in DOORS for k in range(1, d - 1)]
    return [((d, 1, 1), 1 / d) for d in DOORS] + [((d, 1, 2), (d - 1) / d) for d in DOORS]


def odds(config: Config, host_knows: bool) -> Fraction:
    """P(win) after switching to a random other unopened door, given the host showed goats:
    the weighted sum over car positions and the host's unordered choices."""
    doors, opened, seen = config
    cars = [seen - 1] if seen else list(range(doors))
    win = total = Fraction(0)
    for car in cars:
        choices = [
            c
            for c in itertools.combinations(range(1, doors), opened)
            if car not in c or not (host_knows or seen)
        ]
        for shown in choices:
            if car in shown:
                continue  # a revealed car: not the situation the question states
            rest = [d for d in range(1, doors) if d not in shown]
            weight = Fraction(1, len(cars) * len(choices))
            total += weight
            win += weight * Fraction(sum(d == car for d in rest), len(rest))
    return win / total


def _knows(level: int) -> bool:
    return level > 0


#: Every value a variant can have: the pool of the options.
VALUES = tuple(sorted({odds(c, _knows(lv)) for lv in range(3) for c, _ in configs(lv)}))


def _cues(values: tuple[Fraction, ...]) -> tuple[tuple[str, tuple[Fraction, ...]], ...]:
    """What a reader sees without solving: the largest and smallest value, the longest and the
    shortest text."""
    size = {v: len(v2.fmt_fraction(v)) for v in values}
    return (
        ("largest", (max(values),)),
        ("smallest", (min(values),)),
        ("longest", tuple(v for v in values if size[v] == max(size.values()))),
        ("shortest", tuple(v for v in values if size[v] == min(size.values()))),
    )


@functools.cache
def designs() -> tuple[tuple[tuple[balance.Design, float], ...], ...]:
    """Per level, every (variant, three wrong values) with its weight from ``balance.tilt``."""
    cells = []
    for level in range(3):
        cell = []
        for config, base in configs(level):
            gold = odds(config, _knows(level))
            for wrong in itertools.combinations([v for v in VALUES if v != gold], 3):
                values = (gold, *wrong)
                design = balance.Design((config, wrong), gold, values, _cues(values), base=base)
                cell.append(design)
        cells.append(cell)
    return tuple(tuple(c) for c in balance.tilt(cells))


def monty(rng: random.Random, level: int, slot: int | None, ordinal: int) -> dict[str, Any]:
    assert slot is not None
    (doors, opened, seen), wrong = balance.draw(rng, designs()[level]).key
    if seen == 2:  # a door other than yours, any of them
        seen = rng.randrange(2, doors + 1)
    setting = (
        f"The host does not know where the car is and opens {opened} of the other doors at "
        f"random; it happens to reveal a goat.",
        f"The host knows where the car is and opens {opened} of the other doors, choosing at "
        f"random among those that hide goats.",
        f"The doors are made of clear glass, and you can see the car behind door {seen}. The "
        f"host opens 1 of the other doors, which hides a goat.",
    )[level]
    q = (
        f"In a game show there are {doors} closed doors: a car is behind one and goats are behind "
        f"the others. You pick door 1. {setting} You then switch to one of the other unopened "
        f"doors, chosen at random. What is the probability that you win the car?"
    )
    gold = odds((doors, opened, seen), _knows(level))
    options = plan.place(rng, v2.fmt_fraction(gold), [v2.fmt_fraction(w) for w in wrong], slot)
    meta = {
        "kind": "monty",
        "doors": doors,
        "opened": opened,
        "host_knows": level > 0,
        "car_seen_behind": seen,
    }
    return plan.mc_item(q, options, slot, meta)


BUILD = {**riddles.BUILD, "monty": monty}


def _prove_monty(row: dict[str, Any]) -> None:
    """Walk every (car, host's ordered picks, final door) path with its probability; the options
    are distinct values of the pool."""
    m = row["meta"]
    n, k, seen = m["doors"], m["opened"], m["car_seen_behind"]
    cars = [seen - 1] if seen else list(range(n))
    good = kept = Fraction(0)
    for car in cars:
        allowed = [d for d in range(1, n) if not (m["host_knows"] or seen) or d != car]
        picks = list(itertools.permutations(allowed, k))
        for shown in picks:
            finals = [d for d in range(1, n) if d not in shown]
            for final in finals:
                weight = Fraction(1, len(cars) * len(picks) * len(finals))
                if car not in shown:
                    kept += weight
                    good += weight * (final == car)
    assert plan.gold_text(row) == v2.fmt_fraction(good / kept), row["id"]
    shown_values = {Fraction(c) for c in row["choices"]}
    assert len(shown_values) == 4 and shown_values <= set(VALUES), row["id"]


PROVE = {**riddles.PROVE, "monty": _prove_monty}
