"""Logic-grid family of eval-reasoning-v3: houses in a row, one resident each, unique by search.

Clues are drawn from the hidden grid until a search finds exactly one solution, then every clue
the others imply is dropped. Issue 13: eval-reasoning-v1 asked facts a clue stated outright
(0030, 0044, 0072, 0093). Here the asked fact is chosen among those that no single clue implies,
checked by brute force: every placement of the entities that the clue and the fact mention
(distinct houses within a category) that satisfies the clue is tried, and some must falsify the
fact. Wrong options are the same kind of statement about the same person or thing (the other
values of the same category, other houses, other names), never a mix of categories.

Forms: who (exact, mc), what a person's attribute is (exact), which house (mc, bare numbers),
which statement about a person is true (mc).
The proof solves the puzzle again house by house (not attribute by attribute, as the generator
does), checks the solution is unique and repeats the single-clue brute force.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

CATEGORY = "logic_grid"
FORMS = ("exact", "mc", "exact", "mc", "exact", "mc", "exact", "mc")
POOLS = {
    "name": ("Ana", "Ben", "Cleo", "Dev", "Eva", "Finn", "Gia", "Hugo"),
    "pet": ("cat", "dog", "parrot", "rabbit", "turtle", "hamster", "goldfish"),
    "drink": ("tea", "coffee", "milk", "juice", "water", "cocoa", "lemonade"),
    "colour": ("red", "green", "blue", "yellow", "white", "orange", "purple"),
    "job": ("baker", "nurse", "pilot", "teacher", "chemist", "plumber", "farmer"),
}
NOUNS = {
    "name": "name",
    "pet": "pet",
    "drink": "favourite drink",
    "colour": "house colour",
    "job": "job",
}
SIZES = ((4, 3), (4, 4), (5, 4))  # (houses, attribute categories) per level
Clue = list[Any]
Item = dict[str, Any]


def entity(cat: str, value: str) -> str:
    return {
        "name": value,
        "pet": f"the {value} owner",
        "drink": f"the {value} drinker",
        "colour": f"the person in the {value} house",
        "job": f"the {value}",
    }[cat]


def fact_text(name: str, cat: str, value: str) -> str:
    return {
        "pet": f"{name} keeps the {value}.",
        "drink": f"{name} drinks {value}.",
        "colour": f"{name} lives in the {value} house.",
        "job": f"{name} is the {value}.",
    }[cat]


def holds(clue: Clue, where: dict[tuple[str, str], int]) -> bool:
    """Truth of a clue given the house of every entity it mentions."""
    kind, a = clue[0], where[tuple(clue[1])]
    if kind in ("at", "not_at"):
        return (a == clue[2]) == (kind == "at")
    b = where[tuple(clue[2])]
    return {
        "same": a == b,
        "diff": a != b,
        "left": a + 1 == b,
        "before": a < b,
        "next": abs(a - b) == 1,
    }[kind]


def render(clue: Clue) -> str:
    kind, a = clue[0], entity(*clue[1])
    if kind in ("at", "not_at"):
        text = f"{a} {'lives' if kind == 'at' else 'does not live'} in house {clue[2] + 1}."
    else:
        b = entity(*clue[2])
        text = {
            "same": f"{a} and {b} live in the same house.",
            "diff": f"{a} and {b} live in different houses.",
            "left": f"{a} lives directly to the left of {b}.",
            "before": f"{a} lives somewhere to the left of {b}.",
            "next": f"{a} and {b} live next to each other.",
        }[kind]
    return text[0].upper() + text[1:]


def _entities(clue: Clue) -> list[tuple[str, str]]:
    return [tuple(e) for e in clue[1:] if isinstance(e, list)]  # type: ignore[misc]


def clue_test(clue: Clue) -> Any:
    """The clue as a function of ``where[cat][value] -> house`` (compiled once for ``solve``)."""
    kind, (c1, v1), extra = clue[0], clue[1], clue[2]
    if kind in ("at", "not_at"):
        return (lambda p: p[c1][v1] == extra) if kind == "at" else (lambda p: p[c1][v1] != extra)
    c2, v2 = extra
    return {
        "same": lambda p: p[c1][v1] == p[c2][v2],
        "diff": lambda p: p[c1][v1] != p[c2][v2],
        "left": lambda p: p[c1][v1] + 1 == p[c2][v2],
        "before": lambda p: p[c1][v1] < p[c2][v2],
        "next": lambda p: abs(p[c1][v1] - p[c2][v2]) == 1,
    }[kind]


def solve(cats: list[str], values: dict[str, list[str]], clues: list[Clue], limit: int) -> list:
    """Grids (``cat -> values by house``) satisfying every clue, up to ``limit``: one attribute
    category at a time, the most constrained first, each clue checked once its categories are
    placed."""
    tests = [({e[0] for e in _entities(c)}, clue_test(c)) for c in clues]
    perms = {}
    for cat in cats:
        own = [t for cs, t in tests if cs == {cat}]
        maps = ({v: h for h, v in enumerate(p)} for p in itertools.permutations(values[cat]))
        perms[cat] = [m for m in maps if all(t({cat: m}) for t in own)]
    order = [min(cats, key=lambda c: len(perms[c]))]
    while len(order) < len(cats):  # next: the category most tied by clues to those placed
        links = {
            c: sum(1 for cs, _ in tests if c in cs and len(cs) > 1 and cs <= {c, *order})
            for c in cats
            if c not in order
        }
        order.append(max(links, key=lambda c: (links[c], -len(perms[c]))))
    due = [
        [t for cs, t in tests if len(cs) > 1 and order[d] in cs and cs <= set(order[: d + 1])]
        for d in range(len(order))
    ]
    found: list[dict[str, list[str]]] = []

    def fill(depth: int, where: dict[str, dict[str, int]]) -> None:
        if depth == len(order):
            found.append({c: sorted(where[c], key=where[c].__getitem__) for c in cats})
            return
        for mapping in perms[order[depth]]:
            where[order[depth]] = mapping
            if all(t(where) for t in due[depth]):
                fill(depth + 1, where)
                if len(found) >= limit:
                    return
        del where[order[depth]]

    fill(0, {})
    return found


def implied_by(clue: Clue, fact: Clue, n: int) -> bool:
    """Does ``clue`` alone force ``fact``? Every placement of the entities the two mention
    (distinct houses within a category) is tried."""
    ents = sorted(set(_entities(clue)) | set(_entities(fact)))
    for houses in itertools.product(range(n), repeat=len(ents)):
        where = dict(zip(ents, houses, strict=True))
        if any(where[a] == where[b] for a, b in itertools.combinations(ents, 2) if a[0] == b[0]):
            continue
        if holds(clue, where) and not holds(fact, where):
            return False
    return True


def random_clue(rng: random.Random, cats: list[str], sol: dict[str, list[str]]) -> Clue:
    n = len(sol[cats[0]])
    kind = rng.choice(("same", "same", "diff", "at", "not_at", "left", "before", "next", "next"))
    c1, c2 = rng.sample(cats, 2)
    h1, h2 = rng.sample(range(n), 2)
    if kind == "same":
        return ["same", [c1, sol[c1][h1]], [c2, sol[c2][h1]]]
    if kind == "diff":
        return ["diff", [c1, sol[c1][h1]], [c2, sol[c2][h2]]]
    if kind in ("at", "not_at"):
        return [kind, [c1, sol[c1][h1]], h1 if kind == "at" else h2]
    lo, hi = sorted((h1, h2))
    if kind == "before":
        return ["before", [c1, sol[c1][lo]], [c2, sol[c2][hi]]]
    h = rng.randrange(n - 1)
    pair = [[c1, sol[c1][h]], [c2, sol[c2][h + 1]]]
    return ["left", *pair] if kind == "left" else ["next", *rng.sample(pair, 2)]


def puzzle(rng: random.Random, level: int) -> tuple[list[str], dict[str, list[str]], dict, list]:
    n, k = SIZES[level]
    cats = ["name", *rng.sample(["pet", "drink", "colour", "job"], k - 1)]
    values = {c: sorted(rng.sample(POOLS[c], n)) for c in cats}
    sol = {c: rng.sample(values[c], n) for c in cats}
    clues: list[Clue] = []
    while True:  # add clues that rule out a competing grid until only one is left
        found = solve(cats, values, clues, limit=2)
        if len(found) == 1:
            break
        rival = found[0] if found[0] != sol else found[1]
        where = {(c, v): h for c in cats for h, v in enumerate(rival[c])}
        clue = random_clue(rng, cats, sol)
        while holds(clue, where):
            clue = random_clue(rng, cats, sol)
        clues.append(clue)
    for clue in rng.sample(clues, len(clues)):  # drop every clue the others imply
        rest = [c for c in clues if c is not clue]
        if len(solve(cats, values, rest, limit=2)) == 1:
            clues = rest
    return cats, values, sol, clues


def build(rng: random.Random, level: int, form: int) -> Item:
    cats, values, sol, clues = puzzle(rng, level)
    n = len(sol["name"])
    house = {(c, v): h for c in cats for h, v in enumerate(sol[c])}
    kind = {0: "exact", 4: "exact", 2: "value", 6: "value", 3: "who", 5: "where"}.get(form, "mc")
    pairs = [(c, v) for c in cats[1:] for v in values[c]]
    if kind != "where":  # a "same house" fact between a name and a value
        facts = [(c, v, ["same", ["name", sol["name"][house[(c, v)]]], [c, v]]) for c, v in pairs]
    else:
        facts = [(c, v, ["at", [c, v], house[(c, v)]]) for c, v in pairs]
    open_facts = [f for f in facts if not any(implied_by(k, f[2], n) for k in clues)]
    if not open_facts:
        return build(rng, level, form)
    cat, value, fact = rng.choice(open_facts)
    intro = (
        f"{n} houses stand in a row, numbered 1 to {n} from left to right. Each house has one "
        f"resident, and no two residents share any of these: "
        + "; ".join(f"{NOUNS[c]} ({', '.join(values[c])})" for c in cats)
        + '. "Directly to the left of" means in the house numbered one lower; "next to" means '
        "in a neighbouring house.\n\nClues:\n"
        + "\n".join(f"{i + 1}. {render(c)}" for i, c in enumerate(clues))
    )
    meta = {
        "kind": "grid",
        "categories": cats,
        "values": values,
        "clues": clues,
        "solution": sol,
        "fact": fact,
        "ask": kind,
    }
    name = sol["name"][house[(cat, value)]]
    if kind in ("exact", "who"):
        ask = {
            "pet": f"Who keeps the {value}?",
            "drink": f"Who drinks {value}?",
            "colour": f"Who lives in the {value} house?",
            "job": f"Who is the {value}?",
        }[cat]
        if kind == "exact":
            return {
                "question": f"{intro}\n\n{ask} Answer with the name only.",
                "scorer": "exact",
                "answer": name,
                "meta": meta,
            }
        others = rng.sample([x for x in values["name"] if x != name], 3)
        return {
            "question": f"{intro}\n\n{ask}",
            "scorer": "mc",
            "correct": name,
            "distractors": others,
            "meta": meta,
        }
    if kind == "value":
        ask = f"What is {name}'s {NOUNS[cat]}? Answer with the {NOUNS[cat]} only."
        return {"question": f"{intro}\n\n{ask}", "scorer": "exact", "answer": value, "meta": meta}
    if kind == "where":
        where = house[(cat, value)] + 1
        others = rng.sample([h for h in range(1, n + 1) if h != where], 3)
        return {
            "question": f"{intro}\n\nIn which house number does {entity(cat, value)} live?",
            "scorer": "mc",
            "correct": str(where),
            "distractors": [str(h) for h in others],
            "meta": meta,
        }
    wrong = rng.sample([fact_text(name, cat, v) for v in values[cat] if v != value], 3)
    return {
        "question": f"{intro}\n\nWhich of the following statements is true?",
        "scorer": "mc",
        "correct": fact_text(name, cat, value),
        "distractors": wrong,
        "meta": meta,
    }


# ---- proof: house-by-house search, then the single-clue brute force ---------------------------
def _still_possible(clue: Clue, where: dict[tuple[str, str], int], h: int) -> bool:
    """Can the clue still hold once houses 0..h are filled? Unplaced entities live further right."""
    kind, ents = clue[0], _entities(clue)
    if all(e in where for e in ents):
        return holds(clue, where)
    if kind in ("at", "not_at"):
        return kind == "not_at" or clue[2] > h
    a, b = (where.get(e) for e in ents)
    if kind in ("diff",) or (a is None and b is None):
        return True
    if kind == "same":
        return False
    if kind == "before":
        return b is None
    if kind == "left":
        return a == h
    return (a if a is not None else b) == h  # next


def _by_houses(cats: list[str], values: dict[str, list[str]], clues: list[Clue]) -> list[dict]:
    """Every grid, built one house at a time from the left, pruning with every clue that can no
    longer hold (the generator's search fills one attribute category at a time instead)."""
    n = len(values[cats[0]])
    grids: list[dict[str, list[str]]] = []

    def place(h: int, where: dict[tuple[str, str], int]) -> None:
        if h == n:
            grids.append({c: sorted(values[c], key=lambda v: where[(c, v)]) for c in cats})
            return
        left = [[v for v in values[c] if (c, v) not in where] for c in cats]
        for combo in itertools.product(*left):
            trial = where | {(c, v): h for c, v in zip(cats, combo, strict=True)}
            if all(_still_possible(k, trial, h) for k in clues):
                place(h + 1, trial)

    place(0, {})
    return grids


def prove(row: dict[str, Any]) -> None:
    m = row["meta"]
    grids = _by_houses(m["categories"], m["values"], m["clues"])
    assert grids == [m["solution"]], (row["id"], len(grids))
    sol, fact = grids[0], m["fact"]
    n = len(sol["name"])
    assert not any(implied_by(k, fact, n) for k in m["clues"]), row["id"]
    where = {(c, v): h for c in sol for h, v in enumerate(sol[c])}
    assert holds(fact, where), row["id"]
    cat, value = fact[2] if fact[0] == "same" else fact[1]
    gold = row["answer"] if row["scorer"] != "mc" else row["choices"]["ABCD".index(row["answer"])]
    name = sol["name"][where[(cat, value)]]
    accepted = {"where": {str(where[(cat, value)] + 1)}, "value": {value}}.get(
        m["ask"], {name, fact_text(name, cat, value)}
    )
    assert gold in accepted, (row["id"], gold)
    if row["scorer"] == "mc":  # every other option is false in the solution
        assert sum(c in accepted for c in row["choices"]) == 1, row["id"]
