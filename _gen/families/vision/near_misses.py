"""Near misses of eval-vision-v2 rows (issue 19), by family and question: what a careless
reader of the image answers instead of the gold.

* shapes: one more or one fewer (a shape missed or counted twice), the count of another kind of
  shape, or of all of them;
* bars: the value of a neighbouring bar, a value one gridline off, the tallest or the shortest
  value alone instead of their difference;
* clocks: the next or previous hour, the other half hour, the hour hand read as minutes;
* dice: one pip off, the odd dice counted instead of the even ones (or the other way round),
  all of them instead of some, or some instead of all.

mc rows take the other letters and option texts (``common.probes.mc``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from common import probes

from families.vision.questions import SHAPES

Row = dict[str, Any]


def _shapes(row: Row) -> list[int]:
    gt, ask, qtype = row["meta"]["ground_truth"], row["meta"]["ask"], row["meta"]["question_type"]
    kinds = [s["shape"] for s in gt["shapes"]]
    wrong = probes.off_by_one(int(row["answer"]))
    if qtype == 0:
        wrong += [kinds.count(k) for k in SHAPES if k != ask["shape"]]
    return [*wrong, len(kinds)] if qtype < 2 else wrong


def _bars(row: Row) -> list[int]:
    values, qtype = row["meta"]["ground_truth"]["values"], row["meta"]["question_type"]
    step = 10 if len(values) == 4 else 5
    gold = int(row["answer"])
    wrong = [gold - step, gold + step]
    if qtype == 0:
        k = row["meta"]["ask"]["bar"] - 1
        wrong += [values[j] for j in (k - 1, k + 1) if 0 <= j < len(values)]
    else:
        wrong += [max(values), min(values)]
    return [w for w in wrong if w >= 0]


def _clock_minutes(row: Row) -> list[int]:
    gt = row["meta"]["ground_truth"]
    step = {"easy": 15, "medium": 5, "hard": 1}[row["difficulty"]]
    minute = gt["minute"]
    return [(minute + 30) % 60, (gt["hour"] % 12) * 5, (minute + step) % 60, (minute - step) % 60]


def _dice(row: Row) -> list[int]:
    values, qtype = (
        [d["value"] for d in row["meta"]["ground_truth"]["dice"]],
        row["meta"]["question_type"],
    )
    even, odd = sum(v for v in values if v % 2 == 0), sum(v for v in values if v % 2)
    other = {0: [even, odd], 1: [odd, even + odd], 2: [even, even + odd]}[qtype]
    return [*probes.off_by_one(int(row["answer"])), *other]


NUMERIC: dict[str, Callable[[Row], list[int]]] = {
    "shapes": _shapes,
    "bars": _bars,
    "clock": _clock_minutes,
    "dice": _dice,
}


def _clock_times(row: Row) -> list[str]:
    gt = row["meta"]["ground_truth"]
    hour, minute = gt["hour"], gt["minute"]
    return [
        f"{hour % 12 + 1}:{minute:02d}",
        f"{(hour - 2) % 12 + 1}:{minute:02d}",
        f"{hour}:{(minute + 30) % 60:02d}",
        f"{(minute // 5) or 12}:{(hour % 12) * 5:02d}",
    ]


def slips(row: Row) -> tuple[list[Any], list[str]]:
    """The wrong answers of an open row's question (``common.probes.with_probes``)."""
    if row["scorer"] == "numeric":
        return list(NUMERIC[row["category"]](row)), []
    return _clock_times(row), []
