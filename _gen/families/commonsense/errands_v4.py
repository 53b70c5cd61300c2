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
* "Do not go today: the errand cannot be done today" - the place is closed for the rest of
  the day.

A plan whose reason is false is wrong, so when the X is at home and not needed, "Go without the
X" is no longer right: its reason says the X is at the place. The facts, stories, the plan rule
and the balance (each plan right in a quarter of each object's rows) are v3's (``errands``); the
question asks for the plan and its reason. Option wordings avoid the story's words ("there",
"here", "home" is in every story), so the options share the same words with every stem.

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


def options(obj: str) -> tuple[str, ...]:
    """The four options for ``obj``, in ``PLANS`` order."""
    return (
        f"Bring the {obj} along: the errand needs it",
        f"Go without the {obj}: it is already waiting where the errand is",
        f"Go with or without the {obj}: it is at home and the errand does not need it",
        "Do not go today: the errand cannot be done today",
    )


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
    shown = options(obj)
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
    """Re-decide from the stored facts with a day timeline: exactly the gold option holds."""
    m = row["meta"]
    open_minutes = range(errands.minutes(m["opens"]), errands.minutes(m["closes"]))
    closed_today = m["today"] is not None and m["today"] == m["closed_on"]
    open_today = not closed_today and any(t >= errands.minutes(m["now"]) for t in open_minutes)
    texts = options(m["object"])
    assert sorted(row["choices"]) == sorted(texts), row["id"]
    fits = [c for c in row["choices"] if _holds(m, PLANS[texts.index(c)], open_today)]
    assert fits == [plan.gold_text(row)], (row["id"], fits)


PROVE = {"errand": _prove_errand}
