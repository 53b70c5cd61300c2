"""eval-commonsense-v3 goal tracking: errands whose right plan follows from the facts, not from a
keyword (issue 13: in v2 the answer was always "bring the object").

Every errand states the same four kinds of fact: where the object is (at home, or already at
the place), what the errand is (a service the object must be there for, or something else),
the place's opening hours today with the time now (and at the higher levels a weekly closing
day), and an aside about the distance or the weather. The plan follows mechanically:

* the place is closed for the rest of the day (past closing time, or its closing day) ->
  "it cannot be done today", whatever else holds (before opening time it still can be);
* the object is already at the place -> go without it (it cannot be taken along);
* the object is at home and the errand is for it -> take it;
* the object is at home and not needed there -> either way works.

The four plans are the four options of every row, in the same words for one object, and each
plan is right in exactly a quarter of the rows of each object (the row's position picks the
plan and the object), so no option wording, length or keyword finds the answer more often than
chance. Each row's facts are drawn until they give its planned answer.
"""

from __future__ import annotations

import random
from typing import Any

from common import mc_plan as plan

FORMS = (("errand", "mc"),)
PLANS = ("take", "without", "either", "postpone")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
#: object -> (options in PLANS order, places: (place, service for the object, other errand))
OBJECTS: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str, str], ...]]] = {
    "car": (
        (
            "Bring the car along",
            "Go without the car",
            "Either: bringing the car or not makes no difference",
            "Neither: it cannot be done today",
        ),
        (
            ("car wash", "have the car washed", "buy a bottle of screen wash for the car"),
            ("tyre shop", "have new tyres fitted to the car", "order winter tyres for the car"),
            (
                "garage",
                "pay the mechanic to change the car's oil",
                "pay the bill for the car's last service",
            ),
        ),
    ),
    "bicycle": (
        (
            "Bring the bicycle along",
            "Go without the bicycle",
            "Either: bringing the bicycle or not makes no difference",
            "Neither: it cannot be done today",
        ),
        (
            ("bike shop", "have the bicycle's brakes adjusted", "buy a new bell for the bicycle"),
            ("cycle club", "have the bicycle's frame number engraved", "pay the yearly fee"),
            ("repair cafe", "have a volunteer true the bicycle's wheel", "hand in a toolbox"),
        ),
    ),
    "laptop": (
        (
            "Bring the laptop along",
            "Go without the laptop",
            "Either: bringing the laptop or not makes no difference",
            "Neither: it cannot be done today",
        ),
        (
            ("computer shop", "have the laptop's screen replaced", "buy a charger for the laptop"),
            ("library", "have the help desk set up the laptop's printer", "return a book"),
            ("phone shop", "have the laptop's battery tested", "collect a parcel"),
        ),
    ),
    "dog": (
        (
            "Bring the dog along",
            "Go without the dog",
            "Either: bringing the dog or not makes no difference",
            "Neither: it cannot be done today",
        ),
        (
            ("grooming salon", "have the dog's coat trimmed", "buy a bag of food for the dog"),
            ("vet's surgery", "have the dog vaccinated", "pay an outstanding bill"),
            ("kennels", "have the dog's claws clipped", "book a stay for the dog next month"),
        ),
    ),
}
ASIDES = (
    "The weather is lovely and I enjoy walking.",
    "Parking near there is a little awkward.",
    "I could do with the exercise.",
    "It is raining a little.",
    "I have plenty of time.",
    "My neighbour says the walk only takes a few minutes.",
)


def clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def errand(rng: random.Random, level: int, slot: int | None, ordinal: int) -> dict[str, Any]:
    """Row ``ordinal`` of the category gets plan ``ordinal % 4`` for object ``ordinal // 4``."""
    assert slot is not None
    wanted = PLANS[ordinal % 4]
    obj = tuple(OBJECTS)[(ordinal // 4) % len(OBJECTS)]
    options, places = OBJECTS[obj]
    while True:
        facts = _draw(rng, level, obj, places)
        if decide(facts) == wanted:
            break
    text = story(facts, obj, rng.sample(ASIDES, 1 + level // 2), rng.randrange(3))
    others = [o for o in options if o != options[PLANS.index(wanted)]]
    shown = plan.place(rng, options[PLANS.index(wanted)], others, slot)
    return plan.mc_item(f"{text}\n\nWhat is the right plan?", shown, slot, facts)


def _draw(
    rng: random.Random, level: int, obj: str, places: tuple[tuple[str, str, str], ...]
) -> dict[str, Any]:
    place, service, other = rng.choice(places)
    opens, closes = rng.randrange(7 * 60, 10 * 60 + 1, 15), rng.randrange(16 * 60, 20 * 60 + 1, 30)
    now = rng.choice(
        (
            rng.randrange(opens + 15, closes - 15, 5),  # open now
            rng.randrange(closes + 5, 23 * 60, 5),  # closed for the rest of the day
            rng.randrange(6 * 60, opens - 5, 5) if level else opens + 60,  # opens later today
        )
    )
    facts: dict[str, Any] = {
        "kind": "errand",
        "object": obj,
        "place": place,
        "errand": rng.choice((service, other)),
        "needs_object": None,
        "object_at": rng.choice(("home", "place")),
        "opens": clock(opens),
        "closes": clock(closes),
        "now": clock(now),
        "today": None,
        "closed_on": None,
        "distance_m": rng.randrange(150, 1200, 50),
    }
    facts["needs_object"] = facts["errand"] == service
    if level == 2:
        facts["today"], facts["closed_on"] = (
            rng.sample(DAYS, 2) if rng.random() < 0.6 else 2 * [rng.choice(DAYS)]
        )
    return facts


def minutes(text: str) -> int:
    hours, mins = text.split(":")
    return int(hours) * 60 + int(mins)


def decide(facts: dict[str, Any]) -> str:
    """The plan the facts call for (rules in the module docstring)."""
    if facts["today"] is not None and facts["today"] == facts["closed_on"]:
        return "postpone"
    if minutes(facts["now"]) >= minutes(facts["closes"]):
        return "postpone"
    if facts["object_at"] == "place":
        return "without"
    return "take" if facts["needs_object"] else "either"


AT_HOME = (  # both lists share their words, so no single word tells where the object is
    "My {obj} is here at home.",
    "My {obj} has been at home since yesterday.",
    "I brought my {obj} home from the {place} yesterday.",
)
AT_PLACE = (
    "My {obj} is at the {place} at the moment.",
    "My {obj} has been at the {place} since yesterday.",
    "I left my {obj} at the {place} yesterday and it is still there.",
)


def story(facts: dict[str, Any], obj: str, asides: list[str], variant: int) -> str:
    where = (AT_HOME if facts["object_at"] == "home" else AT_PLACE)[variant].format(
        obj=obj, place=facts["place"]
    )
    hours = (
        f"The {facts['place']}, {facts['distance_m']} m from my home, is open from "
        f"{facts['opens']} to {facts['closes']}"
    )
    if facts["closed_on"] is not None:
        hours += f" every day except {facts['closed_on']}, when it is closed all day"
    today = f"Today is {facts['today']} and it" if facts["today"] is not None else "It"
    return (
        f"{where} Today I want to {facts['errand']} at the {facts['place']}. {hours}. {today} "
        f"is {facts['now']} now. {' '.join(asides)}"
    )


BUILD = {"errand": errand}


def _prove_errand(row: dict[str, Any]) -> None:
    """Re-decide from the stored facts with a day timeline, then check the option's plan."""
    m = row["meta"]
    open_minutes = set(range(minutes(m["opens"]), minutes(m["closes"])))
    closed_today = m["today"] is not None and m["today"] == m["closed_on"]
    still_open = not closed_today and any(t >= minutes(m["now"]) for t in open_minutes)
    options = OBJECTS[m["object"]][0]
    if not still_open:
        expected = options[3]
    elif m["object_at"] != "home":
        expected = options[1]
    else:
        expected = options[0] if m["needs_object"] else options[2]
    assert plan.gold_text(row) == expected, (row["id"], expected)
    assert sorted(row["choices"]) == sorted(options), row["id"]


PROVE = {"errand": _prove_errand}
