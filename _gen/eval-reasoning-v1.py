# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-reasoning-v1: seeded logic puzzles, mixing ``mc`` and ``exact`` rows (spec 001).

Every puzzle is built from a structured description kept in ``meta`` (clues, premises,
statements, dates, region counts) and rendered to text. ``prove`` never trusts the generator's
answer: it re-solves the structure by brute force (all permutations / assignments / Venn models),
by algebra (sequences) or with its own calendar arithmetic, and checks the key, the uniqueness of
the solution and, for ``mc`` rows, that every distractor is provably wrong.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.reasoning.syllogism import TEXT as FORMS
from families.reasoning.syllogism import WORDS as NONSENSE
from families.reasoning.syllogism import region_mask

DATASET_ID = "eval-reasoning-v1"
KIND = "eval"
DESCRIPTION = (
    "Seeded logic puzzles (orderings, logic grids, syllogisms, sequences, calendar arithmetic, "
    "knights and knaves, set counting), every answer re-solved by brute force or algebra."
)
SEED = 1_000_303
COUNT = 140
CREATED = "2026-11-29"
DEFAULT_SCORER = "exact"
# fmt: off
CATEGORIES = ("ordering", "logic_grid", "syllogism", "sequence", "calendar", "knights_knaves",
              "sets")
SCORER_OF = {"ordering": "exact", "logic_grid": "mc", "syllogism": "mc", "sequence": "exact",
             "calendar": "exact", "knights_knaves": "mc", "sets": "exact"}
DIFFICULTIES = ("easy", "medium", "hard")
EXACT_SUFFIX = "\n\nThink it through, then give the final answer on the last line as 'Answer: {f}'."
MC_SUFFIX = ("\n\nThink it through, then give the letter of the correct option on the last line "
             "as 'Answer: <letter>'.")
NAMES = ("Ada", "Bram", "Cleo", "Dev", "Esme", "Femi", "Gus", "Hana", "Ivo", "Juno", "Kai", "Lior",
         "Mira", "Nico", "Odile", "Pia", "Rafi", "Sana", "Theo", "Uma", "Vik", "Wren", "Yuki",
         "Zara")
ORDINALS = ("first", "second", "third", "fourth", "fifth")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
#: logic-grid attributes: (values, positive, negative, reference phrase templates, group label)
ATTRIBUTES = (
    (("cat", "dog", "parrot", "rabbit"), "{s} keeps the {v}", "{s} does not keep the {v}",
     "the person who keeps the {v}", "pets"),
    (("tea", "coffee", "milk", "cocoa"), "{s} drinks {v}", "{s} does not drink {v}",
     "the person who drinks {v}", "drinks"),
    (("flute", "drum", "violin", "harp"), "{s} plays the {v}", "{s} does not play the {v}",
     "the person who plays the {v}", "instruments"),
)
CLUBS = (("the chess club", "the choir", "the rowing team"),
         ("the drama group", "the robotics club", "the hiking club"),
         ("the Latin class", "the pottery class", "the coding class"))
# fmt: on


def _letters(n: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(n)]


def _mc_text(question: str, choices: list[str]) -> str:
    lines = [
        f"{label}. {text}" for label, text in zip(_letters(len(choices)), choices, strict=True)
    ]
    return question + "\n\n" + "\n".join(lines) + MC_SUFFIX


def _minimal(rng: random.Random, pool: list[Any], candidates: list[Any], holds: Callable) -> list:
    """Clues from ``pool`` until one candidate survives, then drop every redundant clue."""
    rng.shuffle(pool)
    chosen, alive = [], candidates
    for clue in pool:
        left = [c for c in alive if holds(clue, c)]
        if len(left) < len(alive):
            chosen.append(clue)
            alive = left
        if len(alive) == 1:
            break
    assert len(alive) == 1
    masks = [sum(1 << i for i, k in enumerate(chosen) if not holds(k, c)) for c in candidates]
    keep = (1 << len(chosen)) - 1
    for i in range(len(chosen)):
        trial = keep & ~(1 << i)
        if sum(1 for m in masks if m & trial == 0) == 1:
            keep = trial
    return [k for i, k in enumerate(chosen) if keep >> i & 1]


