"""eval-science-v3 stoichiometry: product masses, limiting reagents and leftovers, percent yield,
the amount of a reactant needed (value options), balancing an equation and an empirical formula
from mass percentages (both exact answers with many possible values, unlike v2's two-way
limiting-reagent guesses).

Proofs rebuild mole tables from the stored equation text, find balancing coefficients as the
integer null space of the element matrix (exact Gaussian elimination) and find empirical
formulas by searching every small subscript combination.
"""

from __future__ import annotations

import math
import random
import re
from fractions import Fraction
from itertools import product
from typing import Any

from families.science.base import (
    Item,
    check_numeric,
    check_value_options,
    frac,
    num,
    numeric,
    numeric_options,
)
from families.science.chem import (
    EXTRA_REACTIONS,
    MASSES,
    REACTIONS,
    atoms,
    equation,
    mass_note,
    molar_mass,
)

FORMS = (
    ("yield_mass", "numeric"),
    ("limiting_mass", "numeric"),
    ("excess_left", "numeric"),
    ("percent_yield", "numeric"),
    ("amount_needed", "mc"),
    ("amount_needed", "mc"),
    ("balance", "exact"),
    ("empirical", "exact"),
)
TWO_REACTANTS = tuple(r for r in REACTIONS if len(r[0]) == 2)


def _setup(rng: random.Random) -> tuple[Any, ...]:
    reaction = rng.choice(TWO_REACTANTS)
    (ca, fa, na), (cb, fb, nb) = reaction[0]
    cp, fp, np_ = rng.choice(reaction[1])
    head = f"Consider the balanced reaction {equation(reaction)}. {mass_note(reaction)}"
    return reaction, (ca, fa, na), (cb, fb, nb), (cp, fp, np_), head


def _grams(rng: random.Random, low: int = 10, high: int = 500) -> Fraction:
    return Fraction(rng.randint(low, high), 10)


