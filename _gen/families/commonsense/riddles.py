"""eval-commonsense-v3 altered riddles: well-known puzzles with the numbers or one condition
changed, so the memorised answer is wrong. Each answer is recomputed from the stored parameters
by enumeration or simulation, not by the formula the builder used.

Changes from v2: the overtaking riddle no longer has the place from the prompt as its answer (a
copy-the-number shortcut); the scale riddle weighs three amounts in mixed units with "they all
weigh the same" as a fourth option that is right in a quarter of its rows (its options are listed
in a fixed order, so the planned letter decides which one wins); Monty Hall options draw from one
pool of fractions for every variant, so neither "0" nor the classic 2/3 marks the gold. Forms
that repeat within a level draw from disjoint ranges or ask different questions (the sisters
riddle asks for the children at one level and for her brothers at the next; a striking clock
replaces v2's second bat-and-ball), so even a fresh-seed instance cannot repeat a question.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

from common import mc_plan as plan
from common import v2

from families.commonsense.names import GIRLS, NAMES

FORMS = (
    ("bat_ball", "numeric"),
    ("sisters", "numeric"),
    ("pills", "numeric"),
    ("monty", "mc"),
    ("lily", "numeric"),
    ("widgets", "numeric"),
    ("socks", "numeric"),
    ("scale", "mc"),
    ("overtake", "numeric"),
    ("clock", "numeric"),
    ("scale", "mc"),
)
PAIRS = (("bat", "ball"), ("racket", "shuttlecock"), ("pen", "cap"), ("kite", "string"))
PAIRS += (("teapot", "lid"), ("lamp", "bulb"))
Item = dict[str, Any]


def _numeric(question: str, answer: Any, meta: dict[str, Any]) -> Item:
    return {"question": question, "scorer": "numeric", "answer": str(answer), "meta": meta}


def bat_ball(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    big, small = rng.choice(PAIRS)
    if level != 1:
        diff = rng.randrange(30, 110, 10)
        total = diff + 2 * rng.randrange(15, 150, 5)
        q = (
            f"A {big} and a {small} cost {total} cents in total. The {big} costs {diff} cents "
            f"more than the {small}. How many cents does the {small} cost?"
        )
        meta = {"kind": "bat_ball", "form": "difference", "total": total, "diff": diff}
        return _numeric(q, (total - diff) // 2, meta)
    price, less = rng.randrange(80, 200, 5), rng.randrange(5, 40, 5)
    q = (
        f"A {big} costs {price} cents. A {small} costs {less} cents less than the {big}. How "
        f"many cents do the {big} and the {small} cost together?"
    )
    return _numeric(
        q, 2 * price - less, {"kind": "bat_ball", "form": "less", "price": price, "less": less}
    )


def sisters(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    who = rng.choice(GIRLS)
    brothers, girls = rng.randint(2, 7), rng.randint(2, 6)
    if level == 0:
        q = (
            f"{who} is a girl with {brothers} brothers. Each of her brothers has {girls} sisters. "
            f"How many sisters does {who} have?"
        )
        return _numeric(
            q,
            girls - 1,
            {"kind": "sisters", "form": "her_sisters", "brothers": brothers, "girls": girls},
        )
    head = (
        f"{who} is a girl. Each of her brothers has {girls} sisters and {brothers - 1} "
        f"brother{'s' if brothers != 2 else ''}."
    )
    meta = {"kind": "sisters", "form": "children", "brothers": brothers, "girls": girls}
    if level == 1:
        return _numeric(
            f"{head} How many children are there in the family?", girls + brothers, meta
        )
    if brothers in (girls, brothers - 1):
        return sisters(rng, level, slot, ordinal)  # the answer would be a number in the prompt
    meta["form"] = "her_brothers"
    return _numeric(f"{head} How many brothers does {who} have?", brothers, meta)


def pills(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    n, gap = rng.randint(*((3, 6), (7, 10), (11, 15))[level]), rng.choice((15, 20, 30, 45, 60, 90))
    who = rng.choice(NAMES)
    q = (
        f"A nurse gives {who} {n} tablets and says to take one now and then one every {gap} "
        f"minutes until they are gone. How many minutes after the first tablet is the last one "
        f"taken?"
    )
    return _numeric(q, (n - 1) * gap, {"kind": "pills", "tablets": n, "gap": gap})


def lily(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    factor, day, power = rng.choice((2, 3)), rng.randint(20, 60), level + 1
    part = {2: "half", 3: "a third"}[factor] if power == 1 else f"1/{factor**power}"
    q = (
        f"A patch of weed on a pond grows so that its area is multiplied by {factor} every day. "
        f"It covers the whole pond on day {day}. On which day did it cover {part} of the pond?"
    )
    return _numeric(
        q, day - power, {"kind": "lily", "factor": factor, "full_day": day, "power": power}
    )


def widgets(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    m1, t1, w1 = rng.randint(2, 9), rng.randint(2, 12), rng.randint(2, 9)
    m2, w2 = m1 * rng.randint(2, 6), w1 * rng.randint(2, 12)
    q = (
        f"{m1} machines take {t1} minutes to make {w1} widgets, all machines working at the same "
        f"steady rate. How many minutes would {m2} machines take to make {w2} widgets? Give an "
        f"exact value."
    )
    meta = {"kind": "widgets", "m": [m1, m2], "t1": t1, "w": [w1, w2]}
    return _numeric(q, v2.fmt_fraction(Fraction(t1 * w2 * m1, w1 * m2)), meta)


def socks(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    colours = rng.sample(("red", "blue", "green", "black", "white"), 2 + min(level, 1))
    counts = [rng.randint(3, 12) for _ in colours]
    target, need = rng.choice(colours), 2 + (level == 2)
    stock = ", ".join(f"{c} {col}" for c, col in zip(counts, colours, strict=True))
    who = rng.choice(NAMES)
    q = (
        f"A drawer holds {stock} socks, all mixed up. In the dark, how many socks must {who} take "
        f"out to be certain of having at least {need} {target} socks?"
    )
    others = sum(c for c, col in zip(counts, colours, strict=True) if col != target)
    meta = {"kind": "socks", "colours": colours, "counts": counts, "target": target, "need": need}
    if counts[colours.index(target)] < need:
        return socks(rng, level, slot, ordinal)
    return _numeric(q, others + need, meta)


def overtake(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    who, field = rng.choice(NAMES), rng.randint(12, 40)
    if level == 0:
        q = (
            f"{who} is running a race with {field} runners and overtakes the runner in "
            f"second-to-last place. Nobody else changes position. In which place is {who} now?"
        )
        return _numeric(
            q,
            field - 1,
            {"kind": "overtake", "field": field, "place": field - 1, "passes": 0, "passed_by": 0},
        )
    place, passes = rng.randint(3, field - 4), level - 1
    passed_by = rng.choice([k for k in (1, 2, 3) if k != passes])  # the answer is never `place`
    more = f", then overtakes {passes} more runner" if passes else ""
    runners = f"{passed_by} runners overtake" if passed_by > 1 else "1 runner overtakes"
    q = (
        f"{who} is running a race with {field} runners and overtakes the runner in place "
        f"{place}{more}. Later {runners} {who}. Nobody else changes position. In which place is "
        f"{who} now?"
    )
    meta = {
        "kind": "overtake",
        "field": field,
        "place": place,
        "passes": passes,
        "passed_by": passed_by,
    }
    return _numeric(q, place - passes + passed_by, meta)


def clock(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    """Strikes are evenly spaced, so the time runs over the gaps, not the strikes."""
    gap = rng.randint(2, 6)
    first = rng.randint(*((3, 6), (7, 9), (8, 12))[level])
    second = rng.randint(*((7, 12), (10, 12), (3, 7))[level])  # the hardest asks for fewer
    took = gap * (first - 1)
    q = (
        f"A clock strikes {first} times at {first} o'clock, evenly spaced, and it takes {took} "
        f"seconds from the first strike to the last. How many seconds does it take from the "
        f"first strike to the last at {second} o'clock?"
    )
    if gap * (second - 1) in (first, second, took):
        return clock(rng, level, slot, ordinal)  # the answer would be a number in the prompt
    return _numeric(
        q, gap * (second - 1), {"kind": "clock", "strikes": [first, second], "took": took}
    )


def monty_odds(doors: int, opened: int, host_knows: bool, see_car: bool) -> Fraction:
    """P(win) switching to a random other closed door, given the host showed only goats."""
    win = total = Fraction(0)
    for car in range(doors):  # the player picks door 0
        if see_car and car != 0:
            continue
        others = list(range(1, doors))
        shows = [
            c for c in itertools.combinations(others, opened) if not host_knows or car not in c
        ]
        for shown in shows:
            if car in shown:
                continue
            rest = [d for d in others if d not in shown]
            weight = Fraction(1, len(shows))
            total += weight
            win += weight * Fraction(sum(d == car for d in rest), len(rest))
    return win / total


def monty(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    assert slot is not None
    doors = rng.choice((3, 4, 5))
    form = ("ignorant", "many", "transparent")[level]
    opened = 1 if form != "many" else rng.randint(1, doors - 2)
    setting = {
        "ignorant": (
            f"The host does not know where the car is and opens {opened} of the other doors at "
            f"random; it happens to reveal a goat."
        ),
        "many": (
            f"The host knows where the car is and opens {opened} of the other doors, choosing at "
            f"random among those that hide goats."
        ),
        "transparent": (
            "The doors are made of clear glass, and you can see the car behind door 1. The host "
            "opens 1 of the other doors, which hides a goat."
        ),
    }[form]
    q = (
        f"In a game show there are {doors} closed doors: a car is behind one and goats are behind "
        f"the others. You pick door 1. {setting} You then switch to one of the other unopened "
        f"doors, chosen at random. What is the probability that you win the car?"
    )
    value = monty_odds(doors, opened, form != "ignorant", form == "transparent")
    pool = {Fraction(doors - 1, doors), Fraction(1, doors), Fraction(1, 2), Fraction(2, 3)}
    pool |= {Fraction(1, 3), Fraction(0), Fraction(1, doors - 1), Fraction(doors - 2, doors - 1)}
    wrong = sorted(x for x in pool if x != value)
    options = plan.place(
        rng, v2.fmt_fraction(value), [v2.fmt_fraction(x) for x in rng.sample(wrong, 3)], slot
    )
    meta = {
        "kind": "monty",
        "doors": doors,
        "opened": opened,
        "host_knows": form != "ignorant",
        "transparent": form == "transparent",
    }
    return plan.mc_item(q, options, slot, meta)


STUFF = ("feathers", "steel", "bricks", "cotton wool", "sand", "rice", "apples")


def scale(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item:
    """Options in a fixed order (the three amounts as the question lists them, then "same"), so
    the planned letter decides which is right."""
    assert slot is not None
    names = rng.sample(STUFF, 3)
    base = rng.randrange(1000, 5000, 50)  # grams
    grams = [base] * 3
    if slot < 3:
        for i in range(3):
            if i != slot:
                low, high = ((100, 400), (20, 100), (5, 40))[level]  # subtler when harder
                grams[i] = base - rng.randrange(low, high, 5)
    units = rng.sample(("kg", "g", rng.choice(("kg", "g"))), 3)  # both units in every row
    shown = [_mass_text(g, unit) for g, unit in zip(grams, units, strict=True)]
    q = (
        f"Which weighs the most: {shown[0]} of {names[0]}, {shown[1]} of {names[1]} or "
        f"{shown[2]} of {names[2]}?"
    )
    options = [f"The {n}" for n in names] + ["They all weigh the same"]
    meta = {"kind": "scale", "amounts": shown, "stuff": names}
    return plan.mc_item(q, options, slot, meta)


def _mass_text(grams: int, unit: str) -> str:
    if unit == "kg":
        return f"{v2.fmt_decimal(Fraction(grams, 1000), 3).rstrip('0').rstrip('.')} kg"
    return f"{grams} g"


BUILD = {
    "bat_ball": bat_ball,
    "sisters": sisters,
    "pills": pills,
    "monty": monty,
    "lily": lily,
    "widgets": widgets,
    "socks": socks,
    "scale": scale,
    "overtake": overtake,
    "clock": clock,
}


# ---- proofs: enumerate or simulate -----------------------------------------------------------
def _prove_numeric(row: dict[str, Any]) -> None:  # noqa: C901 - one branch per riddle
    m, kind = row["meta"], row["meta"]["kind"]
    if kind == "bat_ball":
        if m["form"] == "less":
            value: Any = m["price"] + (m["price"] - m["less"])
        else:
            (value,) = [c for c in range(m["total"] + 1) if c + (c + m["diff"]) == m["total"]]
    elif kind == "sisters":
        family = ["her"] + ["girl"] * (m["girls"] - 1) + ["boy"] * m["brothers"]
        value = {
            "her_sisters": family.count("girl"),
            "children": len(family),
            "her_brothers": family.count("boy"),
        }[m["form"]]
    elif kind == "pills":
        value = [i * m["gap"] for i in range(m["tablets"])][-1]
    elif kind == "lily":
        area, value = Fraction(1), m["full_day"]
        while area != Fraction(1, m["factor"] ** m["power"]):
            area, value = area / m["factor"], value - 1
    elif kind == "widgets":
        rate = Fraction(m["w"][0], m["m"][0] * m["t1"])  # widgets per machine-minute
        value = v2.fmt_fraction(Fraction(m["w"][1]) / (m["m"][1] * rate))
    elif kind == "socks":  # the unluckiest order: every other colour first
        drawer = sorted(
            (col for c, col in zip(m["counts"], m["colours"], strict=True) for _ in range(c)),
            key=lambda col: col == m["target"],
        )
        value = next(
            i for i in range(1, len(drawer) + 1) if drawer[:i].count(m["target"]) == m["need"]
        )
    elif kind == "clock":  # lay the strikes out on a time line
        first, second = m["strikes"]
        step = Fraction(m["took"], first - 1)
        times = [i * step for i in range(second)]
        value = times[-1] - times[0]
    else:  # overtake: move runners in a list
        order = list(range(m["field"]))
        me = order.pop(m["place"])  # just behind place ``place``
        order.insert(m["place"] - 1, me)
        for _ in range(m["passes"]):
            i = order.index(me)
            order[i - 1], order[i] = order[i], order[i - 1]
        for _ in range(m["passed_by"]):
            i = order.index(me)
            order[i], order[i + 1] = order[i + 1], order[i]
        value = order.index(me) + 1
    assert row["answer"] == str(value), (row["id"], value)


def _prove_monty(row: dict[str, Any]) -> None:
    m = row["meta"]
    n, k = m["doors"], m["opened"]
    cars = [0] if m["transparent"] else list(range(n))
    good = seen = Fraction(0)
    for car in cars:  # weighted worlds: car, opened doors, final door
        legal = [
            s
            for s in itertools.combinations(range(1, n), k)
            if not (m["host_knows"] or m["transparent"]) or car not in s
        ]
        for shown in legal:
            finals = [d for d in range(1, n) if d not in shown]
            for final in finals:
                weight = Fraction(1, len(cars) * len(legal) * len(finals))
                if car not in shown:
                    seen += weight
                    good += weight * (final == car)
    assert plan.gold_text(row) == v2.fmt_fraction(good / seen), row["id"]


def _prove_scale(row: dict[str, Any]) -> None:
    m = row["meta"]
    grams = [float(a.split()[0]) * (1000 if a.endswith("kg") else 1) for a in m["amounts"]]
    heaviest = [i for i, g in enumerate(grams) if g == max(grams)]
    expected = "They all weigh the same" if len(heaviest) == 3 else f"The {m['stuff'][heaviest[0]]}"
    assert len(heaviest) in (1, 3), row["id"]
    assert plan.gold_text(row) == expected, row["id"]


PROVE = {
    **{
        k: _prove_numeric
        for k in ("bat_ball", "sisters", "pills", "lily", "widgets", "socks", "overtake", "clock")
    },
    "monty": _prove_monty,
    "scale": _prove_scale,
}