# --- ordering ------------------------------------------------------------------------------


def order_holds(clue: list[Any], place: dict[str, int]) -> bool:
    kind, a = clue[0], clue[1]
    if kind == "at":
        return place[a] == clue[2]
    if kind == "not_at":
        return place[a] != clue[2]
    b = clue[2]
    if kind == "before":
        return place[a] < place[b]
    if kind == "right_before":
        return place[a] + 1 == place[b]
    return abs(place[a] - place[b]) > 1  # "apart"


def _place_word(k: int, n: int) -> str:
    return "last" if k == n - 1 else ORDINALS[k]


def _order_text(clue: list[Any], n: int) -> str:
    kind, a, b = clue
    return {
        "at": f"{a} finished {_place_word(b, n) if isinstance(b, int) else b}.",
        "not_at": f"{a} did not finish {_place_word(b, n) if isinstance(b, int) else b}.",
        "before": f"{a} finished ahead of {b}.",
        "right_before": f"{a} finished immediately ahead of {b}.",
        "apart": f"{a} and {b} did not finish next to each other.",
    }[kind]


def _ordering(rng: random.Random, level: int) -> dict[str, Any]:
    n = 3 + level
    names = rng.sample(NAMES, n)
    secret = names[:]
    rng.shuffle(secret)
    place = {name: i for i, name in enumerate(secret)}
    pool: list[list[Any]] = []
    for a, b in itertools.permutations(names, 2):
        if place[a] < place[b]:
            pool.append(["before", a, b])
            pool.append(["right_before", a, b] if place[a] + 1 == place[b] else ["apart", a, b])
    for a in names:
        pool += [["not_at", a, k] for k in range(n) if k != place[a]]
        if level < 2:
            pool.append(["at", a, place[a]])
    candidates = [dict(zip(p, range(n), strict=True)) for p in itertools.permutations(names)]
    clues = _minimal(rng, pool, candidates, order_holds)
    rng.shuffle(clues)
    intro = f"{', '.join(names[:-1])} and {names[-1]} ran a race; there were no ties."
    body = intro + "\n" + "\n".join(f"- {_order_text(c, n)}" for c in clues)
    if level < 2:
        k = rng.randrange(n)
        question = f"Who finished {ORDINALS[k]}?"
        return {
            "prompt": f"{body}\n\n{question}" + EXACT_SUFFIX.format(f="<name>"),
            "answer": secret[k],
            "meta": {"names": names, "clues": clues, "ask": k},
        }
    question = "Give the full finishing order from first to last, names separated by commas."
    return {
        "prompt": f"{body}\n\n{question}" + EXACT_SUFFIX.format(f="<name>, <name>, ..."),
        "answer": [", ".join(secret), ",".join(secret)],
        "meta": {"names": names, "clues": clues, "ask": "order"},
    }


# --- logic grid ----------------------------------------------------------------------------


def grid_holds(clue: list[Any], sol: tuple[tuple[int, ...], ...]) -> bool:
    """``sol[k][i]`` is the value index person ``i`` has for attribute ``k``."""
    if clue[0] == "has":
        return sol[clue[2]][clue[1]] == clue[3]
    if clue[0] == "not":
        return sol[clue[2]][clue[1]] != clue[3]
    same = sol[clue[1]].index(clue[2]) == sol[clue[3]].index(clue[4])
    return same if clue[0] == "same" else not same


def _grid_text(clue: list[Any], names: list[str]) -> str:
    if clue[0] in ("has", "not"):
        values, pos, neg, _, _ = ATTRIBUTES[clue[2]]
        return (pos if clue[0] == "has" else neg).format(s=names[clue[1]], v=values[clue[3]])
    v1, _, _, ref, _ = ATTRIBUTES[clue[1]]
    v2, pos, neg, _, _ = ATTRIBUTES[clue[3]]
    subject = ref.format(v=v1[clue[2]])
    subject = subject[0].upper() + subject[1:]
    return (pos if clue[0] == "same" else neg).format(s=subject, v=v2[clue[4]])


