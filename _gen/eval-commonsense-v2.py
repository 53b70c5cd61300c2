# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-commonsense-v2: traps that pattern-matching falls into (spec 001, the -v2 wave).

Four categories, each template with its mechanical proof:

* goal_tracking - short errands where the object that needs the service must itself travel
  (or is already at the destination). The generator records ``needs_object_there`` and
  ``object_at``; the answer is *take the object* iff it is needed there and is not there yet.
  Short distances and "I enjoy walking" asides tempt the wrong answer.
* altered_riddles - well-known riddles with the numbers or one condition changed, so the
  memorised answer is wrong; every answer is recomputed from the stored parameters by
  enumeration (Monty Hall variants over every car position and host choice, socks by the worst
  draw order, and the overtaking place by moving runners in a list).
* false_premises - a short text establishes the facts (an exhaustive list, a cancelled event);
  the question either asks about something the text contains (answer looked up) or presupposes
  something the text rules out (answer: the false-premise option, which every row offers).
* literal_text - letter, word and vowel counts, alphabetical order, reversal, n-th letter, all
  computed from the quoted string; tests re-parse the quote from the prompt and recount.
"""

from __future__ import annotations

import itertools
import random
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, v2
from families.commonsense.literal import WORDS
from families.commonsense.names import GIRLS, NAMES
from families.commonsense.premises import FALSE_PREMISE, PET_NAMES, PETS

DATASET_ID = "eval-commonsense-v2"
KIND = "eval"
DESCRIPTION = (
    "Commonsense traps with mechanically derived answers: goal-tracking errands, altered classic "
    "riddles, false premises (with controls) and literal-text questions; mixes mc, exact and "
    "numeric rows."
)
SEED = 2_000_601
COUNT = 120
CREATED = "2026-09-01"
DEFAULT_SCORER = "mc"
CATEGORIES = ("goal_tracking", "altered_riddles", "false_premises", "literal_text")
Item = dict[str, Any]

# ---- goal tracking ----------------------------------------------------------------------------
# (place, errand with {d}, object, take-it option, leave-it option, needs_object_there, object_at)
ERRANDS = (
    (
        "car wash",
        "I want to wash my car at the car wash, which is {d} m from my home.",
        "car",
        "Drive there",
        "Walk there",
        True,
        "home",
    ),
    (
        "petrol station",
        "My car's tank is nearly empty and I want to fill it up at the petrol "
        "station {d} m down the road.",
        "car",
        "Drive there",
        "Walk there",
        True,
        "home",
    ),
    (
        "tyre shop",
        "I want new tyres fitted to my car at the tyre shop {d} m from my flat.",
        "car",
        "Drive there",
        "Walk there",
        True,
        "home",
    ),
    (
        "test centre",
        "My car is due for its safety inspection at the test centre {d} m away.",
        "car",
        "Drive there",
        "Walk there",
        True,
        "home",
    ),
    (
        "garage",
        "My car has been repaired at the garage {d} m from my home and is ready to be "
        "collected. It is my only car and I want to bring it home.",
        "car",
        "Drive there",
        "Walk there",
        True,
        "destination",
    ),
    (
        "supermarket",
        "Yesterday I drove to the supermarket {d} m away, left my car in its car park "
        "and walked home. It is my only car and now I want to bring it home.",
        "car",
        "Drive there",
        "Walk there",
        True,
        "destination",
    ),
    (
        "bike shop",
        "I want the bike shop {d} m away to adjust the gears on my bicycle.",
        "bicycle",
        "Take the bicycle there",
        "Go there without the bicycle",
        True,
        "home",
    ),
    (
        "dog groomer",
        "I want my dog's coat trimmed at the grooming salon {d} m from my house.",
        "dog",
        "Take the dog with me",
        "Go there without the dog",
        True,
        "home",
    ),
    (
        "watch repairer",
        "The battery of my wristwatch is flat and the watch repairer {d} m away "
        "replaces batteries while you wait.",
        "watch",
        "Take the watch with me",
        "Go there without the watch",
        True,
        "home",
    ),
)
ASIDES = (
    "The weather is lovely and I enjoy walking.",
    "Parking near there is a little awkward.",
    "I could do with the exercise.",
    "My neighbour says the walk only takes a minute.",
)


def goal_tracking(rng: random.Random, level: int, variant: int) -> Item:
    place, errand, obj, take, leave, needed, where = rng.choice(ERRANDS)
    d = rng.randrange(20, 260, 5)
    asides = rng.sample(ASIDES, level)
    must_take = needed and where == "home"  # needed there and not there yet: it must travel
    correct = take if must_take else leave
    wrong = [leave if must_take else take, "Either works equally well for this errand"]
    if level == 2:
        wrong.append("Postpone it: the distance is too short to be worth the trip")
    text = " ".join([errand.format(d=d), *asides])
    question = f"{text} What should I do to get this done?"
    meta: dict[str, Any] = {
        "kind": "errand",
        "object": obj,
        "needs_object_there": needed,
        "object_at": where,
        "take_option": take,
        "leave_option": leave,
        "distance_m": d,
        "place": place,
    }
    return {
        "question": question,
        "scorer": "mc",
        "correct": correct,
        "distractors": wrong,
        "meta": meta,
    }


# ---- altered riddles --------------------------------------------------------------------------
PAIRS = (
    ("bat", "ball"),
    ("racket", "shuttlecock"),
    ("pen", "cap"),
    ("kite", "string"),
    ("teapot", "lid"),
    ("lamp", "bulb"),
)


def monty(doors: int, opened: int, host_knows: bool, transparent: bool) -> Fraction:
    """P(winning by switching to one random other closed door), by enumerating every car
    position and every host choice, conditioned on the host revealing only goats."""
    win = total = Fraction(0)
    for car in range(doors):  # the player always picks door 0
        others = list(range(1, doors))
        if transparent and car != 0:
            continue  # the player can see the car is behind the chosen door
        choices = [
            c for c in itertools.combinations(others, opened) if not host_knows or car not in c
        ]
        for shown in choices:
            p = Fraction(1, doors) / len(choices)
            if car in shown:
                continue  # the host revealed the car: not the situation described
            rest = [d for d in others if d not in shown]
            total += p
            win += p * Fraction(sum(d == car for d in rest), len(rest))
    return win / total


def altered_riddles(rng: random.Random, level: int, variant: int) -> Item:
    kind = (
        ("bat_ball", "sisters", "pills"),
        ("lily", "widgets", "socks"),
        ("monty", "overtake", "scale"),
    )[variant][level]
    who = rng.choice(NAMES)
    if kind == "bat_ball":
        big, small = rng.choice(PAIRS)
        if rng.random() < 0.5:
            total, diff = rng.randrange(120, 400, 10), rng.randrange(50, 110, 10)
            if (total - diff) % 2 or total <= diff:
                total += 10
            q = (
                f"A {big} and a {small} cost {total} cents in total. The {big} costs {diff} cents "
                f"more than the {small}. How many cents does the {small} cost?"
            )
            meta: dict[str, Any] = {
                "kind": "bat_ball",
                "form": "difference",
                "total": total,
                "diff": diff,
            }
            return {
                "question": q,
                "scorer": "numeric",
                "answer": str((total - diff) // 2),
                "meta": meta,
            }
        price, less = rng.randrange(80, 200, 5), rng.randrange(5, 40, 5)
        q = (
            f"A {big} costs {price} cents. A {small} costs {less} cents less than the {big}. How "
            f"many cents do the {big} and the {small} cost together?"
        )
        meta = {"kind": "bat_ball", "form": "less", "price": price, "less": less}
        return {"question": q, "scorer": "numeric", "answer": str(2 * price - less), "meta": meta}
    if kind == "sisters":
        who = rng.choice(GIRLS)
        brothers, sisters = rng.randint(2, 6), rng.randint(2, 5)
        if rng.random() < 0.5:
            q = (
                f"{who} is a girl with {brothers} brothers. Each of her brothers has {sisters} "
                f"sisters. How many sisters does {who} have?"
            )
            meta = {
                "kind": "sisters",
                "form": "her_sisters",
                "brothers": brothers,
                "each_has_sisters": sisters,
            }
            count = sisters - 1
        else:
            q = (
                f"{who} is a girl. Each of her brothers has {sisters} sisters and "
                f"{brothers - 1} brother{'s' if brothers != 2 else ''}. How many children are "
                f"there in the family?"
            )
            meta = {
                "kind": "sisters",
                "form": "children",
                "brothers": brothers,
                "each_has_sisters": sisters,
            }
            count = sisters + brothers
        return {"question": q, "scorer": "numeric", "answer": str(count), "meta": meta}
    if kind == "pills":
        n, gap = rng.randint(3, 12), rng.choice((15, 20, 30, 45, 60, 90))
        q = (
            f"A nurse gives {who} {n} tablets and says to take one now and then one every {gap} "
            f"minutes until they are gone. How many minutes after the first tablet is the last "
            f"one taken?"
        )
        meta = {"kind": "pills", "tablets": n, "gap": gap}
        return {"question": q, "scorer": "numeric", "answer": str((n - 1) * gap), "meta": meta}
    if kind == "lily":
        factor, day, power = rng.choice((2, 3)), rng.randint(20, 60), rng.randint(1, 3)
        part = {2: "half", 3: "a third"}[factor] if power == 1 else f"1/{factor**power}"
        q = (
            f"A patch of weed on a pond grows so that its area is multiplied by {factor} every "
            f"day. It covers the whole pond on day {day}. On which day did it cover {part} of "
            f"the pond?"
        )
        meta = {"kind": "lily", "factor": factor, "full_day": day, "power": power}
        return {"question": q, "scorer": "numeric", "answer": str(day - power), "meta": meta}
    if kind == "widgets":
        m1, t1, w1 = rng.randint(2, 9), rng.randint(2, 12), rng.randint(2, 9)
        m2, w2 = m1 * rng.randint(2, 6), w1 * rng.randint(2, 12)
        value = Fraction(t1 * w2 * m1, w1 * m2)
        q = (
            f"{m1} machines take {t1} minutes to make {w1} widgets, all machines working at the "
            f"same steady rate. How many minutes would {m2} machines take to make {w2} widgets?"
        )
        meta = {"kind": "widgets", "m": [m1, m2], "t1": t1, "w": [w1, w2]}
        return {
            "question": q + " Give an exact value.",
            "scorer": "numeric",
            "answer": v2.fmt_fraction(value),
            "meta": meta,
        }
    if kind == "socks":
        colours = rng.sample(("red", "blue", "green", "black", "white"), rng.randint(2, 3))
        counts = [rng.randint(3, 12) for _ in colours]
        target = rng.choice(colours)
        need = rng.choice((2, 3))
        stock = ", ".join(f"{c} {col}" for c, col in zip(counts, colours, strict=True))
        q = (
            f"A drawer holds {stock} socks, all mixed up. In the dark, how many socks must "
            f"{who} take out to be certain of having at least {need} {target} socks?"
        )
        meta = {
            "kind": "socks",
            "colours": colours,
            "counts": counts,
            "target": target,
            "need": need,
        }
        others = sum(c for c, col in zip(counts, colours, strict=True) if col != target)
        if counts[colours.index(target)] < need:
            return altered_riddles(rng, level, variant)
        return {"question": q, "scorer": "numeric", "answer": str(others + need), "meta": meta}
    if kind == "monty":
        doors = rng.choice((3, 4, 5))
        form = rng.choice(("ignorant", "many", "transparent"))
        opened = 1 if form != "many" else rng.randint(1, doors - 2)
        setting = {
            "ignorant": (
                f"The host does not know where the car is and opens {opened} of the other "
                f"doors at random; it happens to reveal a goat."
            ),
            "many": (
                f"The host knows where the car is and opens {opened} of the other doors, "
                f"choosing at random among those that hide goats."
            ),
            "transparent": (
                "The doors are made of clear glass, and you can see the car behind "
                "door 1. The host opens 1 of the other doors, which hides a goat."
            ),
        }[form]
        q = (
            f"In a game show there are {doors} closed doors: a car is behind one and goats are "
            f"behind the others. You pick door 1. {setting} You then switch to one of the other "
            f"unopened doors, chosen at random. What is the probability that you win the car?"
        )
        meta = {
            "kind": "monty",
            "doors": doors,
            "opened": opened,
            "host_knows": form != "ignorant",
            "transparent": form == "transparent",
        }
        value = monty(doors, opened, form != "ignorant", form == "transparent")
        wrong = [Fraction(doors - 1, doors), Fraction(1, doors), Fraction(1, 2), Fraction(2, 3)]
        texts = list(dict.fromkeys(v2.fmt_fraction(w) for w in wrong if w != value))[:3]
        return {
            "question": q,
            "scorer": "mc",
            "correct": v2.fmt_fraction(value),
            "distractors": texts,
            "meta": meta,
        }
    if kind == "overtake":
        place, field = rng.randint(2, 9), rng.randint(10, 30)
        q = (
            f"{who} is running a race with {field} runners and overtakes the runner who is in "
            f"place {place}. Nobody else changes position at that moment. In which place is "
            f"{who} now?"
        )
        meta = {"kind": "overtake", "place": place}
        return {"question": q, "scorer": "numeric", "answer": str(place), "meta": meta}
    heavy, light = rng.sample(("feathers", "steel", "bricks", "cotton wool", "sand"), 2)
    a_kg = Fraction(rng.randint(2, 9), rng.choice((1, 2)))
    b_g = int(a_kg * 1000) + rng.choice((-300, -150, -50, 50, 150, 300))
    q = (
        f"Which weighs more: {v2.fmt_decimal(a_kg, 1).rstrip('0').rstrip('.')} kg of {heavy} or "
        f"{b_g} g of {light}?"
    )
    heavier = heavy if a_kg * 1000 > b_g else light
    options = [f"The {heavy}", f"The {light}", "They weigh the same"]
    meta = {"kind": "scale", "a": [str(a_kg), "kg", heavy], "b": [b_g, "g", light]}
    return {
        "question": q,
        "scorer": "mc",
        "correct": f"The {heavier}",
        "distractors": [o for o in options if o != f"The {heavier}"],
        "meta": meta,
    }


# ---- false premises ---------------------------------------------------------------------------
COLOURS = ("grey", "black", "white", "brown", "ginger", "spotted")
CITIES = ("Lisbon", "Oslo", "Prague", "Vienna", "Dublin", "Athens", "Tallinn", "Seville")


def false_premises(rng: random.Random, level: int, variant: int) -> Item:
    who = rng.choice(NAMES)
    premise_false = (variant + level) % 2 == 0
    if variant == 0:  # an exhaustive list of pets
        (kind, kinds), (other, _) = rng.sample(PETS, 2)
        n = 2 + level
        pets = dict(zip(rng.sample(PET_NAMES, n), rng.sample(COLOURS, n), strict=True))
        listing = ", ".join(f"{p} ({c})" for p, c in pets.items())
        text = f"{who}'s only pets are {n} {kinds}: {listing}."
        if premise_false:
            q, correct = f"What colour is {who}'s {other}?", FALSE_PREMISE
        else:
            name = rng.choice(list(pets))
            q, correct = f"What colour is {name}?", pets[name]
        wrong = [c for c in pets.values() if c != correct][:2] + [
            rng.choice([c for c in COLOURS if c not in pets.values()])
        ]
        meta: dict[str, Any] = {
            "kind": "pets",
            "facts": pets,
            "asked": other if premise_false else name,
        }
    elif variant == 1:  # scores in a game with a closed list of players
        players = rng.sample(NAMES, 3 + level)
        if who in players:
            players.remove(who)
        scores = {p: rng.randint(1, 20) for p in players}
        outsider = rng.choice([p for p in NAMES if p not in players])
        text = (
            ", ".join(f"{p} scored {s}" for p, s in scores.items()) + ". Nobody else took "
            "part in the game."
        )
        a, b = rng.sample(players, 2)
        if premise_false:
            q = f"How many more points did {outsider} score than {b}?"
            correct = FALSE_PREMISE
            wrong = [str(abs(scores[a] - scores[b])), str(scores[b]), str(scores[a])]
        else:
            q = f"How many points did {a} and {b} score together?"
            correct = str(scores[a] + scores[b])
            wrong = [str(abs(scores[a] - scores[b])), str(scores[a] + scores[b] + 1), "0"]
        meta = {
            "kind": "scores",
            "facts": scores,
            "asked": [outsider if premise_false else a, b],
            "question": "difference" if premise_false else "sum",
        }
    else:  # travel history: the text rules a trip in or out
        visited = rng.sample(CITIES, 2 + level)
        never = rng.choice([c for c in CITIES if c not in visited])
        nights = {c: rng.randint(2, 9) for c in visited}
        text = (
            f"{who} has travelled abroad only {len(visited)} times: "
            + ", ".join(f"{nights[c]} nights in {c}" for c in visited)
            + f". {who} has never been to {never}."
        )
        city = never if premise_false else rng.choice(visited)
        q = f"How many nights did {who} spend in {city}?"
        correct = FALSE_PREMISE if premise_false else str(nights[city])
        wrong = list(
            dict.fromkeys(
                str(n) for n in [*nights.values(), rng.randint(2, 9) + 10] if str(n) != correct
            )
        )[:3]
        meta = {"kind": "trips", "facts": nights, "asked": city}
    distractors = [w for w in dict.fromkeys(wrong) if w != correct][:3]
    if correct != FALSE_PREMISE:
        distractors = [*distractors[:2], FALSE_PREMISE]
    if len(set(distractors)) < 3:
        return false_premises(rng, level, variant)
    return {
        "question": f"{text}\n\n{q}",
        "scorer": "mc",
        "correct": correct,
        "distractors": distractors,
        "meta": meta,
    }


# ---- literal text -----------------------------------------------------------------------------


def literal_text(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:  # counting, scored numeric
        words = rng.sample(WORDS, 2 + 2 * level)
        phrase = " ".join(words)
        if level < 2:
            letters = [ch for ch in sorted(set(phrase) - {" "}) if phrase.count(ch) >= 2]
            letter = rng.choice(letters)
            q = f'How many times does the letter "{letter}" appear in the text "{phrase}"?'
            meta: dict[str, Any] = {"kind": "letter_count", "text": phrase, "letter": letter}
            value = phrase.count(letter)
        else:
            q = (
                f'How many vowels (a, e, i, o, u) are there in the text "{phrase}"? Count every '
                f"occurrence."
            )
            meta = {"kind": "vowel_count", "text": phrase}
            value = sum(phrase.count(v) for v in "aeiou")
        return {"question": q, "scorer": "numeric", "answer": str(value), "meta": meta}
    if variant == 1:  # transformations, scored exact
        if level == 0:
            word = rng.choice([w for w in WORDS if len(w) >= 6])
            q = f'Write the word "{word}" with its letters in reverse order.'
            meta = {"kind": "reverse", "text": word}
            answer: Any = word[::-1]
        elif level == 1:
            word = rng.choice([w for w in WORDS if len(w) >= 7])
            k = rng.randint(3, len(word))
            q = f'What is letter number {k} (counting from 1) of the word "{word}"?'
            meta = {"kind": "nth_letter", "text": word, "index": k}
            answer = word[k - 1]
        else:
            stem = rng.choice(("ca", "ba", "co", "pa", "ma", "st", "bu", "pe"))
            close = [w for w in WORDS if w.startswith(stem[0])]
            words = rng.sample(close, min(len(close), 6))
            if len(words) < 4:
                return literal_text(rng, level, variant)
            q = (
                f"Sort these words into alphabetical order: {', '.join(words)}. Give them "
                f"separated by commas."
            )
            meta = {"kind": "sort", "words": words}
            ordered = sorted(words)
            answer = [", ".join(ordered), ",".join(ordered), " ".join(ordered)]
        return {"question": q, "scorer": "exact", "answer": answer, "meta": meta}
    words = rng.sample(WORDS, 4)
    if level == 0:
        q = "Which of these words comes first in alphabetical order?"
        meta = {"kind": "first_alpha", "words": words}
        correct = min(words)
    elif level == 1:
        letter = rng.choice("aeinorst")
        counts = [w.count(letter) for w in words]
        if counts.count(max(counts)) > 1:
            return literal_text(rng, level, variant)
        q = f'Which of these words contains the letter "{letter}" the most times?'
        meta = {"kind": "most_letter", "words": words, "letter": letter}
        correct = words[counts.index(max(counts))]
    else:
        lengths = [len(w) for w in words]
        if lengths.count(max(lengths)) > 1:
            return literal_text(rng, level, variant)
        q = "Which of these words has the most letters?"
        meta = {"kind": "longest_word", "words": words}
        correct = words[lengths.index(max(lengths))]
    return {
        "question": q,
        "scorer": "mc",
        "correct": correct,
        "distractors": [w for w in words if w != correct],
        "meta": meta,
    }


# ---- rows and proofs --------------------------------------------------------------------------
BUILDERS = {
    "goal_tracking": goal_tracking,
    "altered_riddles": altered_riddles,
    "false_premises": false_premises,
    "literal_text": literal_text,
}


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: category cycles fastest, then difficulty, then the template."""
    category, level, variant = v2.cell(idx, CATEGORIES)
    item = BUILDERS[category](rng, level, variant)
    return v2.item_row(
        rng, f"cs2-{idx + 1:04d}", category, level, item, v2.plain_suffix("the answer")
    )


