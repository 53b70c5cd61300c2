"""eval-commonsense-v4 goal tracking: eval-commonsense-v3's errands, each option a plan with its
reason, so exactly one option is right.

In eval-commonsense-v3, when the object was at home and not needed the gold was "Either: bringing
the X or not makes no difference", but "Go without the X" was right too: going without it is one
of the two ways that both work (issue 19: cs3-0009, -0025, -0041, -0057, -0073, -0089, -0105,
-0121; in the car rows -0009 and -0073 it is the better answer). Here every option states a plan
and the fact that makes it the plan, and the four facts exclude each other:

* "Bring the X along: the errand needs it" - at home, and the errand is a service for it;
* "Go without the X: it is already waiting where the errand is" - the X is at the place;
* "Go with or without the X: it is at home and the errand does not need it";
* "Do not go today: nothing more can be done at the P today" - the place P is closed for the
  rest of the day.

A plan whose reason is false is wrong, so when the X is at home and not needed, "Go without the
X" is no longer right: its reason says the X is at the place. The facts, stories, plan rule and
balance (each plan right in a quarter of each object's rows) are v3's (``errands``); the
question asks for the plan and its reason.

v3 gave each plan one wording, so each option text recurred in 8 rows, right in exactly 2: a
reader who has seen the other rows counts a plan down (the issue-19 audit's out-of-fold text
prior, picking the text least often right elsewhere: 0.44 on v3's goal tracking, chance 0.25).
Here each plan has three wordings (``WORDINGS``) and each option is worded by one drawn for it,
so an option text recurs in few rows.

The proof re-decides the plan from the stored facts with v3's day timeline and checks that every
other option's reason is false in the story's facts.
"""

from __future__ import annotations

import random
from typing import Any

from common import mc_plan as plan

from families.commonsense import errands

FORMS = errands.FORMS
PLANS = errands.PLANS
OBJECTS = tuple(errands.OBJECTS)


#: Per plan (``PLANS`` order), three wordings of the plan and its reason; ``{obj}`` is the object
#: and ``{place}`` the place. Each row words each option by a wording drawn for it, so no option
#: text, word or length marks a plan across rows.
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
        "Whether the {obj} comes makes no difference: it is at home and the errand is not for it",
    ),
    (
        "Do not go today: nothing more can be done at the {place} today",
        "Wait for another day: the {place} is closed for the rest of today",
        "Put the errand off: the {place} does not open again today",
    ),
)


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


def errand(rng: random.Random, level: int, slot: int | None, ordinal: int) -> dict[str, Any]:
    """Row ``ordinal`` of the category gets plan ``ordinal % 4`` for object ``ordinal // 4``."""
    assert slot is not None
    wanted = PLANS[ordinal % 4]
    obj = OBJECTS[(ordinal // 4) % len(OBJECTS)]
    places = errands.OBJECTS[obj][1]
    while True:
        facts = errands._draw(rng, level, obj, places)
        if errands.decide(facts) == wanted:
            break
    text = errands.story(facts, obj, rng.sample(errands.ASIDES, 1 + level // 2), rng.randrange(3))
    shown = options(obj, facts["place"], tuple(rng.randrange(3) for _ in PLANS))
    right = shown[PLANS.index(wanted)]
    placed = plan.place(rng, right, [o for o in shown if o != right], slot)
    q = f"{text}\n\nWhich plan is right, for the reason it gives?"
    return plan.mc_item(q, placed, slot, facts)


BUILD = {"errand": errand}


def _holds(m: dict[str, Any], which: str, open_today: bool) -> bool:
    """Is option ``which``'s plan-and-reason true of the facts ``m``?"""
    at_home = m["object_at"] == "home"
    return {
        "take": open_today and at_home and m["needs_object"],
        "without": open_today and not at_home,
        "either": open_today and at_home and not m["needs_object"],
        "postpone": not open_today,
    }[which]


def _prove_errand(row: dict[str, Any]) -> None:
    """Re-decide from the stored facts with a day timeline: exactly the gold option holds, and
    the options word the four plans once each."""
    m = row["meta"]
    open_minutes = range(errands.minutes(m["opens"]), errands.minutes(m["closes"]))
    closed_today = m["today"] is not None and m["today"] == m["closed_on"]
    open_today = not closed_today and any(t >= errands.minutes(m["now"]) for t in open_minutes)
    worded = [plan_of(c, m["object"], m["place"]) for c in row["choices"]]
    assert sorted(worded) == sorted(PLANS), row["id"]
    fits = [c for c, p in zip(row["choices"], worded, strict=True) if _holds(m, p, open_today)]
    assert fits == [plan.gold_text(row)], (row["id"], fits)


PROVE = {"errand": _prove_errand}
