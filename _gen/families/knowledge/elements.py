"""Chemical elements 1-56 for eval-knowledge-v2 and -v3: the table (symbol and IUPAC name),
period and group derived from the atomic number (never typed), molecules, ions and isotopes, the
v2 question forms (a symbol found by arithmetic on atomic numbers, counted particles, an element
in a group or position) and their proofs. Moved here from the v2 generator, unchanged.
"""

from __future__ import annotations

import random
import re
from typing import Any

Item = dict[str, Any]

# Symbol and English (IUPAC) name of elements 1-56, in atomic-number order.
ELEMENTS = (
    "H Hydrogen, He Helium, Li Lithium, Be Beryllium, B Boron, C Carbon, N Nitrogen, O Oxygen, "
    "F Fluorine, Ne Neon, Na Sodium, Mg Magnesium, Al Aluminium, Si Silicon, P Phosphorus, "
    "S Sulfur, Cl Chlorine, Ar Argon, K Potassium, Ca Calcium, Sc Scandium, Ti Titanium, "
    "V Vanadium, Cr Chromium, Mn Manganese, Fe Iron, Co Cobalt, Ni Nickel, Cu Copper, Zn Zinc, "
    "Ga Gallium, Ge Germanium, As Arsenic, Se Selenium, Br Bromine, Kr Krypton, Rb Rubidium, "
    "Sr Strontium, Y Yttrium, Zr Zirconium, Nb Niobium, Mo Molybdenum, Tc Technetium, "
    "Ru Ruthenium, Rh Rhodium, Pd Palladium, Ag Silver, Cd Cadmium, In Indium, Sn Tin, "
    "Sb Antimony, Te Tellurium, I Iodine, Xe Xenon, Cs Caesium, Ba Barium"
)
TABLE = [tuple(item.split()) for item in ELEMENTS.split(", ")]
SYMBOL_Z = {sym: z for z, (sym, _) in enumerate(TABLE, start=1)}
NAME_Z = {name: z for z, (_, name) in enumerate(TABLE, start=1)}
NOBLE = (0, 2, 10, 18, 36, 54)
MOLECULES = (
    ("water", "H2O"),
    ("carbon dioxide", "CO2"),
    ("ammonia", "NH3"),
    ("methane", "CH4"),
    ("ethanol", "C2H6O"),
    ("glucose", "C6H12O6"),
    ("sulfuric acid", "H2SO4"),
    ("calcium carbonate", "CaCO3"),
    ("nitric acid", "HNO3"),
    ("hydrogen peroxide", "H2O2"),
    ("benzene", "C6H6"),
    ("propane", "C3H8"),
    ("acetic acid", "C2H4O2"),
    ("phosphoric acid", "H3PO4"),
    ("potassium permanganate", "KMnO4"),
    ("iron(III) oxide", "Fe2O3"),
    ("copper(II) sulfate", "CuSO4"),
    ("sodium hydroxide", "NaOH"),
    ("aluminium oxide", "Al2O3"),
    ("silicon dioxide", "SiO2"),
    ("sucrose", "C12H22O11"),
    ("urea", "CH4N2O"),
    ("sodium hydrogen carbonate", "NaHCO3"),
    ("magnesium chloride", "MgCl2"),
)
IONS = (
    ("sulfate", "SO4", -2),
    ("nitrate", "NO3", -1),
    ("ammonium", "NH4", 1),
    ("carbonate", "CO3", -2),
    ("phosphate", "PO4", -3),
    ("hydroxide", "OH", -1),
    ("permanganate", "MnO4", -1),
    ("dichromate", "Cr2O7", -2),
)
ISOTOPES = (
    ("carbon", 14),
    ("nitrogen", 15),
    ("oxygen", 18),
    ("sodium", 23),
    ("chlorine", 37),
    ("potassium", 40),
    ("iron", 56),
    ("cobalt", 60),
    ("copper", 63),
    ("zinc", 64),
    ("strontium", 90),
    ("silver", 107),
    ("tin", 120),
    ("iodine", 131),
    ("caesium", 137),
    ("xenon", 129),
    ("bromine", 81),
    ("magnesium", 26),
)


def period_group(z: int) -> tuple[int, int]:
    """Period and IUPAC group (1-18) of element ``z`` <= 56 from the noble-gas boundaries."""
    period = next(i for i, last in enumerate(NOBLE) if z <= last) if z <= 54 else 6
    pos = z - NOBLE[period - 1]
    if period == 1:
        return 1, (1 if z == 1 else 18)
    if period in (2, 3):
        return period, pos if pos <= 2 else pos + 10
    return period, pos