def _monty_by_worlds(meta: dict[str, Any]) -> Fraction:
    """Switching odds from weighted (car, opened doors, final door) worlds, enumerated flat."""
    n, k = meta["doors"], meta["opened"]
    cars = [0] if meta["transparent"] else list(range(n))
    good = seen = Fraction(0)
    for car in cars:
        legal = [
            s
            for s in itertools.combinations(range(1, n), k)
            if not (meta["host_knows"] or meta["transparent"]) or car not in s
        ]
        for shown in legal:
            finals = [d for d in range(1, n) if d not in shown]
            for final in finals:
                weight = Fraction(1, len(cars) * len(legal) * len(finals))
                if car not in shown:
                    seen += weight
                    good += weight * (final == car)
    return good / seen


def _expected(row: dict[str, Any]) -> str:  # noqa: C901 - one branch per template
    m, kind = row["meta"], row["meta"]["kind"]
    if kind == "errand":
        travels = m["needs_object_there"] and m["object_at"] != "destination"
        return m["take_option"] if travels else m["leave_option"]
    if kind == "bat_ball":
        if m["form"] == "less":
            return str(m["price"] + (m["price"] - m["less"]))
        (small,) = [c for c in range(m["total"] + 1) if c + (c + m["diff"]) == m["total"]]
        return str(small)
    if kind == "sisters":
        girls, boys = m["each_has_sisters"], m["brothers"]  # a brother's sisters are all the girls
        return str(girls - 1 if m["form"] == "her_sisters" else girls + boys)
    if kind == "pills":
        times = [i * m["gap"] for i in range(m["tablets"])]
        return str(times[-1] - times[0])
    if kind == "lily":
        area, day = Fraction(1), m["full_day"]
        while area != Fraction(1, m["factor"] ** m["power"]):
            area, day = area / m["factor"], day - 1
        return str(day)
    if kind == "widgets":
        rate = Fraction(m["w"][0], m["m"][0] * m["t1"])  # widgets per machine-minute
        return v2.fmt_fraction(Fraction(m["w"][1]) / (m["m"][1] * rate))
    if kind == "socks":
        others = sum(
            c for c, col in zip(m["counts"], m["colours"], strict=True) if col != m["target"]
        )
        return str(next(k for k in itertools.count(1) if k - others >= m["need"]))
    if kind == "monty":
        return v2.fmt_fraction(_monty_by_worlds(m))
    if kind == "overtake":
        field = list(range(1, 31))  # runner ids in place order
        me = field[m["place"]]  # the runner just behind place m["place"]
        i = field.index(me)
        field[i - 1], field[i] = field[i], field[i - 1]
        return str(field.index(me) + 1)
    if kind == "scale":
        grams_a = Fraction(m["a"][0]) * 1000
        return f"The {m['a'][2] if grams_a > m['b'][0] else m['b'][2]}"
    if kind == "pets":
        return m["facts"].get(m["asked"], FALSE_PREMISE)
    if kind == "scores":
        a, b = m["asked"]
        if a not in m["facts"] or b not in m["facts"]:
            return FALSE_PREMISE
        return str(m["facts"][a] + m["facts"][b])
    if kind == "trips":
        return str(m["facts"][m["asked"]]) if m["asked"] in m["facts"] else FALSE_PREMISE
    if kind == "letter_count":
        return str(sum(ch == m["letter"] for ch in m["text"]))
    if kind == "vowel_count":
        return str(sum(ch in "aeiou" for ch in m["text"]))
    if kind == "reverse":
        return "".join(reversed(m["text"]))
    if kind == "nth_letter":
        return m["text"][m["index"] - 1]
    if kind == "sort":
        return ", ".join(sorted(m["words"]))
    if kind == "first_alpha":
        return sorted(m["words"])[0]
    if kind == "most_letter":
        return max(m["words"], key=lambda w: w.count(m["letter"]))
    if kind == "longest_word":
        return max(m["words"], key=len)
    raise AssertionError(f"no proof for {kind}")