def _logic_grid(rng: random.Random, level: int) -> dict[str, Any]:
    n, k = (3, 2) if level == 0 else (4, 2) if level == 1 else (4, 3)
    attrs = sorted(rng.sample(range(len(ATTRIBUTES)), k))
    names = sorted(rng.sample(NAMES, n))
    secret = tuple(tuple(rng.sample(range(n), n)) for _ in attrs)
    pool: list[list[Any]] = []
    for a, attr in enumerate(attrs):
        for i in range(n):
            pool.append(["has", i, attr, secret[a][i]])
            pool += [["not", i, attr, v] for v in range(n) if v != secret[a][i]]
    for (a1, t1), (a2, t2) in itertools.permutations(list(enumerate(attrs)), 2):
        for i in range(n):
            for j in range(n):
                pool.append(["same" if i == j else "diff", t1, secret[a1][i], t2, secret[a2][j]])
    perms = list(itertools.permutations(range(n)))
    candidates = [dict(zip(attrs, s, strict=True)) for s in itertools.product(perms, repeat=k)]
    clues = _minimal(rng, pool, candidates, grid_holds)
    rng.shuffle(clues)
    listing = "; ".join(f"{ATTRIBUTES[t][4]}: {', '.join(ATTRIBUTES[t][0][:n])}" for t in attrs)
    body = (
        f"{', '.join(names[:-1])} and {names[-1]} each have exactly one item from each of "
        f"these groups, and no two of them share an item ({listing}).\n"
        + "\n".join(f"- {_grid_text(c, names)}." for c in clues)
    )
    attr = rng.choice(attrs)
    a = attrs.index(attr)
    values, pos, _, _, _ = ATTRIBUTES[attr]
    if rng.random() < 0.5:
        value = rng.randrange(n)
        question = "Who " + pos.format(s="", v=values[value]).strip() + "?"
        options, correct, ask = list(names), names[secret[a].index(value)], ["who", attr, value]
    else:
        person = rng.randrange(n)
        question = f"Which of these is true of {names[person]}? {names[person]} ..."
        options = [pos.format(s="", v=values[v]).strip() for v in range(n)]
        correct, ask = options[secret[a][person]], ["what", attr, person]
    rng.shuffle(options)
    return {
        "prompt": _mc_text(f"{body}\n\n{question}", options),
        "answer": _letters(n)[options.index(correct)],
        "choices": options,
        "meta": {"names": names, "n": n, "attributes": attrs, "clues": clues, "ask": ask},
    }


# --- syllogisms over Venn models ------------------------------------------------------------


def venn_models(k: int) -> list[int]:
    """Every model over ``k`` terms: a bit per non-empty region (region ``r`` is bit ``r - 1``)."""
    return list(range(1 << ((1 << k) - 1)))


def venn_true(stmt: list[Any], model: int, k: int) -> bool:
    form, x, y = stmt
    if form in "AO":
        empty = model & region_mask(k, (x,), (y,)) == 0
        return empty if form == "A" else not empty
    empty = model & region_mask(k, (x, y)) == 0
    return empty if form == "E" else not empty


def _canon(stmt: list[Any]) -> tuple[Any, ...]:
    form, x, y = stmt
    return (form, min(x, y), max(x, y)) if form in "EI" else (form, x, y)


