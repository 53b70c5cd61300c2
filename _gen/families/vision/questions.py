"""The questions of eval-vision-v1 (and the open ones of -v2), each family's builders and the
two proofs every row gets: the answer recomputed from ``meta.ground_truth``, and the ground truth
read back from the rendered pixels (``families.vision.pixels``). Moved here from the v1
generator, unchanged.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from families.vision import pixels as read
from families.vision.draw import DIE, SHAPE_COLORS

SHAPES = ("circle", "square", "triangle")
NUMBER = "End your reply with a line 'Answer: <number>'."
LETTER = "End your reply with a line 'Answer: <letter>'."
BAR_TOLERANCE = 2


def draw_shapes(rng: random.Random, level: int) -> list[dict[str, Any]]:
    count = rng.randint(*((2, 4), (5, 8), (9, 13))[level])
    shapes = []
    for cell in sorted(rng.sample(range(16), count)):
        size = rng.randint(24, 44)
        x = (cell % 4) * 64 + rng.randint(4, 60 - size)
        y = (cell // 4) * 64 + rng.randint(4, 60 - size)
        shapes.append(
            {"shape": rng.choice(SHAPES), "color": rng.choice(SHAPE_COLORS), "box": [x, y, size]}
        )
    return shapes


def shapes_item(rng: random.Random, level: int, qtype: int) -> tuple[dict[str, Any], ...]:
    shapes = draw_shapes(rng, level)
    kinds = Counter(s["shape"] for s in shapes)
    while qtype == 3 and list(kinds.values()).count(max(kinds.values())) > 1:
        shapes = draw_shapes(rng, level)
        kinds = Counter(s["shape"] for s in shapes)
    gt = {"shapes": shapes}
    if qtype == 0:
        shape = rng.choice(SHAPES)
        return gt, {
            "q": f"How many {shape}s are there in the image? {NUMBER}",
            "answer": kinds[shape],
            "ask": {"shape": shape},
        }
    if qtype == 1:
        color = rng.choice(sorted({s["color"] for s in shapes}))
        answer = sum(s["color"] == color for s in shapes)
        return gt, {
            "q": f"How many {color} shapes are there in the image? {NUMBER}",
            "answer": answer,
            "ask": {"color": color},
        }
    if qtype == 2:
        return gt, {
            "q": f"How many shapes are there in the image in total? {NUMBER}",
            "answer": len(shapes),
            "ask": {},
        }
    best = kinds.most_common(1)[0][0]
    return gt, {
        "q": f"Which kind of shape appears most often in the image? {LETTER}",
        "choices": list(SHAPES),
        "answer": "ABC"[SHAPES.index(best)],
        "ask": {},
    }


def bars_item(rng: random.Random, level: int, qtype: int) -> tuple[dict[str, Any], ...]:
    count, step = ((4, 10), (5, 5), (6, 5))[level]
    values = [rng.randrange(step, 101, step) for _ in range(count)]
    while qtype == 1 and values.count(max(values)) > 1:
        values = [rng.randrange(step, 101, step) for _ in range(count)]
    gt = {"values": values}
    read_hint = "The bars are numbered 1 to {n} from left to right under the horizontal axis."
    hint = read_hint.format(n=count)
    if qtype == 0:
        bar = rng.randrange(count)
        return gt, {
            "q": f"{hint} What is the value of bar {bar + 1}? {NUMBER}",
            "answer": values[bar],
            "ask": {"bar": bar + 1},
        }
    if qtype == 1:
        labels = [f"bar {i + 1}" for i in range(count)]
        return gt, {
            "q": f"{hint} Which bar is the tallest? {LETTER}",
            "choices": labels,
            "answer": chr(65 + values.index(max(values))),
            "ask": {},
        }
    return gt, {
        "q": f"{hint} What is the value of the tallest bar minus the value of the "
        f"shortest bar? {NUMBER}",
        "answer": max(values) - min(values),
        "ask": {},
    }


def clock_time(rng: random.Random, level: int, hour: int) -> tuple[int, int]:
    while True:
        minute = rng.randrange(0, 60, (15, 5, 1)[level])
        gap = abs((hour % 12 + minute / 60) * 30 - minute * 6) % 360
        if min(gap, 360 - gap) >= 24:  # hands apart, so each can be read (and proven) alone
            return hour, minute


def clock_item(rng: random.Random, level: int, qtype: int, hour: int) -> tuple[dict[str, Any], ...]:
    hour, minute = clock_time(rng, level, hour)
    gt = {"hour": hour, "minute": minute, "minute_ticks": level == 2}
    shown = f"{hour}:{minute:02d}"
    if qtype == 0:
        accepted = list(dict.fromkeys([shown, f"{hour:02d}:{minute:02d}"]))
        question = "What time does the analogue clock show (12-hour clock)?"
        return gt, {
            "q": f"{question} End your reply with a line 'Answer: H:MM'.",
            "answer": accepted,
            "scorer": "exact",
            "ask": {},
        }
    if qtype == 1:
        return gt, {
            "q": f"How many minutes past the hour does the clock show? {NUMBER}",
            "answer": minute,
            "ask": {},
        }
    swapped = f"{(minute // 5) or 12}:{(hour % 12) * 5:02d}"
    options = [
        shown,
        swapped,
        f"{hour % 12 + 1}:{minute:02d}",
        f"{hour}:{(minute + 30) % 60:02d}",
        f"{(hour + 10) % 12 + 1}:{minute:02d}",
    ]
    choices = list(dict.fromkeys(options))[:4]
    rng.shuffle(choices)
    return gt, {
        "q": f"Which time does the clock show? {LETTER}",
        "choices": choices,
        "answer": chr(65 + choices.index(shown)),
        "ask": {},
    }


def dice_item(rng: random.Random, level: int, qtype: int) -> tuple[dict[str, Any], ...]:
    count = rng.randint(*((1, 2), (3, 3), (4, 5))[level])
    dice = []
    for cell in sorted(rng.sample(range(9), count)):
        x = (cell % 3) * 85 + rng.randint(4, 85 - DIE - 4)
        y = (cell // 3) * 85 + rng.randint(4, 85 - DIE - 4)
        dice.append({"value": rng.randint(1, 6), "box": [x, y]})
    gt = {"dice": dice}
    values = [d["value"] for d in dice]
    questions = (
        ("What is the total number of pips on all the dice?", sum(values)),
        ("What is the highest value shown by any of the dice?", max(values)),
        ("How many of the dice show an even number?", sum(v % 2 == 0 for v in values)),
    )
    text, answer = questions[qtype]
    return gt, {"q": f"{text} {NUMBER}", "answer": answer, "ask": {}}


ITEMS = {
    "shapes": (shapes_item, 4),
    "bars": (bars_item, 3),
    "clock": (clock_item, 3),
    "dice": (dice_item, 3),
}


def answer_from_truth(row: dict[str, Any]) -> Any:
    """The answer recomputed from ``meta.ground_truth`` and the question asked."""
    gt, ask, qtype = row["meta"]["ground_truth"], row["meta"]["ask"], row["meta"]["question_type"]
    family = row["category"]
    if family == "shapes":
        kinds = [s["shape"] for s in gt["shapes"]]
        colours = [s["color"] for s in gt["shapes"]]
        top = max(SHAPES, key=kinds.count)
        return (
            kinds.count(ask.get("shape")),
            colours.count(ask.get("color")),
            len(kinds),
            "ABC"[SHAPES.index(top)],
        )[qtype]
    if family == "bars":
        v = gt["values"]
        return (v[ask.get("bar", 1) - 1], "ABCDEF"[v.index(max(v))], max(v) - min(v))[qtype]
    if family == "clock":
        shown = f"{gt['hour']}:{gt['minute']:02d}"
        letter = "ABCD"[row["choices"].index(shown)] if row.get("choices") else None
        accepted = [shown] if gt["hour"] >= 10 else [shown, "0" + shown]
        return (accepted, gt["minute"], letter)[qtype]
    pips = sorted(d["value"] for d in gt["dice"])
    return (sum(pips), pips[-1], len([p for p in pips if p in (2, 4, 6)]))[qtype]


def truth_from_pixels(row: dict[str, Any], png: bytes) -> bool:
    """Whether what the pixels show matches ``meta.ground_truth``."""
    gt = row["meta"]["ground_truth"]
    if row["category"] == "shapes":
        drawn = sorted((s["box"][1], s["box"][0], s["shape"], s["color"]) for s in gt["shapes"])
        return read.read_shapes(png) == drawn
    if row["category"] == "bars":
        return read.read_bars(png, len(gt["values"])) == gt["values"]
    if row["category"] == "clock":
        return read.read_clock(png) == (gt["hour"], gt["minute"])
    drawn_dice = sorted((d["box"][1] + 2, d["box"][0] + 2, d["value"]) for d in gt["dice"])
    return read.read_dice(png) == drawn_dice
