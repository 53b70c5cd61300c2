# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-knowledge-v2: timeless facts that have to be combined, not recalled (spec 001, -v2 wave).

Five categories over small embedded tables of settled facts: chemical elements 1-56 (symbol and
name; period and group are derived from the atomic number, never typed), the Gregorian calendar
(day counts, weekdays and leap years around fixed historic dates, all computed with
``datetime``), units with exact legal definitions (inch = 25.4 mm, pound = 0.45359237 kg, ...),
SI prefixes, and Roman numerals. Each row stores what it asks in ``meta``; ``prove`` recomputes
the answer another way (formula parsing, ordinal-day arithmetic, a Roman-numeral parser) and
tests/gen/test_eval_knowledge_v2.py re-derives it again, including the periodic-table
positions from an Aufbau (Madelung-order) electron filling.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, v2
from families.multilingual.lexicon import EN_DAYS as WEEKDAYS
from families.multilingual.lexicon import EN_MONTHS as MONTHS

DATASET_ID = "eval-knowledge-v2"
KIND = "eval"
DESCRIPTION = (
    "Derived timeless facts: element arithmetic, Gregorian calendar computations on fixed "
    "historic dates, exact unit chains, SI prefixes and Roman numerals; mixes mc, exact and "
    "numeric rows; supersedes eval-knowledge-v1."
)
SEED = 2_000_401
COUNT = 120
CREATED = "2026-09-01"
DEFAULT_SCORER = "exact"
CATEGORIES = ("elements", "calendar", "units", "si_prefixes", "roman_numerals")
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


# ---- calendar ---------------------------------------------------------------------------------
EVENTS = (
    ("1776-07-04", "the adoption of the United States Declaration of Independence"),
    ("1789-07-14", "the storming of the Bastille"),
    ("1804-12-02", "the coronation of Napoleon"),
    ("1815-06-18", "the Battle of Waterloo"),
    ("1863-01-10", "the opening of the first London Underground line"),
    ("1869-11-17", "the opening of the Suez Canal"),
    ("1871-01-18", "the proclamation of the German Empire"),
    ("1886-10-28", "the dedication of the Statue of Liberty"),
    ("1903-12-17", "the Wright brothers' first powered flight"),
    ("1912-04-15", "the sinking of the Titanic"),
    ("1914-06-28", "the assassination of Archduke Franz Ferdinand"),
    ("1918-11-11", "the armistice that ended the fighting of the First World War"),
    ("1945-05-08", "Victory in Europe Day"),
    ("1953-05-29", "the first ascent of Mount Everest"),
    ("1957-10-04", "the launch of Sputnik 1"),
    ("1961-04-12", "Yuri Gagarin's spaceflight"),
    ("1963-08-28", "the March on Washington"),
    ("1969-07-20", "the Apollo 11 Moon landing"),
    ("1989-11-09", "the fall of the Berlin Wall"),
    ("1990-10-03", "German reunification"),
    ("1994-05-06", "the official opening of the Channel Tunnel"),
)