def formula_counts(formula: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for sym, num in re.findall(r"([A-Z][a-z]?)(\d*)", formula):
        counts[sym] = counts.get(sym, 0) + int(num or 1)
    return counts


def protons(formula: str) -> int:
    return sum(SYMBOL_Z[s] * n for s, n in formula_counts(formula).items())


def element_label(z: int) -> str:
    return TABLE[z - 1][1].lower()


def elements(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        if level == 0:
            a, b = rng.sample(range(1, 29), 2)
            z, how = (
                a + b,
                f"the sum of the atomic numbers of {element_label(a)} and {element_label(b)}",
            )
            meta: dict[str, Any] = {"kind": "z_sum", "elements": [TABLE[a - 1][0], TABLE[b - 1][0]]}
        elif level == 1:
            a, b, c = rng.sample(range(2, 20), 3)
            z = a * b - c
            if not 1 <= z <= 56:
                return elements(rng, level, variant)
            how = (
                f"the atomic number of {element_label(a)} multiplied by that of "
                f"{element_label(b)}, minus the atomic number of {element_label(c)}"
            )
            meta = {
                "kind": "z_product",
                "elements": [TABLE[a - 1][0], TABLE[b - 1][0], TABLE[c - 1][0]],
            }
        else:
            a = rng.randint(3, 38)
            period, group = period_group(a)
            below = [x for x in range(a + 1, 57) if period_group(x) == (period + 1, group)]
            if not below:
                return elements(rng, level, variant)
            z = below[0]
            how = (
                f"directly below {element_label(a)} in the periodic table (same group, next period)"
            )
            meta = {"kind": "below", "element": TABLE[a - 1][0]}
        verb = "lies" if level == 2 else "has an atomic number equal to"
        question = f"Which chemical element {verb} {how}? Give its chemical symbol."
        return {
            "question": question,
            "scorer": "exact",
            "answer": [TABLE[z - 1][0], TABLE[z - 1][1]],
            "meta": meta,
        }
    if variant == 1:
        if level == 0:
            (name, mass), k = rng.choice(ISOTOPES), rng.randint(2, 25)
            value = k * (mass - NAME_Z[name.capitalize()])
            question = (
                f"How many neutrons are there in total in the nuclei of {k} atoms of {name}-{mass}?"
            )
            meta = {"kind": "neutrons", "element": name, "mass_number": mass, "count": k}
        elif level == 1:
            name, formula = rng.choice(MOLECULES)
            k = rng.randint(2, 5)
            value = k * protons(formula)
            question = (
                f"How many protons are there in total in {k} molecules (or formula units) "
                f"of {name}, {formula}?"
            )
            meta = {"kind": "protons", "formula": formula, "count": k}
        else:
            name, formula, charge = rng.choice(IONS)
            k = rng.randint(2, 4)
            value = k * (protons(formula) - charge)
            question = (
                f"How many electrons are there in total in {k} {name} ions ({formula} with an "
                f"overall charge of {charge:+d})?"
            )
            meta = {"kind": "electrons", "formula": formula, "charge": charge, "count": k}
        return {"question": question, "scorer": "numeric", "answer": str(value), "meta": meta}
    a = rng.randint(3, 38)
    period, group = period_group(a)
    if level == 0:  # hydrogen and helium are left out: their group is a matter of convention
        right = [z for z in range(3, 57) if period_group(z)[1] == group and z != a]
        wrong = [z for z in range(3, 57) if period_group(z)[1] != group and z != a]
        question = (
            "Which of these elements is in the same group of the periodic table as "
            f"{element_label(a)}?"
        )
        meta = {"kind": "same_group", "element": TABLE[a - 1][0]}
    else:
        p, g = (
            rng.randint(2, 5),
            rng.choice((1, 2, 13, 14, 15, 16, 17, 18) if level == 1 else range(3, 13)),
        )
        if p < 4 and 3 <= g <= 12:
            p = 4
        right = [z for z in range(1, 57) if period_group(z) == (p, g)]
        wrong = [
            z
            for z in range(1, 57)
            if period_group(z)[0] in (p - 1, p, p + 1)
            and period_group(z) != (p, g)
            and abs(period_group(z)[1] - g) <= 2
        ]
        question = f"Which of these elements is in period {p} and group {g} of the periodic table?"
        meta = {"kind": "position", "period": p, "group": g}
    if not right or len(wrong) < 3:
        return elements(rng, level, variant)
    pick = lambda z: TABLE[z - 1][1]  # noqa: E731
    return {
        "question": question,
        "scorer": "mc",
        "correct": pick(rng.choice(right)),
        "distractors": [pick(z) for z in rng.sample(wrong, 3)],
        "meta": meta,
    }


# ---- proofs -----------------------------------------------------------------------------------
def _protons_by_scan(formula: str) -> int:
    """Total atomic number of a formula, scanned character by character."""
    total, i = 0, 0
    while i < len(formula):
        j = i + 1 + (i + 1 < len(formula) and formula[i + 1].islower())
        k = j
        while k < len(formula) and formula[k].isdigit():
            k += 1
        total += SYMBOL_Z[formula[i:j]] * int(formula[j:k] or "1")
        i = k
    return total


def _symbol_sum(row: dict[str, Any]) -> str:
    return TABLE[sum(SYMBOL_Z[s] for s in row["meta"]["elements"]) - 1][0]


def _symbol_product(row: dict[str, Any]) -> str:
    a, b, c = (SYMBOL_Z[s] for s in row["meta"]["elements"])
    return TABLE[a * b - c - 1][0]


def _below(row: dict[str, Any]) -> str:
    z = SYMBOL_Z[row["meta"]["element"]]
    lengths = {1: 2, 2: 8, 3: 8, 4: 18, 5: 18, 6: 32}  # elements per period
    period, group = period_group(z)
    return TABLE[z + lengths[period if group <= 2 else period + 1] - 1][0]


def _particles(row: dict[str, Any]) -> str:
    meta, kind = row["meta"], row["meta"]["kind"]
    if kind == "neutrons":
        return str(meta["count"] * (meta["mass_number"] - NAME_Z[meta["element"].capitalize()]))
    total = _protons_by_scan(meta["formula"])
    return str(meta["count"] * (total if kind == "protons" else total - meta["charge"]))


def _placed(row: dict[str, Any]) -> str:
    meta, kind = row["meta"], row["meta"]["kind"]

    def fits(name: str) -> bool:
        spot = period_group(NAME_Z[name])
        if kind == "position":
            return spot == (meta["period"], meta["group"])
        return spot[1] == period_group(SYMBOL_Z[meta["element"]])[1]

    (right,) = [c for c in row["choices"] if fits(c)]
    return right


EXPECTED = {
    "z_sum": _symbol_sum,
    "z_product": _symbol_product,
    "below": _below,
    "neutrons": _particles,
    "protons": _particles,
    "electrons": _particles,
    "same_group": _placed,
    "position": _placed,
}
