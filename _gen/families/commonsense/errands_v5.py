"""eval-commonsense-v5 goal tracking: eval-commonsense-v4's errands, with an "either" wording that
agrees with the story, and a weekly closing day that decides some errands (issue 30).

Two findings on eval-commonsense-v4:

* one wording of the "either" plan ended "it is at home and the errand is not for it", while the
  story said "buy a bottle of screen wash for the car", "buy a new bell for the bicycle", "buy a
  bag of food for the dog" or "pay the bill for the car's last service": the errand *is* for the
  object, it just does not need the object there (cs4-0009, -0025, -0057, -0073, each with that
  wording as the gold). ``WORDINGS`` gives that plan a third wording saying the object is not
  needed for the errand, as its other two wordings say it in their own words;
* the weekly closing day (the hard rows, 10 of 32) never decided an errand: in 9 rows today was
  another day, and in the one row where the place was shut all day it was past closing time as
  well. A reader who skipped the sentence lost nothing. Here the medium rows state a closing day
  too, and in three of the postponed errands among them the closing day is today while the clock
  says the place is (or will be) open: only the closing day makes the plan "do not go". In the
  other two postponed errands with a closing day it is past closing time on another day, and in
  every other row with a closing day today is not that day, so "a closing day is mentioned" says
  nothing about the plan either. The solver re-decides each row with and without the closing day
  (``closing_day_decides``) and the generator's suite-wide proof counts both kinds.

The facts, stories, plan rule and balance (each plan a quarter of each object's rows) are v3's
(``errands``), the options v4's (each a plan with its reason, worded one of three ways).
"""

from __future__ import annotations

import random
from typing import Any

from common import mc_plan as plan

from families.commonsense import errands

FORMS = errands.FORMS
PLANS = errands.PLANS
OBJECTS = tuple(errands.OBJECTS)
DAYS = errands.DAYS

#: Per plan (``PLANS`` order), three wordings of the plan and its reason: v4's, except the third
#: "either" wording, which said "the errand is not for it" of errands such as buying food *for*
#: the dog; it now says, like the other two, that the errand does not need the object (and
#: without the word "without", which the plan of going without the object uses).
WORDINGS: tuple[tuple[str, ...], ...] = (
    (
        "Bring the {obj} along: the errand needs it",
        "Take the {obj}: this errand is a service done to it",
        "The {obj} has to come too, since the job at the {place} is done on it",
    ),
    (
        "Go without the {obj}: it is already waiting where the errand is",
        "Set off without the {obj}, as it is at the {place} already",
        "The {obj} is already at the {place}, so leave without it",
    ),
    (
        "Go with or without the {obj}: it is at home and the errand does not need it",
        "Taking the {obj} is optional: it is at home and nothing at the {place} is done to it",
        "Whether the {obj} comes makes no difference: it is at home and not needed for the errand",
    ),
    (
        "Do not go today: nothing more can be done at the {place} today",
        "Wait for another day: the {place} is closed for the rest of today",
        "Put the errand off: the {place} does not open again today",
    ),
)
#: The levels whose stories state a weekly closing day (v4: the hard level only).
CLOSING_DAY_LEVELS = (1, 2)


def options(obj: str, place: str, picks: tuple[int, ...]) -> tuple[str, ...]:
    """The four options for ``obj`` at ``place`` in ``PLANS`` order, plan ``i`` worded by its
    wording ``picks[i]``."""
    return tuple(WORDINGS[i][k].format(obj=obj, place=place) for i, k in enumerate(picks))


def plan_of(text: str, obj: str, place: str) -> str:
    """The plan an option text words (every wording of every plan tried)."""
    (found,) = [
        PLANS[i]
        for i, words in enumerate(WORDINGS)
        for w in words
        if w.format(obj=obj, place=place) == text
    ]
    return found


def day_decides_planned(ordinal: int, level: int) -> bool:
    """Whether row ``ordinal`` of the family (a postponed errand when ``ordinal % 4 == 3``) is
    put off by its closing day alone: the rows 7, 23 and 31 of the family (medium, hard,
    medium); rows 11 and 19 (hard, medium) are put off by the clock instead."""
    return level in CLOSING_DAY_LEVELS and ordinal % 8 == 7