def prove(row: dict[str, Any]) -> None:
    expected = _expected(row)
    if row["scorer"] == "mc":
        assert v2.check_mc_layout(row) == expected, (row["id"], expected)
        if row["category"] == "false_premises":
            assert FALSE_PREMISE in row["choices"], row["id"]
    elif row["scorer"] == "exact":
        accepted = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
        assert accepted[0] == expected, (row["id"], expected)
    else:
        assert row["answer"] == expected, (row["id"], row["answer"], expected)


def prove_all(rows: list[dict[str, Any]]) -> None:
    v2.check_suite(rows, CATEGORIES)
    premises = [r["answer"] for r in rows if r["category"] == "false_premises"]
    false_rows = sum(
        r["choices"][ord(r["answer"]) - 65] == FALSE_PREMISE
        for r in rows
        if r["category"] == "false_premises"
    )
    assert 0.3 * len(premises) <= false_rows <= 0.7 * len(premises), false_rows  # controls too


def main(argv: list[str] | None = None) -> None:
    lib.run(
        dataset_id=DATASET_ID,
        kind=KIND,
        description=DESCRIPTION,
        generator_file=f"_gen/{Path(__file__).name}",
        seed=SEED,
        count=COUNT,
        default_scorer=DEFAULT_SCORER,
        created=CREATED,
        generate=generate,
        prove=prove,
        prove_all=prove_all,
        argv=argv,
    )


if __name__ == "__main__":
    main()
