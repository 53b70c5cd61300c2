"""Wrong answers of eval-reasoning-v3's unchanged families, for eval-reasoning-v4's probes.

Each function takes a finished open row (exact or numeric) and returns ``(wrong, spellings)``:
answers of the gold's form that a careless solver gives (``common.probes`` drops any that equal
an accepted answer) and extra correct spellings (none here: each family's accepted list already
holds them). mc rows need none: their options are the slips. Deterministic: no random draws.

* logic grid: every other person (who) or every other value of the asked category (value);
* knights and knaves: the other kind's list, and the list with one islander added or left out;
* scheduling: the counts a day off; the length with every task in a row, or (two workers) with
  unlimited workers; a task's earliest finish for its earliest start; the other feasible meeting
  starts and the starts five minutes off.
"""

from __future__ import annotations

from typing import Any

from families.reasoning import schedule

Slips = tuple[list[Any], list[str]]


def grid(row: dict[str, Any]) -> Slips:
    m, gold = row["meta"], row["answer"]
    (category,) = [c for c, values in m["values"].items() if gold in values]
    return [v for v in m["values"][category] if v != gold], []


def knights(row: dict[str, Any]) -> Slips:
    m = row["meta"]
    want = m["list"]
    listed = [p for p in m["people"] if m["solution"][p] == want]
    others = [p for p in m["people"] if p not in listed]
    wrong = [others] + [[p for p in listed if p != drop] for drop in listed]
    wrong += [sorted([*listed, extra]) for extra in others]
    return [", ".join(w) if w else "none" for w in wrong], []


def scheduling(row: dict[str, Any]) -> Slips:
    m = row["meta"]
    if m["kind"] == "meeting":
        return _meeting(m, schedule.minutes(row["answer"][0])), []
    gold = int(row["answer"])
    d, pre = m["durations"], m["prereqs"]
    wrong = [gold - 1, gold + 1]
    if m["ask"] == "length":
        wrong.append(max(schedule.finish_times(d, pre)) if m["workers"] else sum(d))
    else:
        wrong.append(gold + d[m["task"]])
    return [w for w in wrong if w >= 0], []


def _meeting(m: dict[str, Any], gold: int) -> list[str]:
    """The other starts that fit, and the starts five minutes either side of the gold."""
    blocked = [
        (schedule.minutes(a), schedule.minutes(b) + m["gap"])
        for spans in m["busy"].values()
        for a, b in spans
    ]
    end_by = schedule.minutes(m["end_by"])
    starts = [
        s
        for s in range(540, end_by - m["length"] + 1, 5)
        if all(s + m["length"] <= a or s >= b for a, b in blocked)
    ]
    ordered = starts if m["which"] == "earliest" else starts[::-1]
    near = [gold - 5, gold + 5, *ordered[1:3]]
    return [schedule.clock(v) for v in near if v != gold]