def _draw(
    rng: random.Random, level: int, obj: str, places: tuple[tuple[str, str, str], ...]
) -> dict[str, Any]:
    """v3's facts, with a closing day at every level of ``CLOSING_DAY_LEVELS``: today is that
    day in about two draws of five, as in v3."""
    place, service, other = rng.choice(places)
    opens, closes = rng.randrange(7 * 60, 10 * 60 + 1, 15), rng.randrange(16 * 60, 20 * 60 + 1, 30)
    now = rng.choice(
        (
            rng.randrange(opens + 15, closes - 15, 5),  # open now
            rng.randrange(closes + 5, 23 * 60, 5),  # closed for the rest of the day
            rng.randrange(6 * 60, opens - 5, 5) if level else opens + 60,  # opens later today
        )
    )
    today, closed_on = None, None
    if level in CLOSING_DAY_LEVELS:
        today, closed_on = rng.sample(DAYS, 2) if rng.random() < 0.6 else 2 * [rng.choice(DAYS)]
    errand = rng.choice((service, other))
    return {
        "kind": "errand",
        "object": obj,
        "place": place,
        "errand": errand,
        "needs_object": errand == service,
        "object_at": rng.choice(("home", "place")),
        "opens": errands.clock(opens),
        "closes": errands.clock(closes),
        "now": errands.clock(now),
        "today": today,
        "closed_on": closed_on,
        "distance_m": rng.randrange(150, 1200, 50),
    }


def errand(rng: random.Random, level: int, slot: int | None, ordinal: int) -> dict[str, Any]:
    """Row ``ordinal`` of the category gets plan ``ordinal % 4`` for object ``ordinal // 4``; a
    postponed errand with a closing day is put off by that day or by the clock as planned."""
    assert slot is not None
    wanted = PLANS[ordinal % 4]
    obj = OBJECTS[(ordinal // 4) % len(OBJECTS)]
    places = errands.OBJECTS[obj][1]
    by_day = day_decides_planned(ordinal, level)
    while True:
        facts = _draw(rng, level, obj, places)
        if errands.decide(facts) == wanted and closing_day_decides(facts) == by_day:
            break
    text = errands.story(facts, obj, rng.sample(errands.ASIDES, 1 + level // 2), rng.randrange(3))
    shown = options(obj, facts["place"], tuple(rng.randrange(3) for _ in PLANS))
    right = shown[PLANS.index(wanted)]
    placed = plan.place(rng, right, [o for o in shown if o != right], slot)
    q = f"{text}\n\nWhich plan is right, for the reason it gives?"
    return plan.mc_item(q, placed, slot, facts)


BUILD = {"errand": errand}


# ---- the solver: a day timeline, with and without the closing day ----------------------------
def open_today(m: dict[str, Any], with_closing_day: bool = True) -> bool:
    """Is the place open at some minute from now to midnight, walking today's opening minutes
    (and, ``with_closing_day``, shut all day when today is its closing day)?"""
    if with_closing_day and m["today"] is not None and m["today"] == m["closed_on"]:
        return False
    opening = range(errands.minutes(m["opens"]), errands.minutes(m["closes"]))
    return any(t >= errands.minutes(m["now"]) for t in opening)


def _holds(m: dict[str, Any], which: str, open_now: bool) -> bool:
    """Is option ``which``'s plan-and-reason true of the facts ``m``?"""
    at_home = m["object_at"] == "home"
    return {
        "take": open_now and at_home and m["needs_object"],
        "without": open_now and not at_home,
        "either": open_now and at_home and not m["needs_object"],
        "postpone": not open_now,
    }[which]


def solve(m: dict[str, Any], with_closing_day: bool = True) -> str:
    """The one plan whose reason holds (the timeline solver, not ``errands.decide``)."""
    is_open = open_today(m, with_closing_day)
    (found,) = [p for p in PLANS if _holds(m, p, is_open)]
    return found


def closing_day_decides(m: dict[str, Any]) -> bool:
    """Whether the plan changes when the closing-day sentence is ignored."""
    return m["closed_on"] is not None and solve(m) != solve(m, with_closing_day=False)


def _prove_errand(row: dict[str, Any]) -> None:
    """Re-decide from the stored facts with the timeline solver: the options word the four plans
    once each, and exactly the gold option's plan and reason hold."""
    m = row["meta"]
    worded = [plan_of(c, m["object"], m["place"]) for c in row["choices"]]
    assert sorted(worded) == sorted(PLANS), row["id"]
    is_open = open_today(m)
    fits = [c for c, p in zip(row["choices"], worded, strict=True) if _holds(m, p, is_open)]
    assert fits == [plan.gold_text(row)], (row["id"], fits)
    level = ("easy", "medium", "hard").index(row["difficulty"])
    assert (m["closed_on"] is not None) == (level in CLOSING_DAY_LEVELS), row["id"]


PROVE = {"errand": _prove_errand}
