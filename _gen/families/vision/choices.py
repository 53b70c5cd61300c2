"""eval-vision-v2's choice rows, rebuilt so that no option-only rule finds the gold (issue 19).

In eval-vision-v1 the option sharing most words with the other options was the gold in 54 % of
the choice rows (chance 25 %): the clock's distractors were each one slip away from the shown
time (the next hour, the other half hour, the hands swapped), so the shown time shared its hour
with two options and its minutes with two more, and which shape or bar won followed the draw.

* clock: the four options are a 2 x 2 grid of readings, two hours (the shown one and the one
  next to it, before or after) times two minute values (the shown one and the one half an hour
  away), so every option shares its hour with one other and its minutes with one other; the
  shown time is put at the planned letter among the others shuffled;
* which shape appears most often: the winning shape is planned (each equally often), the shapes
  drawn again until it wins alone;
* which bar is tallest: the tallest bar's place is planned (each place equally often within a
  level), the values drawn again until it is the only tallest.

The questions' wording, the images and both proofs (``families.vision.questions``: the answer
from the ground truth, the ground truth from the pixels) are v1's.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from families.vision.questions import LETTER, SHAPES, clock_time, draw_shapes

Built = tuple[dict[str, Any], dict[str, Any]]


def deal(rng: random.Random, rows: Sequence[tuple[str, int, int]]) -> dict[int, int]:
    """Planned slot of each row given as ``(group, row index, options)``: within a group, slots
    come from shuffled blocks of ``range(options)`` in row order, so every slot is planned
    equally often (within one). ``rng`` is the plan's own stream."""
    slots: dict[int, int] = {}
    blocks: dict[str, list[int]] = {}
    for group, idx, options in sorted(rows, key=lambda row: row[1]):
        if not blocks.get(group):
            blocks[group] = list(range(options))
            rng.shuffle(blocks[group])
        slots[idx] = blocks[group].pop()
    return slots


def most_common_shape(rng: random.Random, level: int, slot: int) -> Built:
    """The three shapes as options in an order drawn per row, and shapes drawn until the one at
    letter ``slot`` alone appears most often. In a fixed order the planned letters also planned
    the winning shape, and a family dealt evenly let its other rows tell which shape was left."""
    order = rng.sample(SHAPES, len(SHAPES))
    while True:
        shapes = draw_shapes(rng, level)
        kinds = Counter(s["shape"] for s in shapes)
        top = max(kinds.values())
        if [k for k in SHAPES if kinds[k] == top] == [order[slot]]:
            break
    return {"shapes": shapes}, {
        "q": f"Which kind of shape appears most often in the image? {LETTER}",
        "choices": order,
        "answer": "ABC"[slot],
        "ask": {},
    }


def tallest_bar(rng: random.Random, level: int, slot: int) -> Built:
    """The bars as options in an order drawn per row (as for the shapes), and bar values drawn
    until the bar at letter ``slot`` alone is the tallest."""
    count, step = ((4, 10), (5, 5), (6, 5))[level]
    order = rng.sample(range(count), count)
    while True:
        values = [rng.randrange(step, 101, step) for _ in range(count)]
        if values.count(max(values)) == 1 and values.index(max(values)) == order[slot]:
            break
    hint = f"The bars are numbered 1 to {count} from left to right under the horizontal axis."
    return {"values": values}, {
        "q": f"{hint} Which bar is the tallest? {LETTER}",
        "choices": [f"bar {i + 1}" for i in order],
        "answer": chr(65 + slot),
        "ask": {},
    }


def clock_grid(rng: random.Random, level: int, hour: int, slot: int) -> Built:
    """The shown time among a 2 x 2 grid of readings, at letter ``slot``."""
    hour, minute = clock_time(rng, level, hour)
    other_hour = (hour + rng.choice((-1, 1)) - 1) % 12 + 1
    other_minute = (minute + 30) % 60
    shown = f"{hour}:{minute:02d}"
    others = [f"{h}:{m:02d}" for h in (hour, other_hour) for m in (minute, other_minute)][1:]
    rng.shuffle(others)
    choices = [*others[:slot], shown, *others[slot:]]
    gt = {"hour": hour, "minute": minute, "minute_ticks": level == 2}
    return gt, {
        "q": f"Which time does the clock show? {LETTER}",
        "choices": choices,
        "answer": chr(65 + slot),
        "ask": {},
    }


def check_grid(row: dict[str, Any]) -> None:
    """A clock row's options are two hours times two minute values, half an hour apart."""
    readings = [tuple(int(x) for x in c.split(":")) for c in row["choices"]]
    hours, minutes = {h for h, _ in readings}, {m for _, m in readings}
    assert len(set(readings)) == 4 and len(hours) == 2 and len(minutes) == 2, row["id"]
    a, b = sorted(hours)
    assert b - a in (1, 11), row["id"]  # neighbouring hours (12 and 1 included)
    assert abs(max(minutes) - min(minutes)) == 30, row["id"]