def _syllogism(rng: random.Random, level: int) -> dict[str, Any]:
    k = 3 if level < 2 else 4
    terms = rng.sample(NONSENSE, k)
    while True:
        order = rng.sample(range(k), k)
        premises = [
            [rng.choice("AEIO"), *rng.sample([order[i], order[i + 1]], 2)] for i in range(k - 1)
        ]
        linked = {tuple(sorted(p[1:])) for p in premises}
        cands = [
            [f, x, y]
            for f in "AEIO"
            for x in range(k)
            for y in range(k)
            if x != y and tuple(sorted((x, y))) not in linked
        ]
        models = [m for m in venn_models(k) if all(venn_true(p, m, k) for p in premises)]
        nonempty = [m for m in models if all(m & region_mask(k, (t,)) for t in range(k))]
        if not nonempty:
            continue
        entailed = [c for c in cands if all(venn_true(c, m, k) for m in models)]
        wrong = [c for c in cands if not all(venn_true(c, m, k) for m in nonempty)]
        distinct: dict[tuple[Any, ...], list[Any]] = {}
        for c in wrong:
            distinct.setdefault(_canon(c), c)
        if entailed and len(distinct) >= 3:
            break
    correct = rng.choice(entailed)
    distractors = rng.sample(list(distinct.values()), 3)
    stmts = [correct, *distractors]
    rng.shuffle(stmts)
    render = [FORMS[f].format(x=terms[x], y=terms[y]) for f, x, y in stmts]
    body = (
        "Assume the following statements are all true (the words are made up, so use only "
        "the statements):\n"
        + "\n".join(
            f"{i + 1}. {FORMS[f].format(x=terms[x], y=terms[y])}"
            for i, (f, x, y) in enumerate(premises)
        )
        + "\n\nWhich of the following must then also be true?"
    )
    return {
        "prompt": _mc_text(body, render),
        "answer": _letters(4)[stmts.index(correct)],
        "choices": render,
        "meta": {"terms": terms, "premises": premises, "options": stmts},
    }


# --- sequences -----------------------------------------------------------------------------

RULES = {
    "arithmetic": "Each term is the previous term plus the same fixed integer.",
    "affine": "Each term is p times the previous term plus q, for fixed integers p and q.",
    "recurrence2": "From the third term on, each term is a times the previous term plus b times "
    "the term before that, for fixed integers a and b.",
    "quadratic": "The n-th term (n = 1, 2, 3, ...) is a polynomial in n of degree at most 2.",
}


def solve_sequence(family: str, shown: list[int], index: int) -> Fraction | None:
    """Term ``index`` (1-based) implied by ``shown`` under the family's rule, solved by algebra;
    None when the shown terms do not pin the rule's parameters down."""
    x = [Fraction(v) for v in shown]
    if family == "quadratic":  # Lagrange interpolation through the first three points
        pts = [(Fraction(i + 1), x[i]) for i in range(3)]

        def poly(t: Fraction) -> Fraction:
            total = Fraction(0)
            for i, (xi, yi) in enumerate(pts):
                term = yi
                for j, (xj, _) in enumerate(pts):
                    if j != i:
                        term *= (t - xj) / (xi - xj)
                total += term
            return total

        ok = all(poly(Fraction(i + 1)) == x[i] for i in range(len(x)))
        return poly(Fraction(index)) if ok else None
    if family == "arithmetic":
        d = x[1] - x[0]
        ok = all(x[i + 1] - x[i] == d for i in range(len(x) - 1))
        return x[-1] + d if ok and index == len(x) + 1 else None
    if family == "affine":
        if x[1] == x[0]:
            return None
        p = (x[2] - x[1]) / (x[1] - x[0])
        q = x[1] - p * x[0]
        ok = p.denominator == q.denominator == 1
        ok = ok and all(x[i + 1] == p * x[i] + q for i in range(len(x) - 1))
        return p * x[-1] + q if ok and index == len(x) + 1 else None
    det = x[1] * x[1] - x[2] * x[0]  # x3 = a*x2 + b*x1, x4 = a*x3 + b*x2
    if det == 0:
        return None
    a = (x[2] * x[1] - x[3] * x[0]) / det
    b = (x[3] * x[1] - x[2] * x[2]) / det
    ok = a.denominator == b.denominator == 1
    ok = ok and all(x[i + 2] == a * x[i + 1] + b * x[i] for i in range(len(x) - 2))
    return a * x[-1] + b * x[-2] if ok and index == len(x) + 1 else None


