"""eval-vision-v2's open questions, with every answer drawn uniformly from one range per family
(issue 19), and the answer rule of the new dice questions.

In eval-vision-v1 a reader who never looks at the image could guess the likeliest answer of a
question type: a shape count of 2 or 3, a quarter hour, a highest die of 6 (about half the rows
with four or five dice), none or one even die. Pooled over fresh instances, the audit's learned
baseline beat chance by 9 points on v2's first open rows. Here the answer is drawn first and the
image is built to fit it:

* shapes (how many of a kind, of a colour, in all): the count uniform over 1-4, 5-8 or 9-12 by
  level (other shapes beside them, up to two more);
* bars (a bar's value, tallest minus shortest): the value uniform over the chart's gridline
  values from 10 to 100, the difference over 10 to 90;
* clocks (minutes past the hour): a multiple of 5 at every level, uniform (the hard level draws
  minute ticks, as in v1);
* dice (the total of all pips, of the even dice, of the odd dice): three, four or five dice by
  level, the total uniform over 6 to 18 (even totals for the even dice, 6 to 15 for the odd,
  of those the dice can show).

Wording, images and v1's layout are kept; the shape, bar and clock answers follow v1's rule
(``questions.answer_from_truth``), the dice totals ``dice_total`` here.
"""

from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

from families.vision.draw import DIE, SHAPE_COLORS
from families.vision.questions import NUMBER, SHAPES, clock_time

Built = tuple[dict[str, Any], dict[str, Any]]
SHAPE_COUNTS = ((1, 4), (5, 8), (9, 12))
DICE = (3, 4, 5)
#: dice question type -> (question, which faces count, the planned totals)
DICE_QUESTIONS = {
    0: ("What is the total number of pips on all the dice?", (1, 2, 3, 4, 5, 6), range(6, 19)),
    1: (
        "What is the total number of pips on the dice that show an even number?",
        (2, 4, 6),
        range(6, 19, 2),
    ),
    2: (
        "What is the total number of pips on the dice that show an odd number?",
        (1, 3, 5),
        range(6, 16),
    ),
}


def _shape_at(rng: random.Random, cell: int, shape: str, color: str) -> dict[str, Any]:
    """A shape in one cell of the 4 x 4 grid, placed as v1 places them."""
    size = rng.randint(24, 44)
    x = (cell % 4) * 64 + rng.randint(4, 60 - size)
    y = (cell // 4) * 64 + rng.randint(4, 60 - size)
    return {"shape": shape, "color": color, "box": [x, y, size]}


def shapes(rng: random.Random, level: int, qtype: int) -> Built:
    """How many of a kind (0), of a colour (1) or in all (2): the count drawn first."""
    count = rng.randint(*SHAPE_COUNTS[level])
    extra = 0 if qtype == 2 else rng.randint(0, 2)
    shape, color = rng.choice(SHAPES), rng.choice(SHAPE_COLORS)
    asked = set(rng.sample(range(count + extra), count))
    drawn = []
    for k, cell in enumerate(sorted(rng.sample(range(16), count + extra))):
        if qtype == 0:
            kind = shape if k in asked else rng.choice([s for s in SHAPES if s != shape])
            colour = rng.choice(SHAPE_COLORS)
        elif qtype == 1:
            kind = rng.choice(SHAPES)
            colour = color if k in asked else rng.choice([c for c in SHAPE_COLORS if c != color])
        else:
            kind, colour = rng.choice(SHAPES), rng.choice(SHAPE_COLORS)
        drawn.append(_shape_at(rng, cell, kind, colour))
    question = (
        f"How many {shape}s are there in the image?",
        f"How many {color} shapes are there in the image?",
        "How many shapes are there in the image in total?",
    )[qtype]
    ask = ({"shape": shape}, {"color": color}, {})[qtype]
    return {"shapes": drawn}, {"q": f"{question} {NUMBER}", "answer": count, "ask": ask}


def bars(rng: random.Random, level: int, qtype: int) -> Built:
    """A bar's value (0) or tallest minus shortest (2): the value or difference drawn first."""
    count, step = ((4, 10), (5, 5), (6, 5))[level]
    hint = f"The bars are numbered 1 to {count} from left to right under the horizontal axis."
    if qtype == 0:
        value, bar = rng.randrange(10, 101, step), rng.randrange(count)
        values = [rng.randrange(step, 101, step) for _ in range(count)]
        values[bar] = value
        question = f"{hint} What is the value of bar {bar + 1}? {NUMBER}"
        return {"values": values}, {"q": question, "answer": value, "ask": {"bar": bar + 1}}
    spread = rng.randrange(10, 91, step)
    low = rng.randrange(step, 101 - spread, step)
    values = [rng.randrange(low, low + spread + 1, step) for _ in range(count)]
    low_at, high_at = rng.sample(range(count), 2)
    values[low_at], values[high_at] = low, low + spread
    question = (
        f"{hint} What is the value of the tallest bar minus the value of the shortest bar? {NUMBER}"
    )
    return {"values": values}, {"q": question, "answer": spread, "ask": {}}


def clock_minutes(rng: random.Random, level: int, hour: int) -> Built:
    """Minutes past the hour, a multiple of 5 at every level."""
    hour, minute = clock_time(rng, 1, hour)
    gt = {"hour": hour, "minute": minute, "minute_ticks": level == 2}
    question = f"How many minutes past the hour does the clock show? {NUMBER}"
    return gt, {"q": question, "answer": minute, "ask": {}}


def dice_total(values: list[int], qtype: int) -> int:
    """The answer of a dice question: the pips on the faces it counts."""
    return sum(v for v in values if v in DICE_QUESTIONS[qtype][1])


@cache
def reachable(level: int, qtype: int) -> tuple[int, ...]:
    """The planned totals the level's dice can show (three dice have no odd faces adding up to
    12 or 14: two odd faces make at most 10, three an odd number)."""
    shown = {dice_total(list(v), qtype) for v in itertools.product(range(1, 7), repeat=DICE[level])}
    return tuple(t for t in DICE_QUESTIONS[qtype][2] if t in shown)


def dice(rng: random.Random, level: int, qtype: int) -> Built:
    """A dice total, drawn first among those the dice can show, then dice thrown until they
    show it."""
    question = DICE_QUESTIONS[qtype][0]
    wanted = rng.choice(reachable(level, qtype))
    while True:
        values = [rng.randint(1, 6) for _ in range(DICE[level])]
        if dice_total(values, qtype) == wanted:
            break
    placed = []
    for value, cell in zip(values, sorted(rng.sample(range(9), len(values))), strict=True):
        x = (cell % 3) * 85 + rng.randint(4, 85 - DIE - 4)
        y = (cell // 3) * 85 + rng.randint(4, 85 - DIE - 4)
        placed.append({"value": value, "box": [x, y]})
    return {"dice": placed}, {"q": f"{question} {NUMBER}", "answer": wanted, "ask": {}}
