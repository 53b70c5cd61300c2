"""Knights-and-knaves family of eval-reasoning-v3: 4-6 islanders, one consistent assignment.

Each islander makes one statement about the others (their kind, how many knights there are,
pairs: same kind, different kinds, at least one knave, if-then, either-or). Statements are drawn
true to the hidden assignment for knights and false for knaves until exactly one of the 2^n
assignments is consistent. The asked fact (the whole assignment, the number of knaves, or one
islander's kind) must not follow from any single statement: "Exactly 0 of us are knights", for
one, proves its speaker a knave on its own. Wrong options are the assignments with as many knights
that contradict the fewest statements, and islanders of the other kind.

Forms: the knights or the knaves (exact), the whole assignment and one islander of the rarer
kind (mc). The proof re-enumerates every assignment with its own statement evaluation (sets of
knights) and repeats the single-statement check.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

CATEGORY = "knights_knaves"
FORMS = ("exact", "mc", "exact", "mc", "exact", "mc", "exact", "mc")
ISLANDERS = ("Ari", "Bela", "Cato", "Dina", "Egon", "Faye", "Gus", "Hedda")
KINDS = ("knight", "knave", "count", "same", "differ", "some_knave", "if_then", "either")
World = dict[str, bool]
Item = dict[str, Any]


def says_true(statement: list[Any], world: World) -> bool:
    kind, args = statement[0], statement[1:]
    if kind == "knight":
        return world[args[0]]
    if kind == "knave":
        return not world[args[0]]
    if kind == "count":
        return sum(world.values()) == args[0]
    x, y = world[args[0]], world[args[1]]
    return {
        "same": x == y,
        "differ": x != y,
        "some_knave": not (x and y),
        "if_then": (not x) or y,
        "either": x or y,
    }[kind]


def render(statement: list[Any]) -> str:
    kind, args = statement[0], statement[1:]
    if kind in ("knight", "knave"):
        return f"{args[0]} is a {kind}."
    if kind == "count":
        k = args[0]
        return f"Exactly {k} of us {'is a knight' if k == 1 else 'are knights'}."
    x, y = args
    return {
        "same": f"{x} and {y} are the same kind.",
        "differ": f"{x} and {y} are different kinds.",
        "some_knave": f"At least one of {x} and {y} is a knave.",
        "if_then": f"If {x} is a knight, then {y} is a knight.",
        "either": f"At least one of {x} and {y} is a knight.",
    }[kind]


def worlds(names: list[str]) -> list[World]:
    return [
        dict(zip(names, bits, strict=True))
        for bits in itertools.product((True, False), repeat=len(names))
    ]


def consistent(speeches: list[list[Any]], world: World) -> bool:
    return all(world[speaker] == says_true(st, world) for speaker, st in speeches)


def forced_by_one(
    speeches: list, names: list[str], fact: Callable[[World], Any], truth: World
) -> bool:
    """Does a single speech, on its own, fix ``fact`` to its true value?"""
    return any(
        all(fact(w) == fact(truth) for w in worlds(names) if consistent([speech], w))
        for speech in speeches
    )


def _speeches(rng: random.Random, names: list[str]) -> tuple[World, list[list[Any]]]:
    n = len(names)
    while True:
        truth = {p: rng.random() < 0.5 for p in names}
        speeches: list[list[Any]] = []
        for speaker in names:
            others = [p for p in names if p != speaker]
            while True:
                kind = rng.choice(KINDS)
                if kind == "count":
                    statement: list[Any] = ["count", rng.randint(0, n)]
                elif kind in ("knight", "knave"):
                    statement = [kind, rng.choice(others)]
                else:
                    statement = [kind, *rng.sample(others, 2)]
                if says_true(statement, truth) == truth[speaker]:
                    break
            speeches.append([speaker, statement])
        if [w for w in worlds(names) if consistent(speeches, w)] == [truth]:
            return truth, speeches


def describe(world: World, names: list[str]) -> str:
    return ", ".join(f"{p} is a {'knight' if world[p] else 'knave'}" for p in names)


def build(rng: random.Random, level: int, form: int) -> Item:
    names = sorted(rng.sample(ISLANDERS, (4, 5, 6)[level]))
    truth, speeches = _speeches(rng, names)
    knights = [p for p in names if truth[p]]
    intro = (
        f"On an island every inhabitant is either a knight, who always tells the truth, or a "
        f"knave, who always lies. You meet {len(names)} inhabitants: {', '.join(names)}.\n\n"
        + "\n".join(f'{s}: "{render(st)}"' for s, st in speeches)
    )
    meta: dict[str, Any] = {
        "kind": "knights",
        "people": names,
        "speeches": speeches,
        "solution": {p: ("knight" if v else "knave") for p, v in truth.items()},
    }
    whole = lambda w: tuple(sorted(w.items()))  # noqa: E731
    if form in (3, 7):  # one islander of the rarer kind among three of the other
        minority = (
            knights
            if len(knights) < len(names) - len(knights)
            else [p for p in names if not truth[p]]
        )
        majority = [p for p in names if p not in minority]
        picks = [
            p for p in minority if not forced_by_one(speeches, names, lambda w, p=p: w[p], truth)
        ]
        if not picks or len(majority) < 3:
            return build(rng, level, form)
        gold = rng.choice(picks)
        kind = "knight" if truth[gold] else "knave"
        meta["asked"] = gold
        return {
            "question": f"{intro}\n\nWhich one of these inhabitants is a {kind}?",
            "scorer": "mc",
            "correct": gold,
            "distractors": rng.sample(majority, 3),
            "meta": meta,
        }
    if forced_by_one(speeches, names, whole, truth):
        return build(rng, level, form)
    if FORMS[form] == "exact":
        kind = "knight" if form in (0, 4) else "knave"
        listed = [p for p in names if truth[p] == (kind == "knight")] or ["none"]
        meta["list"] = kind
        ask = (
            f"Which of them are {kind}s? Give their names in alphabetical order separated by "
            f"commas, or the word none if there are no {kind}s."
        )
        return {
            "question": f"{intro}\n\n{ask}",
            "scorer": "exact",
            "answer": list(dict.fromkeys(j.join(listed) for j in (", ", ",", " "))),
            "meta": meta,
        }
    size = sum(truth.values())  # as many knights as the truth: every option is as long
    near = sorted(
        (sum(w[s] != says_true(st, w) for s, st in speeches), describe(w, names))
        for w in worlds(names)
        if w != truth and sum(w.values()) == size
    )
    if len(near) < 3:
        return build(rng, level, form)
    return {
        "question": f"{intro}\n\nWhich assignment is correct?",
        "scorer": "mc",
        "correct": describe(truth, names),
        "distractors": [d for _, d in near[:3]],
        "meta": meta,
    }


# ---- proof: all assignments, statements evaluated as sets of knights --------------------------
def _holds(statement: list[Any], knights: set[str]) -> bool:
    kind, args = statement[0], statement[1:]
    if kind == "count":
        return len(knights) == args[0]
    if kind in ("knight", "knave"):
        return (args[0] in knights) == (kind == "knight")
    x, y = args[0] in knights, args[1] in knights
    table = {
        "same": x is y,
        "differ": x is not y,
        "some_knave": not x or not y,
        "if_then": y or not x,
        "either": x or y,
    }
    return table[kind]


def prove(row: dict[str, Any]) -> None:
    m, people = row["meta"], row["meta"]["people"]
    subsets = [set(c) for r in range(len(people) + 1) for c in itertools.combinations(people, r)]
    fits = [k for k in subsets if all((s in k) == _holds(st, k) for s, st in m["speeches"])]
    assert len(fits) == 1, (row["id"], fits)
    knights = fits[0]
    assert {p: "knight" if p in knights else "knave" for p in people} == m["solution"]
    asked = m.get("asked")
    fact = (lambda k: frozenset(k)) if asked is None else (lambda k: asked in k)
    for s, st in m["speeches"]:  # no single speech fixes the asked fact
        alone = {fact(k) for k in subsets if (s in k) == _holds(st, k)}
        assert len(alone) > 1, (row["id"], s)
    wanted = knights if m.get("list", "knight") == "knight" else set(people) - knights
    accepted = {
        ", ".join(sorted(wanted)) or "none",
        ", ".join(f"{p} is a {'knight' if p in knights else 'knave'}" for p in people),
    }
    if row["scorer"] == "mc" and "asked" in m:
        kind = "knight" if m["asked"] in knights else "knave"
        assert row["prompt"].count(f"is a {kind}?") == 1, row["id"]
        accepted = {p for p in people if (p in knights) == (kind == "knight")}
    gold = row["answer"] if row["scorer"] != "mc" else row["choices"]["ABCD".index(row["answer"])]
    assert (gold[0] if isinstance(gold, list) else gold) in accepted, (row["id"], gold)
    if row["scorer"] == "mc":
        assert sum(c in accepted for c in row["choices"]) == 1, row["id"]