def _sequence(rng: random.Random, level: int) -> dict[str, Any]:
    family = ("arithmetic", "affine", rng.choice(("recurrence2", "quadratic")))[level]
    while True:
        if family == "arithmetic":
            x, d = rng.randint(-20, 60), rng.choice([v for v in range(-13, 16) if v])
            terms = [x + d * i for i in range(7)]
        elif family == "affine":
            p, q = rng.choice((2, 3, -2, -3)), rng.randint(-9, 9)
            terms = [rng.randint(-6, 9)]
            while len(terms) < 7:
                terms.append(p * terms[-1] + q)
        elif family == "recurrence2":
            a, b = rng.choice((-2, -1, 1, 2, 3)), rng.choice((-2, -1, 1, 2))
            terms = [rng.randint(-4, 7), rng.randint(-4, 7)]
            while len(terms) < 8:
                terms.append(a * terms[-1] + b * terms[-2])
        else:
            al, be = rng.choice((-3, -2, -1, 1, 2, 3, 4)), rng.randint(-9, 9)
            ga = rng.randint(-20, 20)
            terms = [al * n * n + be * n + ga for n in range(1, 10)]
        shown = terms[:5] if family == "quadratic" else terms[:-1]
        index = len(terms) if family == "quadratic" else len(shown) + 1
        if len(set(shown)) >= 3 and solve_sequence(family, shown, index) is not None:
            break
    which = f"the term for n = {index}" if family == "quadratic" else "the next term"
    text = (
        f"A sequence begins {', '.join(map(str, shown))}. {RULES[family]} What is {which}?"
        + EXACT_SUFFIX.format(f="<integer>")
    )
    return {
        "prompt": text,
        "answer": str(terms[index - 1]),
        "meta": {"family": family, "shown": shown, "index": index},
    }


# --- calendar ------------------------------------------------------------------------------


def _long(d: dt.date) -> str:
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def _calendar(rng: random.Random, level: int) -> dict[str, Any]:
    anchor = dt.date(1950, 1, 1) + dt.timedelta(days=rng.randrange(0, 150 * 365))
    if level < 2:
        span = rng.randint(2, 27) if level == 0 else rng.choice((-1, 1)) * rng.randint(40, 900)
        target = anchor + dt.timedelta(days=span)
        tense = "is" if span > 0 else "was"
        text = (
            f"{_long(anchor)} is a {WEEKDAYS[anchor.weekday()]}. What day of the week "
            f"{tense} {_long(target)}?" + EXACT_SUFFIX.format(f="<weekday>")
        )
        return {
            "prompt": text,
            "answer": WEEKDAYS[target.weekday()],
            "meta": {
                "ask": "weekday",
                "anchor": anchor.isoformat(),
                "anchor_weekday": WEEKDAYS[anchor.weekday()],
                "target": target.isoformat(),
            },
        }
    span = rng.randint(100, 1500)
    target = anchor + dt.timedelta(days=span)
    if rng.random() < 0.5:
        text = f"What is the date {span} days after {_long(anchor)}?" + EXACT_SUFFIX.format(
            f="YYYY-MM-DD"
        )
        return {
            "prompt": text,
            "answer": target.isoformat(),
            "meta": {"ask": "date", "anchor": anchor.isoformat(), "days": span},
        }
    text = (
        f"How many days are there from {_long(anchor)} to {_long(target)}? Count the later date "
        "but not the earlier one." + EXACT_SUFFIX.format(f="<integer>")
    )
    return {
        "prompt": text,
        "answer": str(span),
        "meta": {"ask": "span", "anchor": anchor.isoformat(), "target": target.isoformat()},
    }


# --- knights and knaves --------------------------------------------------------------------