def long_date(day: dt.date) -> str:
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def calendar(rng: random.Random, level: int, variant: int) -> Item:
    when, what = rng.choice(EVENTS)
    day = dt.date.fromisoformat(when)
    event = f"{what} ({long_date(day)})"
    if variant == 0:
        if level < 2:
            other = day + dt.timedelta(days=rng.randint(40, 300 if level == 0 else 3000))
            question = (
                f"How many days passed from {event} to {long_date(other)}? Count {long_date(day)} "
                f"as day 0."
            )
        else:
            when2, what2 = rng.choice([e for e in EVENTS if e[0] > when])
            other = dt.date.fromisoformat(when2)
            question = (
                f"How many days passed from {event} to {what2} ({long_date(other)})? Count "
                f"the first date as day 0."
            )
        meta: dict[str, Any] = {
            "kind": "days_between",
            "dates": [day.isoformat(), other.isoformat()],
        }
        return {
            "question": question + " All dates are in the Gregorian calendar.",
            "scorer": "numeric",
            "answer": str((other - day).days),
            "meta": meta,
        }
    if variant == 1:
        if level == 0:
            target, ask = day, f"On which day of the week did {event} take place?"
        elif level == 1:
            n = rng.randint(100, 5000)
            target = day + dt.timedelta(days=n)
            ask = f"Which day of the week was it {n} days after {event}?"
        else:
            k = rng.choice((100, 150, 200, 250))
            target = day.replace(year=day.year + k)
            ask = f"On which day of the week does the {k}th anniversary of {event} fall?"
        meta = {"kind": "weekday", "date": target.isoformat()}
        return {
            "question": ask + " All dates are in the Gregorian calendar.",
            "scorer": "exact",
            "answer": WEEKDAYS[target.weekday()],
            "meta": meta,
        }
    if level == 0:
        leap = rng.choice([y for y in range(1600, 2401, 4) if y % 100 or y % 400 == 0])
        centuries = [y for y in range(1700, 2500, 100) if y % 400]
        near = [leap + d for d in (-2, -1, 1, 2, 3) if 1600 <= leap + d <= 2400]
        wrong = rng.sample(centuries, 2) + [rng.choice(near)]
        meta = {"kind": "leap_year"}
        return {
            "question": "In the Gregorian calendar, which of these years is a leap year?",
            "scorer": "mc",
            "correct": str(leap),
            "distractors": [str(y) for y in wrong],
            "meta": meta,
        }
    n = rng.randint(500, 3000) if level == 1 else rng.randint(20_000, 60_000)
    target = day + dt.timedelta(days=n)
    naive = day.toordinal() + n  # distractors: a leap day too many or too few, 365-day years
    years, rest = divmod(n, 365)
    flat = dt.date(day.year + years, day.month, min(day.day, 28)) + dt.timedelta(days=rest)
    slips = {long_date(dt.date.fromordinal(naive + d)) for d in (-1, 1)} | {long_date(flat)}
    slips.discard(long_date(target))
    if len(slips) < 3:
        slips.add(long_date(target + dt.timedelta(days=2)))
    meta = {"kind": "date_after", "date": day.isoformat(), "days": n}
    question = (
        f"Which date is exactly {n} days after {event}? All dates are in the Gregorian calendar."
    )
    return {
        "question": question,
        "scorer": "mc",
        "correct": long_date(target),
        "distractors": sorted(slips)[:3],
        "meta": meta,
    }


# ---- units (exact legal definitions) ----------------------------------------------------------
INCH = Fraction(254, 10_000)
LENGTHS = {
    "inch": INCH,
    "foot": 12 * INCH,
    "yard": 36 * INCH,
    "mile": 63_360 * INCH,
    "nautical mile": Fraction(1852),
    "metre": Fraction(1),
    "kilometre": Fraction(1000),
    "centimetre": Fraction(1, 100),
}
POUND = Fraction(45_359_237, 100_000_000)
GALLON = 231 * INCH**3  # US liquid gallon
UNIT_PLURALS = {
    "inch": "inches",
    "foot": "feet",
    "yard": "yards",
    "mile": "miles",
    "nautical mile": "nautical miles",
    "metre": "metres",
    "kilometre": "kilometres",
    "centimetre": "centimetres",
}
MILE = 63_360 * INCH
CONVERSIONS = (  # (question with {x}, exact value as a function of x, level)
    ("How many centimetres are in {x} inches?", lambda x: x * INCH * 100, 0),
    ("How many metres are in {x} feet?", lambda x: x * 12 * INCH, 0),
    ("How many kilograms are in {x} pounds?", lambda x: x * POUND, 0),
    ("How many metres are in {x} yards?", lambda x: x * 36 * INCH, 0),
    ("How many kilometres are in {x} miles?", lambda x: x * MILE / 1000, 0),
    ("How many grams are in {x} ounces (avoirdupois)?", lambda x: x * POUND * 1000 / 16, 0),
    ("What is a speed of {x} miles per hour in metres per second?", lambda x: x * MILE / 3600, 1),
    ("How many hectares are in {x} acres?", lambda x: x * 4840 * (36 * INCH) ** 2 / 10_000, 1),
    ("How many litres are in {x} US liquid gallons?", lambda x: x * GALLON * 1000, 1),
    ("What is a speed of {x} knots in kilometres per hour?", lambda x: x * Fraction(1852, 1000), 1),
    ("How many kilograms are in {x} stone?", lambda x: x * 14 * POUND, 1),
    ("How many litres are in {x} cubic feet?", lambda x: x * (12 * INCH) ** 3 * 1000, 2),
    ("How many square kilometres are in {x} square miles?", lambda x: x * (MILE / 1000) ** 2, 2),
    ("How many US fluid ounces are in {x} litres?", lambda x: x * 128 / (GALLON * 1000), 2),
    (
        "A car covers {x} miles per US liquid gallon of fuel. How many litres of fuel does it use "
        "per 100 kilometres?",
        lambda x: 100 * GALLON * 1000 / (x * MILE / 1000),
        2,
    ),
    (
        "What is a speed of {x} feet per second in kilometres per hour?",
        lambda x: x * 12 * INCH * 3600 / 1000,
        2,
    ),
)