def yield_mass(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    reaction, (ca, fa, na), (cb, fb, nb), (cp, fp, np_), head = _setup(rng)
    meta: dict[str, Any] = {"kind": "yield_mass", "reaction": equation(reaction), "product": fp}
    grams = _grams(rng)
    if level < 2:
        (c, f, n), other = ((ca, fa, na), nb) if level == 0 else ((cb, fb, nb), na)
        value = grams / molar_mass(f) / c * cp * molar_mass(fp)
        q = (
            f"{head} What mass of {np_} ({fp}) forms when {num(grams)} g of {n} ({f}) reacts "
            f"completely with excess {other}?"
        )
        meta["given"] = [f, str(grams)]
        return numeric(
            q,
            "grams",
            value,
            meta,
            [grams * Fraction(cp, c), grams / molar_mass(f) * molar_mass(fp)],
        )
    value = grams / molar_mass(fp) / cp * ca * molar_mass(fa)
    q = (
        f"{head} What mass of {na} ({fa}) must react, with excess {nb}, to make {num(grams)} g of "
        f"{np_} ({fp})?"
    )
    meta.update(kind="reactant_for", given=[fp, str(grams)], wanted=fa)
    return numeric(
        q, "grams", value, meta, [grams * Fraction(ca, cp), grams / molar_mass(fp) * molar_mass(fa)]
    )


def _two_masses(rng: random.Random, level: int) -> tuple[Any, ...] | None:
    """Both reactant masses, with the limiting one chosen to spring the level's trap."""
    reaction, (ca, fa, na), (cb, fb, nb), (cp, fp, np_), head = _setup(rng)
    mass = {fa: _grams(rng), fb: _grams(rng)}
    runs = {f: mass[f] / molar_mass(f) / c for c, f in ((ca, fa), (cb, fb))}
    limiting = min(runs, key=runs.__getitem__)
    if runs[limiting] * Fraction(11, 10) > max(runs.values()):
        return None
    bigger_mass = max(mass, key=mass.__getitem__)
    more_moles = max(mass, key=lambda f: mass[f] / molar_mass(f))
    if (level == 1 and limiting != bigger_mass) or (level == 2 and limiting != more_moles):
        return None
    given = (
        f"{num(mass[fa])} g of {na} ({fa}) is mixed with {num(mass[fb])} g of {nb} ({fb}) and the "
        "reaction runs to completion."
    )
    return reaction, mass, runs, limiting, (cp, fp, np_), f"{head} {given}"


def limiting_mass(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    drawn = _two_masses(rng, level)
    if drawn is None:
        return None
    reaction, mass, runs, limiting, (cp, fp, np_), head = drawn
    q = f"{head} What mass of {np_} ({fp}) forms?"
    meta = {
        "kind": "limiting_mass",
        "reaction": equation(reaction),
        "masses": {f: str(x) for f, x in mass.items()},
        "product": fp,
    }
    other = max(runs.values())
    return numeric(
        q, "grams", runs[limiting] * cp * molar_mass(fp), meta, [other * cp * molar_mass(fp)]
    )


def excess_left(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    drawn = _two_masses(rng, level)
    if drawn is None:
        return None
    reaction, mass, runs, limiting, _, head = drawn
    coef = {f: c for c, f, _ in reaction[0]}
    spare = next(f for f in mass if f != limiting)
    left = mass[spare] - runs[limiting] * coef[spare] * molar_mass(spare)
    if left < 1:
        return None
    q = f"{head} What mass of the reactant in excess is left over?"
    meta = {
        "kind": "excess_left",
        "reaction": equation(reaction),
        "masses": {f: str(x) for f, x in mass.items()},
        "spare": spare,
    }
    return numeric(
        q,
        "grams",
        left,
        meta,
        [abs(mass[spare] - mass[limiting]), mass[spare] - runs[limiting] * molar_mass(spare)],
    )


def percent_yield(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    reaction, (ca, fa, na), (cb, fb, nb), (cp, fp, np_), head = _setup(rng)
    grams = _grams(rng, 50, 500)
    share = Fraction(rng.randint(40, 95), 100)
    pct = int(share * 100)
    meta: dict[str, Any] = {"kind": "", "reaction": equation(reaction), "product": fp}
    per_gram = Fraction(cp, ca) * molar_mass(fp) / molar_mass(fa)  # product per gram of A
    if level == 0:
        got = Fraction(round(grams * per_gram * share * 10), 10)
        q = (
            f"{head} {num(grams)} g of {na} ({fa}) reacts with excess {nb} and {num(got)} g of "
            f"{np_} ({fp}) is collected. What is the percent yield?"
        )
        meta.update(kind="percent_yield", given=[fa, str(grams)], collected=str(got))
        value = got / (grams * per_gram) * 100
        return numeric(
            q,
            "percent",
            value,
            meta,
            [got / grams * 100, value * cp / ca if cp != ca else value * 2],
        )
    if level == 1:
        q = (
            f"{head} {num(grams)} g of {na} ({fa}) reacts with excess {nb}, and the process has a "
            f"percent yield of {pct} %. What mass of {np_} ({fp}) is collected?"
        )
        meta.update(kind="yield_collected", given=[fa, str(grams)], percent=pct)
        theory = grams * per_gram
        return numeric(q, "grams", theory * share, meta, [theory, theory / share])
    q = (
        f"{head} The process has a percent yield of {pct} %. What mass of {na} ({fa}), with "
        f"excess {nb}, is needed to collect {num(grams)} g of {np_} ({fp})?"
    )
    meta.update(kind="yield_needed", collect=str(grams), wanted=fa, percent=pct)
    need = grams / share / per_gram
    return numeric(q, "grams", need, meta, [grams / per_gram * share, grams / per_gram])


def amount_needed(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    assert slot is not None
    reaction, (ca, fa, na), (cb, fb, nb), _, head = _setup(rng)
    grams = _grams(rng, 10, 300)
    mol_b = grams / molar_mass(fb)
    need = mol_b * Fraction(ca, cb)
    pool = [
        mol_b,
        mol_b * Fraction(cb, ca),
        grams / molar_mass(fa) * Fraction(ca, cb),
        grams * Fraction(ca, cb),
    ]
    if level == 0:
        unit, gold = "mol", need
        pool += [need * molar_mass(fa), mol_b * ca, mol_b / cb]
        q = (
            f"{head} How many moles of {na} ({fa}) are needed to react completely with "
            f"{num(grams)} g of {nb} ({fb})?"
        )
    else:
        unit, gold = "g", need * molar_mass(fa)
        pool = [x * molar_mass(fa) for x in pool] + [
            need,
            need * molar_mass(fb),
            grams * molar_mass(fa) / molar_mass(fb),
        ]
        q = (
            f"{head} What mass of {na} ({fa}) is needed to react completely with {num(grams)} g "
            f"of {nb} ({fb})?"
        )
    meta = {
        "kind": "amount_needed",
        "reaction": equation(reaction),
        "given": [fb, str(grams)],
        "wanted": fa,
        "unit": unit,
    }
    return numeric_options(rng, q, gold, pool, slot, unit, meta)


BALANCE_LEVELS = (
    [r for r in REACTIONS + EXTRA_REACTIONS if len(r[0]) + len(r[1]) == 3],
    [
        r
        for r in REACTIONS + EXTRA_REACTIONS
        if len(r[0]) + len(r[1]) == 4 and max(c for s in r for c, _, _ in s) <= 4
    ],
    [
        r
        for r in REACTIONS + EXTRA_REACTIONS
        if len(r[0]) + len(r[1]) >= 4
        and max(c for s in r for c, _, _ in s) > 4
        or len(r[0]) + len(r[1]) == 5
    ],
)


def balance(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    reaction = rng.choice(BALANCE_LEVELS[level])
    bare = " -> ".join(" + ".join(f for _, f, _ in side) for side in reaction)
    coefs = [str(c) for side in reaction for c, _, _ in side]
    q = (
        f"Balance the chemical equation {bare} with the smallest whole-number coefficients. Give "
        f"the {len(coefs)} coefficients in the order the formulas appear, separated by commas, "
        f"writing 1 where a formula needs no number in front."
    )
    meta = {"kind": "balance", "skeleton": bare}
    answer = [", ".join(coefs), ",".join(coefs), " ".join(coefs)]
    return {"question": q, "scorer": "exact", "answer": answer, "meta": meta}


HILL = ("C", "H", "N", "O")


def formula_text(counts: dict[str, int]) -> str:
    return "".join(f"{el}{counts[el] if counts[el] > 1 else ''}" for el in HILL if counts.get(el))


def percentages(counts: dict[str, int]) -> dict[str, str]:
    """Mass percentages (two decimals) of a formula, from the stated atomic masses."""
    total = sum(Fraction(MASSES[el]) * n for el, n in counts.items())
    return {el: f"{float(Fraction(MASSES[el]) * n / total * 100):.2f}" for el, n in counts.items()}


def empirical(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    elements = HILL[: 2 + level] if level < 2 else HILL
    counts = {el: rng.randint(1, 6 if el != "H" else 12) for el in elements}
    hydrogen_room = 2 * counts["C"] + counts.get("N", 0) + 2  # a saturated molecule's hydrogens
    if math.gcd(*counts.values()) != 1 or counts["H"] > hydrogen_room:
        return None
    if (counts["H"] + counts.get("N", 0)) % 2:
        return None  # no molecule has this formula: its bonds cannot pair up
    shares = percentages(counts)
    if empirical_from(shares) != counts:
        return None  # another small formula matches the rounded percentages as well
    listing = ", ".join(f"{shares[el]} % {el}" for el in elements)
    masses = ", ".join(f"{el} = {MASSES[el]}" for el in elements)
    q = (
        f"A compound contains only {', '.join(elements[:-1])} and {elements[-1]}; by mass it is "
        f"{listing}. Molar masses in g/mol: {masses}. What is its empirical formula? Write the "
        f"elements in the order {', '.join(elements)}, leaving out any subscript 1."
    )
    meta = {"kind": "empirical", "percent": shares}
    return {"question": q, "scorer": "exact", "answer": [formula_text(counts)], "meta": meta}


BUILD = {
    "yield_mass": yield_mass,
    "limiting_mass": limiting_mass,
    "excess_left": excess_left,
    "percent_yield": percent_yield,
    "amount_needed": amount_needed,
    "balance": balance,
    "empirical": empirical,
}


# ---- proofs -----------------------------------------------------------------------------------
def _table(reaction_text: str) -> tuple[dict[str, int], dict[str, float]]:
    """Coefficients and molar masses of every species, read from the equation text."""
    terms = re.findall(r"(\d*)([A-Z]\w*)", reaction_text)
    coef = {f: int(c or 1) for c, f in terms}
    return coef, {f: float(molar_mass(f)) for f in coef}


def _prove_moles(row: dict[str, Any]) -> None:  # noqa: C901 - one line per kind
    m, kind = row["meta"], row["meta"]["kind"]
    coef, mm = _table(m["reaction"])
    if "masses" in m:
        masses = {f: frac(x) for f, x in m["masses"].items()}
        extent = min(masses[f] / mm[f] / coef[f] for f in masses)
        if kind == "limiting_mass":
            value = extent * coef[m["product"]] * mm[m["product"]]
        else:
            value = masses[m["spare"]] - extent * coef[m["spare"]] * mm[m["spare"]]
        check_numeric(row, value)
        return
    if kind == "yield_needed":  # back from the product the process must make in theory
        theory = frac(m["collect"]) / (m["percent"] / 100)
        extent = theory / mm[m["product"]] / coef[m["product"]]
        check_numeric(row, extent * coef[m["wanted"]] * mm[m["wanted"]])
        return
    given, grams = m["given"][0], frac(m["given"][1])
    extent = grams / mm[given] / coef[given]
    made = extent * coef[m["product"]] * mm[m["product"]]
    if kind == "yield_mass":
        value = made
    elif kind == "reactant_for":
        value = extent * coef[m["wanted"]] * mm[m["wanted"]]
    elif kind == "percent_yield":
        value = frac(m["collected"]) / made * 100
    else:
        value = made * m["percent"] / 100
    check_numeric(row, value)


def _prove_needed(row: dict[str, Any]) -> None:
    m = row["meta"]
    coef, mm = _table(m["reaction"])
    given, grams = m["given"][0], frac(m["given"][1])
    amount = grams / mm[given] / coef[given] * coef[m["wanted"]]
    check_value_options(row, amount * (mm[m["wanted"]] if m["unit"] == "g" else 1.0))


def null_space_coefficients(species: list[str], products_from: int) -> list[int]:
    """The primitive positive integer solution of the atom balance (exact elimination)."""
    elements = sorted({el for f in species for el in atoms(f)})
    sign = [1 if i < products_from else -1 for i in range(len(species))]
    rows = [
        [Fraction(sign[j] * atoms(f).get(el, 0)) for j, f in enumerate(species)] for el in elements
    ]
    pivots, r = [], 0
    for col in range(len(species)):
        pivot = next((i for i in range(r, len(rows)) if rows[i][col] != 0), None)
        if pivot is None:
            continue
        rows[r], rows[pivot] = rows[pivot], rows[r]
        rows[r] = [x / rows[r][col] for x in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][col] != 0:
                rows[i] = [a - rows[i][col] * b for a, b in zip(rows[i], rows[r], strict=True)]
        pivots.append(col)
        r += 1
    free = [c for c in range(len(species)) if c not in pivots]
    assert len(free) == 1, f"not a one-dimensional balance: {species}"
    solution = [Fraction(0)] * len(species)
    solution[free[0]] = Fraction(1)
    for i, col in enumerate(pivots):
        solution[col] = -rows[i][free[0]]
    scale = math.lcm(*(x.denominator for x in solution))
    ints = [int(x * scale) for x in solution]
    ints = [x // math.gcd(*ints) for x in ints]
    return ints if ints[0] > 0 else [-x for x in ints]


def _prove_balance(row: dict[str, Any]) -> None:
    left, right = row["meta"]["skeleton"].split(" -> ")
    species = left.split(" + ") + right.split(" + ")
    coefs = null_space_coefficients(species, len(left.split(" + ")))
    assert all(c > 0 for c in coefs), row["id"]
    assert row["answer"][0] == ", ".join(map(str, coefs)), (row["id"], coefs)


def empirical_from(shares: dict[str, str]) -> dict[str, int] | None:
    """The only formula with subscripts up to 12 (coprime) matching the percentages, else None."""
    elements = list(shares)
    masses = [float(MASSES[el]) for el in elements]
    wanted = [float(shares[el]) for el in elements]
    found = []
    for subs in product(range(1, 13), repeat=len(elements)):
        total = sum(m * n for m, n in zip(masses, subs, strict=True))
        near = all(  # a cheap float screen first; the exact rounding decides
            abs(m * n / total * 100 - w) < 0.006
            for m, n, w in zip(masses, subs, wanted, strict=True)
        )
        if near and math.gcd(*subs) == 1:
            counts = dict(zip(elements, subs, strict=True))
            if percentages(counts) == shares:
                found.append(counts)
    return found[0] if len(found) == 1 else None


def _prove_empirical(row: dict[str, Any]) -> None:
    counts = empirical_from(row["meta"]["percent"])
    assert counts is not None and row["answer"] == [formula_text(counts)], row["id"]


PROVE = {
    **{
        k: _prove_moles
        for k in (
            "yield_mass",
            "reactant_for",
            "limiting_mass",
            "excess_left",
            "percent_yield",
            "yield_collected",
            "yield_needed",
        )
    },
    "amount_needed": _prove_needed,
    "balance": _prove_balance,
    "empirical": _prove_empirical,
}