def kk_true(stmt: list[Any], knights: tuple[bool, ...]) -> bool:
    kind = stmt[0]
    if kind == "knight":
        return knights[stmt[1]]
    if kind == "knave":
        return not knights[stmt[1]]
    if kind == "same":
        return knights[stmt[1]] == knights[stmt[2]]
    if kind == "diff":
        return knights[stmt[1]] != knights[stmt[2]]
    if kind == "or":
        return knights[stmt[1]] or knights[stmt[2]]
    return sum(knights) == stmt[1]  # "exactly"


def _kk_text(stmt: list[Any], speaker: int, names: list[str]) -> str:
    kind = stmt[0]
    if kind in ("knight", "knave"):
        return f"{names[stmt[1]]} is a {kind}."
    if kind == "exactly":
        return f"Exactly {stmt[1]} of us {'is a knight' if stmt[1] == 1 else 'are knights'}."
    a, b = stmt[1], stmt[2]
    if speaker in (a, b):
        other = names[b if speaker == a else a]
        pair, pair_object = f"{other} and I", f"{other} and me"
    else:
        pair = pair_object = f"{names[a]} and {names[b]}"
    return {
        "same": f"{pair} are the same kind.",
        "diff": f"{pair} are different kinds.",
        "or": f"At least one of {pair_object} is a knight.",
    }[kind]


def _kk_statement(rng: random.Random, speaker: int, n: int) -> list[Any]:
    others = [i for i in range(n) if i != speaker]
    kind = rng.choice(("knight", "knave", "same", "diff", "or", "exactly"))
    if kind in ("knight", "knave"):
        return [kind, rng.choice(others)]
    if kind == "exactly":
        return [kind, rng.randint(0, n)]
    a, b = sorted(rng.sample(range(n), 2))
    return [kind, a, b]


def kk_solutions(says: list[list[Any]], n: int) -> list[tuple[bool, ...]]:
    return [
        k
        for k in itertools.product((True, False), repeat=n)
        if all(kk_true(s, k) == k[i] for i, s in enumerate(says))
    ]


def _knights(rng: random.Random, level: int) -> dict[str, Any]:
    n = 2 + level
    names = sorted(rng.sample(NAMES, n))
    while True:
        says = [_kk_statement(rng, i, n) for i in range(n)]
        found = kk_solutions(says, n)
        if len(found) == 1:
            break
    wrong = [k for k in itertools.product((True, False), repeat=n) if k != found[0]]
    options = [found[0], *rng.sample(wrong, 3)]
    rng.shuffle(options)
    render = [
        ", ".join(f"{names[i]} is a {'knight' if k[i] else 'knave'}" for i in range(n))
        for k in options
    ]
    body = (
        f"On an island, every inhabitant is either a knight, who always tells the truth, or a "
        f'knave, who always lies. You meet {", ".join(names[:-1])} and {names[-1]}; "us" '
        f"below means all {n} of them.\n"
        + "\n".join(f'{names[i]} says: "{_kk_text(s, i, names)}"' for i, s in enumerate(says))
        + "\n\nWhich of the following is the only possibility?"
    )
    return {
        "prompt": _mc_text(body, render),
        "answer": _letters(4)[options.index(found[0])],
        "choices": render,
        "meta": {"names": names, "says": says, "options": [list(o) for o in options]},
    }


# --- set counting --------------------------------------------------------------------------