def units(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        which = rng.choice([i for i, c in enumerate(CONVERSIONS) if c[2] == level])
        template, convert, _ = CONVERSIONS[which]
        x = Fraction(rng.randint(11, 999), rng.choice((1, 10)))
        answer = v2.fmt_decimal(convert(x), 2)
        shown = v2.fmt_fraction(x) if x.denominator == 1 else v2.fmt_decimal(x, 1)
        question = (
            template.format(x=shown)
            + " Use the exact definitions of the units and round to 2 decimal places."
        )
        meta: dict[str, Any] = {
            "kind": "convert",
            "x": str(x),
            "conversion": which,
            "tolerance": 0.01,
        }
        return {"question": question, "scorer": "numeric", "answer": answer, "meta": meta}
    names = ["inch", "foot", "yard", "mile", "nautical mile"]
    if variant == 1:
        big, small = (("mile", "foot"), ("nautical mile", "centimetre"), ("mile", "inch"))[level]
        k = rng.randint(2, 40)
        if level == 2:
            extra = rng.randint(2, 9)
            value = k * LENGTHS[big] / LENGTHS[small] + extra * LENGTHS["yard"] / LENGTHS[small]
            question = (
                f"How many {UNIT_PLURALS[small]} are in {k} {UNIT_PLURALS[big]} plus {extra} yards?"
            )
        else:
            extra = 0
            value = k * LENGTHS[big] / LENGTHS[small]
            question = f"How many {UNIT_PLURALS[small]} are in {k} {UNIT_PLURALS[big]}?"
        meta = {"kind": "length_count", "from": big, "to": small, "count": k, "extra_yards": extra}
        assert value.denominator == 1
        return {
            "question": question + " Give an exact value.",
            "scorer": "numeric",
            "answer": str(value.numerator),
            "meta": meta,
        }
    while True:
        picks = rng.sample(names + ["metre", "kilometre"], 4)
        amounts = {
            u: rng.randint(1, 2000 if u in ("inch", "foot", "yard", "metre") else 5) for u in picks
        }
        sizes = sorted((amounts[u] * LENGTHS[u], u) for u in picks)
        margin = Fraction(105, 100) if level == 2 else Fraction(125, 100)
        if sizes[-1][0] >= sizes[-2][0] * margin and sizes[-1][0] < sizes[-2][0] * 3:
            break
    label = lambda u: f"{amounts[u]} {UNIT_PLURALS[u] if amounts[u] > 1 else u}"  # noqa: E731
    meta = {"kind": "longest", "amounts": {label(u): [amounts[u], u] for u in picks}}
    return {
        "question": "Which of these lengths is the longest?",
        "scorer": "mc",
        "correct": label(sizes[-1][1]),
        "distractors": [label(u) for _, u in sizes[:-1]],
        "meta": meta,
    }


# ---- SI prefixes ------------------------------------------------------------------------------
PREFIXES = (
    ("yotta", 24),
    ("zetta", 21),
    ("exa", 18),
    ("peta", 15),
    ("tera", 12),
    ("giga", 9),
    ("mega", 6),
    ("kilo", 3),
    ("hecto", 2),
    ("deca", 1),
    ("deci", -1),
    ("centi", -2),
    ("milli", -3),
    ("micro", -6),
    ("nano", -9),
    ("pico", -12),
    ("femto", -15),
    ("atto", -18),
    ("zepto", -21),
    ("yocto", -24),
)
EXPONENT = dict(PREFIXES)
BY_EXPONENT = {e: p for p, e in PREFIXES}
SI_UNITS = ("metre", "gram", "second", "joule", "watt", "volt")


def power_text(exponent: int) -> str:
    return (
        str(10**exponent)
        if exponent >= 0
        else v2.fmt_decimal(Fraction(1, 10**-exponent), -exponent)
    )


def si_prefixes(rng: random.Random, level: int, variant: int) -> Item:
    thirds = [p for p, e in PREFIXES if e % 3 == 0 and abs(e) <= 18]
    if variant == 0:
        unit = rng.choice(SI_UNITS[:2] if level == 2 else SI_UNITS)
        small, big = sorted(rng.sample(thirds, 2), key=EXPONENT.__getitem__)
        power = 1 if level < 2 else rng.choice((2, 3))
        x = rng.randint(2, 9) if level == 0 else rng.randint(11, 99)
        shape = {1: "", 2: "square ", 3: "cubic "}[power]
        if power > 1 and EXPONENT[big] - EXPONENT[small] > 9:
            return si_prefixes(rng, level, variant)
        value = x * 10 ** (power * (EXPONENT[big] - EXPONENT[small]))
        question = (
            f"How many {shape}{small}{unit}s are in {x} {shape}{big}{unit}s? Give the "
            f"number written out in full."
        )
        meta: dict[str, Any] = {
            "kind": "prefix_count",
            "x": x,
            "from": big,
            "to": small,
            "power": power,
        }
        return {"question": question, "scorer": "numeric", "answer": str(value), "meta": meta}
    if variant == 1:
        if level == 0:
            e = rng.choice([e for _, e in PREFIXES])
            ask = f"Which SI prefix stands for a factor of 10^{e}?"
            parts = [BY_EXPONENT[e]]
        else:
            while True:
                parts = rng.sample([p for p, _ in PREFIXES], 3 if level == 2 else 2)
                e = (
                    EXPONENT[parts[0]]
                    + EXPONENT[parts[1]]
                    - (EXPONENT[parts[2]] if level == 2 else 0)
                )
                if e in BY_EXPONENT and BY_EXPONENT[e] not in parts:
                    break
            if level == 1:
                ask = (
                    f"Which single SI prefix equals the factor of {parts[0]} multiplied by the "
                    f"factor of {parts[1]}?"
                )
            else:
                ask = (
                    f"Which single SI prefix equals the factor of {parts[0]} multiplied by the "
                    f"factor of {parts[1]} and divided by the factor of {parts[2]}?"
                )
        answer = [BY_EXPONENT[e]] + (["deka"] if e == 1 else [])
        meta = {"kind": "prefix_name", "prefixes": parts, "level": level}
        return {
            "question": ask + " Give the prefix name.",
            "scorer": "exact",
            "answer": answer,
            "meta": meta,
        }
    unit = rng.choice(SI_UNITS)
    margin = (Fraction(3), Fraction(3, 2), Fraction(11, 10))[level]
    while True:
        amounts = [
            (Fraction(rng.randint(1, 999), rng.choice((1, 10, 100))), rng.choice(thirds))
            for _ in range(4)
        ]
        sizes = sorted(((x * Fraction(10) ** EXPONENT[p], i) for i, (x, p) in enumerate(amounts)))
        spread = sizes[-1][0] / sizes[0][0]
        if (
            sizes[-1][0] >= sizes[-2][0] * margin
            and spread < 10**9
            and len({p for _, p in amounts}) >= 3
        ):
            break
    texts = [
        f"{v2.fmt_fraction(x) if x.denominator == 1 else float(x)} {p}{unit}s" for x, p in amounts
    ]
    meta = {
        "kind": "largest",
        "quantities": [[t, str(x), p] for t, (x, p) in zip(texts, amounts, strict=True)],
    }
    return {
        "question": "Which of these quantities is the largest?",
        "scorer": "mc",
        "correct": texts[sizes[-1][1]],
        "distractors": [texts[i] for _, i in sizes[:-1]],
        "meta": meta,
    }


# ---- Roman numerals ---------------------------------------------------------------------------
ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def to_roman(n: int, subtractive: bool = True) -> str:
    out = ""
    for value, text in ROMAN:
        if not subtractive and len(text) == 2:
            continue
        while n >= value:
            out, n = out + text, n - value
    return out


def roman_numerals(rng: random.Random, level: int, variant: int) -> Item:
    top = (100, 2000, 3999)[level]
    if variant == 0:
        if level < 2:
            n = rng.randint(40 if level else 14, top)
            question = f"Write {n} in Roman numerals."
            meta: dict[str, Any] = {"kind": "to_roman", "numbers": [n], "op": None}
        else:
            a, b = rng.randint(400, 1999), rng.randint(400, 1999)
            n = a + b
            question = (
                f"Add the Roman numerals {to_roman(a)} and {to_roman(b)}, and write the sum "
                f"in Roman numerals."
            )
            meta = {"kind": "to_roman", "numbers": [a, b], "op": "+"}
        return {"question": question, "scorer": "exact", "answer": to_roman(n), "meta": meta}
    if variant == 1:
        if level < 2:
            n = rng.randint(40 if level else 14, top)
            question = f"What number does the Roman numeral {to_roman(n)} stand for?"
            meta = {"kind": "from_roman", "numerals": [to_roman(n)], "op": None}
        else:
            a, b = rng.randint(40, 400), rng.randint(4, 49)
            n = a * b
            question = (
                f"What is {to_roman(a)} multiplied by {to_roman(b)}? Give the result as an "
                f"ordinary (Arabic) number."
            )
            meta = {"kind": "from_roman", "numerals": [to_roman(a), to_roman(b)], "op": "*"}
        return {"question": question, "scorer": "numeric", "answer": str(n), "meta": meta}
    n = rng.choice([k for k in range(14, top + 1) if to_roman(k) != to_roman(k, False)])
    wrong = [
        to_roman(n, subtractive=False),
        to_roman(n + rng.choice((1, 10, -1, -10))),
        to_roman(n + rng.choice((100, 5, -5, -100))),
    ]
    shortcut = {99: "IC", 49: "IL", 999: "IM", 95: "VC", 45: "VL", 490: "XD", 990: "XM"}
    for k, text in shortcut.items():  # a tempting but invalid subtraction
        if n % (10 ** len(str(k))) == k:
            wrong[0] = to_roman(n - k) + text
    wrong = list(dict.fromkeys(w for w in wrong if w and w != to_roman(n)))
    if len(wrong) < 3:
        return roman_numerals(rng, level, variant)
    meta = {"kind": "roman_choice", "number": n}
    return {
        "question": f"Which of these is the standard Roman numeral for {n}?",
        "scorer": "mc",
        "correct": to_roman(n),
        "distractors": wrong,
        "meta": meta,
    }


# ---- rows and proofs --------------------------------------------------------------------------
BUILDERS = {
    "elements": elements,
    "calendar": calendar,
    "units": units,
    "si_prefixes": si_prefixes,
    "roman_numerals": roman_numerals,
}


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: category cycles fastest, then difficulty, then the question form."""
    category, level, variant = v2.cell(idx, CATEGORIES)
    item = BUILDERS[category](rng, level, variant)
    return v2.item_row(
        rng, f"know2-{idx + 1:04d}", category, level, item, v2.plain_suffix("the answer")
    )


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


def _days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (era arithmetic, no datetime)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    return era * 146_097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719_468


def _zeller(y: int, m: int, d: int) -> str:
    if m < 3:
        m, y = m + 12, y - 1
    h = (d + 13 * (m + 1) // 5 + y % 100 + y % 100 // 4 + y // 400 - 2 * (y // 100)) % 7
    return ("Saturday", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday")[h]


def _roman_value(text: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, ch in enumerate(text):
        v = values[ch]
        total += -v if i + 1 < len(text) and values[text[i + 1]] > v else v
    return total


def _iso(text: str) -> tuple[int, int, int]:
    y, m, d = (int(x) for x in text.split("-"))
    return y, m, d


def _expected(row: dict[str, Any]) -> Any:  # noqa: C901 - one branch per question kind
    meta, kind = row["meta"], row["meta"]["kind"]
    if kind == "z_sum":
        return TABLE[sum(SYMBOL_Z[s] for s in meta["elements"]) - 1][0]
    if kind == "z_product":
        a, b, c = (SYMBOL_Z[s] for s in meta["elements"])
        return TABLE[a * b - c - 1][0]
    if kind == "below":
        z = SYMBOL_Z[meta["element"]]
        lengths = {1: 2, 2: 8, 3: 8, 4: 18, 5: 18, 6: 32}  # elements per period
        period, group = period_group(z)
        return TABLE[z + lengths[period if group <= 2 else period + 1] - 1][0]
    if kind == "neutrons":
        return str(meta["count"] * (meta["mass_number"] - NAME_Z[meta["element"].capitalize()]))
    if kind == "protons":
        return str(meta["count"] * _protons_by_scan(meta["formula"]))
    if kind == "electrons":
        return str(meta["count"] * (_protons_by_scan(meta["formula"]) - meta["charge"]))
    if kind in ("same_group", "position"):

        def fits(name: str) -> bool:
            spot = period_group(NAME_Z[name])
            if kind == "position":
                return spot == (meta["period"], meta["group"])
            return spot[1] == period_group(SYMBOL_Z[meta["element"]])[1]

        (right,) = [c for c in row["choices"] if fits(c)]
        return right
    if kind == "days_between":
        (a, b) = (_days_from_civil(*_iso(d)) for d in meta["dates"])
        return str(b - a)
    if kind == "weekday":
        return _zeller(*_iso(meta["date"]))
    if kind == "leap_year":
        (right,) = [
            c for c in row["choices"] if int(c) % 4 == 0 and (int(c) % 100 or int(c) % 400 == 0)
        ]
        return right
    if kind == "date_after":
        target = _days_from_civil(*_iso(meta["date"])) + meta["days"]
        (right,) = [
            c
            for c in row["choices"]
            if _days_from_civil(
                int(c.split()[2]), MONTHS.index(c.split()[1]) + 1, int(c.split()[0])
            )
            == target
        ]
        return right
    if kind == "convert":
        from decimal import ROUND_HALF_UP, Decimal

        value = CONVERSIONS[meta["conversion"]][1](Fraction(meta["x"]))
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        return str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    if kind == "length_count":
        inches = {"mile": 63_360, "nautical mile": Fraction(185_200 * 100, 254), "yard": 36}
        per = {"foot": 12, "inch": 1, "centimetre": Fraction(100, 254)}  # inches per unit
        total = (meta["count"] * inches[meta["from"]] + meta["extra_yards"] * 36) / per[meta["to"]]
        return str(total)
    if kind == "longest":
        metres = {label: n * LENGTHS[u] for label, (n, u) in meta["amounts"].items()}
        return max(metres, key=metres.__getitem__)
    if kind == "prefix_count":
        shift = EXPONENT[meta["from"]] - EXPONENT[meta["to"]]
        return str(meta["x"]) + "0" * (shift * meta["power"])
    if kind == "prefix_name":
        p = meta["prefixes"]
        e = (
            EXPONENT[p[0]]
            if meta["level"] == 0
            else EXPONENT[p[0]] + EXPONENT[p[1]] - (EXPONENT[p[2]] if meta["level"] == 2 else 0)
        )
        return BY_EXPONENT[e]
    if kind == "largest":
        sizes = {t: Fraction(x) * 10 ** (EXPONENT[p] + 30) for t, x, p in meta["quantities"]}
        return max(sizes, key=sizes.__getitem__)
    if kind == "to_roman":
        n = sum(meta["numbers"])
        (text,) = [t for t in (row["answer"],) if _roman_value(t) == n]
        return text
    if kind == "from_roman":
        values = [_roman_value(t) for t in meta["numerals"]]
        return str(values[0] * values[1] if meta["op"] == "*" else values[0])
    if kind == "roman_choice":
        (right,) = [
            c
            for c in row["choices"]
            if _roman_value(c) == meta["number"] and to_roman(_roman_value(c)) == c
        ]
        return right
    raise AssertionError(f"no proof for {kind}")


def prove(row: dict[str, Any]) -> None:
    expected = _expected(row)
    if row["scorer"] == "mc":
        assert v2.check_mc_layout(row) == expected, (row["id"], expected)
    elif row["scorer"] == "exact":
        accepted = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
        assert accepted[0] == expected, (row["id"], row["answer"], expected)
    else:
        assert Fraction(row["answer"]) == Fraction(expected), (row["id"], row["answer"], expected)


def prove_all(rows: list[dict[str, Any]]) -> None:
    v2.check_suite(rows, CATEGORIES)


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
