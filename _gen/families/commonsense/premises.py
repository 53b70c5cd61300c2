"""eval-commonsense-v3 false premises: a short text lists the facts exhaustively (someone's only
pets, everyone who played, every trip abroad), and the question asks either about something the
list contains or, in the same words, about something it rules out.

What v2 gave away and v3 does not: the false-premise option was right in 17 of 30 rows (the most
frequent and the longest option); here it is right in exactly one row in four, the chance of a
four-option row (the row's position decides). Controls and false-premise rows ask the same form
of question ("What colour is Aiko's cat Tom?" whether or not Tom is one of Aiko's cats), and the
other three options are always values the text lists or near misses built from them (other pets'
colours, other pairs' sums, other trips' nights), so no option is implausible on its face.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

from common import mc_plan as plan

from families.commonsense.names import GIRLS, NAMES

FORMS = (("premise", "mc"),)
FALSE_PREMISE = "The question rests on a false premise"
PETS = (("cat", "cats"), ("dog", "dogs"), ("rabbit", "rabbits"), ("parrot", "parrots"))
PET_NAMES = ("Tom", "Leo", "Max", "Pip", "Olive", "Ziggy", "Biscuit", "Juno", "Pepper", "Milo")
COLOURS = ("grey", "black", "white", "brown", "ginger", "spotted", "golden", "striped")
CITIES = ("Lisbon", "Oslo", "Prague", "Vienna", "Dublin", "Athens", "Tallinn", "Seville", "Riga")
KINDS = ("pets", "scores", "trips")


def premise(rng: random.Random, level: int, slot: int | None, ordinal: int) -> dict[str, Any]:
    """Row ``ordinal`` of the category: a false premise when ``ordinal % 4 == 0``."""
    assert slot is not None
    false = ordinal % 4 == 0
    kind = KINDS[(ordinal // 4) % len(KINDS)]
    text, question, values, gold, meta = {"pets": pets, "scores": scores, "trips": trips}[kind](
        rng, level, false
    )
    correct = FALSE_PREMISE if false else gold
    distractors = [v for v in values if v != correct][:3]
    if not false:
        distractors = [*distractors[:2], FALSE_PREMISE]
    options = plan.place(rng, correct, distractors, slot)
    return plan.mc_item(f"{text}\n\n{question}", options, slot, meta)


def pets(rng: random.Random, level: int, false: bool) -> tuple[str, str, list[str], str, Any]:
    who = rng.choice(NAMES)
    (kind, kinds), (other, _) = rng.sample(PETS, 2)
    n = 3 + level
    names = rng.sample(PET_NAMES, n + 1)
    owned = dict(zip(names[:n], rng.sample(COLOURS, n), strict=True))
    listing = ", ".join(f"{p} ({c})" for p, c in owned.items())
    text = f"{who}'s only pets are {n} {kinds}: {listing}."
    name = rng.choice(names[:n])
    if false and rng.random() < 0.5:
        asked_kind, asked_name = other, name  # a listed name, but not that kind of animal
    else:
        asked_kind, asked_name = kind, names[n] if false else name
    question = f"What colour is {who}'s {asked_kind} {asked_name}?"
    values = [owned[name], *rng.sample([c for p, c in owned.items() if p != name], 2)]
    meta = {"kind": "pets", "owner": who, "animal": kind, "facts": owned}
    meta["asked"] = [asked_kind, asked_name]
    return text, question, values, owned[name], meta


def scores(rng: random.Random, level: int, false: bool) -> tuple[str, str, list[str], str, Any]:
    while True:
        players = rng.sample(NAMES, 3 + level + 1)
        outsider, players = players[-1], players[:-1]
        points = {p: rng.randint(3, 30) for p in players}
        sums = {
            pair: points[pair[0]] + points[pair[1]] for pair in itertools.combinations(players, 2)
        }
        if len(set(sums.values())) == len(sums):
            break
    text = ", ".join(f"{p} scored {s}" for p, s in points.items()) + ". Nobody else took part."
    a, b = rng.sample(players, 2)
    asked = [a, outsider] if false else [a, b]
    rng.shuffle(asked)
    question = f"How many points did {asked[0]} and {asked[1]} score together?"
    gold = str(points[a] + points[b])
    near = [str(v) for v in sums.values() if str(v) != gold]  # other pairs' totals
    values = [gold, *rng.sample(near, min(len(near), 3))]
    meta = {"kind": "scores", "facts": points, "asked": asked}
    return text, question, values, gold, meta


def trips(rng: random.Random, level: int, false: bool) -> tuple[str, str, list[str], str, Any]:
    who = rng.choice(GIRLS)
    cities = rng.sample(CITIES, 3 + level + 1)
    visited, elsewhere = cities[:-1], cities[-1]
    nights = dict(zip(visited, rng.sample(range(2, 15), len(visited)), strict=True))
    text = (
        f"{who} has been abroad only {len(visited)} times: "
        + ", ".join(f"{nights[c]} nights in {c}" for c in visited)
        + "."
    )
    city = rng.choice(visited)
    asked = elsewhere if false else city
    question = f"How many nights did {who} spend in {asked}?"
    values = [str(nights[city]), *rng.sample([str(v) for c, v in nights.items() if c != city], 2)]
    meta = {"kind": "trips", "traveller": who, "facts": nights, "asked": asked}
    return text, question, values, str(nights[city]), meta


BUILD = {"premise": premise}


def _prove_premise(row: dict[str, Any]) -> None:
    """Re-read the facts from the prompt text and answer the question from them."""
    m = row["meta"]
    text, question = row["prompt"].split("\n\n")[:2]
    if m["kind"] == "pets":
        head, listing = text.split(": ", 1)
        kinds = head.split()[-1]
        owned = dict(re.findall(r"(\w+) \((\w+)\)", listing))
        asked = re.fullmatch(r"What colour is \w+'s (\w+) (\w+)\?", question)
        assert asked, row["id"]
        real = asked.group(1) + "s" == kinds and asked.group(2) in owned
        expected = owned[asked.group(2)] if real else FALSE_PREMISE
    elif m["kind"] == "scores":
        points = {p: int(s) for p, s in re.findall(r"(\w+) scored (\d+)", text)}
        who = re.fullmatch(r"How many points did (\w+) and (\w+) score together\?", question)
        assert who, row["id"]
        pair = who.groups()
        expected = str(sum(points[p] for p in pair)) if set(pair) <= set(points) else FALSE_PREMISE
    else:
        nights = {c: int(n) for n, c in re.findall(r"(\d+) nights in (\w+)", text)}
        city = re.fullmatch(r"How many nights did \w+ spend in (\w+)\?", question)
        assert city, row["id"]
        expected = str(nights[city.group(1)]) if city.group(1) in nights else FALSE_PREMISE
    assert plan.gold_text(row) == expected, (row["id"], expected)
    assert FALSE_PREMISE in row["choices"], row["id"]


PROVE = {kind: _prove_premise for kind in KINDS}