def _sets(rng: random.Random, level: int) -> dict[str, Any]:
    groups = rng.choice(CLUBS)[: 2 if level < 2 else 3]
    k = len(groups)
    regions = {r: rng.randint(2, 30) for r in range(1, 1 << k)}  # region r: bit i = in group i
    neither = rng.randint(0, 25)
    total = neither + sum(regions.values())
    size = {i: sum(v for r, v in regions.items() if r >> i & 1) for i in range(k)}
    pairs = {
        (i, j): sum(v for r, v in regions.items() if r >> i & 1 and r >> j & 1)
        for i, j in itertools.combinations(range(k), 2)
    }
    lines = [
        f"In a school of {total} pupils, {size[0]} belong to {groups[0]} and {size[1]} to "
        f"{groups[1]}"
    ]
    if k == 2:
        if level == 0:
            lines.append(f"; {pairs[0, 1]} belong to both. How many belong to neither?")
            ask, answer = "neither", neither
        else:
            lines.append(f"; {neither} belong to neither. How many belong to both?")
            ask, answer = "both", pairs[0, 1]
        totals = {
            "total": total,
            "sizes": [size[0], size[1]],
            "pairs": [pairs[0, 1]],
            "neither": neither if ask == "both" else None,
        }
    else:
        lines.append(
            f", and {size[2]} to {groups[2]}. {pairs[0, 1]} belong to both {groups[0]} and "
            f"{groups[1]}, {pairs[0, 2]} to both {groups[0]} and {groups[2]}, and {pairs[1, 2]} "
            f"to both {groups[1]} and {groups[2]}; each of these three counts includes the "
            f"{regions[7]} pupils who belong to all three. How many belong to none of the three?"
        )
        ask, answer = "neither", neither
        totals = {
            "total": total,
            "sizes": [size[i] for i in range(3)],
            "pairs": [pairs[p] for p in sorted(pairs)],
            "triple": regions[7],
        }
    text = "".join(lines) + EXACT_SUFFIX.format(f="<integer>")
    return {"prompt": text, "answer": str(answer), "meta": {"ask": ask, "totals": totals}}


BUILDERS = {
    "ordering": _ordering,
    "logic_grid": _logic_grid,
    "syllogism": _syllogism,
    "sequence": _sequence,
    "calendar": _calendar,
    "knights_knaves": _knights,
    "sets": _sets,
}


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    category = CATEGORIES[idx % len(CATEGORIES)]
    level = (idx // len(CATEGORIES)) % len(DIFFICULTIES)
    built = BUILDERS[category](rng, level)
    row = {
        "id": f"reason-{idx + 1:04d}",
        "category": category,
        "difficulty": DIFFICULTIES[level],
        "prompt": built["prompt"],
        "answer": built["answer"],
        "scorer": SCORER_OF[category],
        "meta": built["meta"],
    }
    if "choices" in built:
        row["choices"] = built["choices"]
    return row


# --- proofs: re-solve every item from its structured description -------------------------


def days_from_civil(iso: str) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (era arithmetic, no datetime)."""
    y, m, d = (int(part) for part in iso.split("-"))
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


def _prove_ordering(row: dict[str, Any]) -> None:
    m = row["meta"]
    names, clues = m["names"], m["clues"]
    solutions = [
        p
        for p in itertools.permutations(names)
        if all(order_holds(c, {x: i for i, x in enumerate(p)}) for c in clues)
    ]
    assert len(solutions) == 1, row["id"]
    order = list(solutions[0])
    want = [", ".join(order), ",".join(order)] if m["ask"] == "order" else order[m["ask"]]
    assert row["answer"] == want, row["id"]
    assert all(_order_text(c, len(names)) in row["prompt"] for c in clues), row["id"]


def _prove_grid(row: dict[str, Any]) -> None:
    m = row["meta"]
    n, attrs, names = m["n"], m["attributes"], m["names"]
    perms = list(itertools.permutations(range(n)))
    sols = [dict(zip(attrs, s, strict=True)) for s in itertools.product(perms, repeat=len(attrs))]
    sols = [s for s in sols if all(grid_holds(c, s) for c in m["clues"])]
    assert len(sols) == 1, row["id"]
    kind, attr, which = m["ask"]
    values, pos = ATTRIBUTES[attr][0], ATTRIBUTES[attr][1]
    if kind == "who":
        right = names[sols[0][attr].index(which)]
    else:
        right = pos.format(s="", v=values[sols[0][attr][which]]).strip()
    assert len(set(row["choices"])) == len(row["choices"]) == n, row["id"]
    assert row["choices"][_letters(n).index(row["answer"])] == right, row["id"]


def _prove_syllogism(row: dict[str, Any]) -> None:
    m = row["meta"]
    k = len(m["terms"])
    models = [x for x in venn_models(k) if all(venn_true(p, x, k) for p in m["premises"])]
    occupied = [  # models where every term has a member: bit r - 1 set for some r containing t
        x
        for x in models
        if all(any(x >> (r - 1) & 1 for r in range(1, 1 << k) if r >> t & 1) for t in range(k))
    ]
    assert occupied, row["id"]
    for label, stmt in zip(_letters(4), m["options"], strict=True):
        if label == row["answer"]:  # true in every model, even with empty terms allowed
            assert all(venn_true(stmt, x, k) for x in models), row["id"]
        else:  # false in some model even when every term is non-empty (existential import)
            assert not all(venn_true(stmt, x, k) for x in occupied), row["id"]
        f, a, b = stmt
        assert row["choices"][_letters(4).index(label)] == FORMS[f].format(
            x=m["terms"][a], y=m["terms"][b]
        )


def _prove_sequence(row: dict[str, Any]) -> None:
    m = row["meta"]
    value = solve_sequence(m["family"], m["shown"], m["index"])
    assert value is not None and value.denominator == 1, row["id"]
    assert row["answer"] == str(value.numerator), row["id"]


def _prove_calendar(row: dict[str, Any]) -> None:
    m = row["meta"]
    base = days_from_civil(m["anchor"])
    if m["ask"] == "weekday":  # 1970-01-01 was a Thursday (index 3); the anchor's stated day agrees
        assert WEEKDAYS[(base + 3) % 7] == m["anchor_weekday"], row["id"]
        assert row["answer"] == WEEKDAYS[(days_from_civil(m["target"]) + 3) % 7], row["id"]
    elif m["ask"] == "span":
        assert int(row["answer"]) == days_from_civil(m["target"]) - base, row["id"]
    else:
        y, mo, d = (int(v) for v in row["answer"].split("-"))
        assert days_from_civil(f"{y:04d}-{mo:02d}-{d:02d}") - base == m["days"], row["id"]
        assert 1 <= mo <= 12 and 1 <= d <= 31, row["id"]


def _prove_knights(row: dict[str, Any]) -> None:
    m = row["meta"]
    says, n = m["says"], len(m["names"])
    consistent = [
        tuple(o)
        for o in m["options"]
        if all(kk_true(s, tuple(o)) == o[i] for i, s in enumerate(says))
    ]
    assert len(consistent) == 1 and kk_solutions(says, n) == consistent, row["id"]
    assert m["options"][_letters(4).index(row["answer"])] == list(consistent[0]), row["id"]


def _prove_sets(row: dict[str, Any]) -> None:
    t = row["meta"]["totals"]
    union = sum(t["sizes"]) - sum(t["pairs"]) + t.get("triple", 0)
    if row["meta"]["ask"] == "neither":
        assert int(row["answer"]) == t["total"] - union, row["id"]
    else:  # |A and B| = |A| + |B| - (total - neither)
        both = t["sizes"][0] + t["sizes"][1] - (t["total"] - t["neither"])
        assert int(row["answer"]) == both, row["id"]


PROVERS = {
    "ordering": _prove_ordering,
    "logic_grid": _prove_grid,
    "syllogism": _prove_syllogism,
    "sequence": _prove_sequence,
    "calendar": _prove_calendar,
    "knights_knaves": _prove_knights,
    "sets": _prove_sets,
}


def prove(row: dict[str, Any]) -> None:
    assert row["scorer"] == SCORER_OF[row["category"]], row["id"]
    PROVERS[row["category"]](row)


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    seen = {(r["category"], r["difficulty"]) for r in rows}
    assert len(seen) == len(CATEGORIES) * len(DIFFICULTIES), seen
    scorers = [r["scorer"] for r in rows]
    assert max(set(scorers), key=scorers.count) == DEFAULT_SCORER
    assert {"mc", "exact"} == set(scorers)


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
