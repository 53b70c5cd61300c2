# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-knowledge-v1: timeless facts derived from tables embedded here or computed (spec 001).

Subjects: chemical elements, Roman numerals, number bases, prime factors, unit conversions,
SI prefixes, geometry, planet order and the Gregorian calendar. Every answer is computed from an
embedded table or formula, never typed, and ``prove`` checks it another way: Roman numerals are
parsed back, base conversions redone by repeated division, factors and divisors brute-forced,
conversions run backwards, geometry cross-checked with a second formula, and the tables
themselves cross-checked at import (symbol list against the table, unit identities such as
1 mile = 1760 yards, planets ordered by their orbits).
"""

from __future__ import annotations

import calendar
import math
import random
import re
import sys
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib

DATASET_ID = "eval-knowledge-v1"
KIND = "eval"
DESCRIPTION = (
    "Timeless facts computed from embedded tables: elements, Roman numerals, bases, prime "
    "factors, unit conversions, SI prefixes, geometry, planet order and calendar facts."
)
SEED = 1_000_404
COUNT = 144
CREATED = "2026-11-29"
DEFAULT_SCORER = "numeric"
SUBJECTS = {
    "elements": "chemistry",
    "roman_numerals": "numeral systems",
    "base_conversion": "numeral systems",
    "prime_factors": "number theory",
    "unit_conversion": "measurement",
    "si_prefixes": "measurement",
    "geometry": "geometry",
    "planets": "astronomy",
    "calendar_facts": "calendar",
}
CATEGORIES = tuple(SUBJECTS)
PER_CATEGORY = COUNT // len(CATEGORIES)
DIFFICULTIES = ("easy", "medium", "hard")
SUFFIX = "\n\nGive the final answer on the last line as 'Answer: {f}'."

# fmt: off
#: (atomic number, symbol, name); alternative accepted spellings in NAME_VARIANTS
ELEMENTS = (
    (1, "H", "Hydrogen"), (2, "He", "Helium"), (3, "Li", "Lithium"), (4, "Be", "Beryllium"),
    (5, "B", "Boron"), (6, "C", "Carbon"), (7, "N", "Nitrogen"), (8, "O", "Oxygen"),
    (9, "F", "Fluorine"), (10, "Ne", "Neon"), (11, "Na", "Sodium"), (12, "Mg", "Magnesium"),
    (13, "Al", "Aluminium"), (14, "Si", "Silicon"), (15, "P", "Phosphorus"), (16, "S", "Sulfur"),
    (17, "Cl", "Chlorine"), (18, "Ar", "Argon"), (19, "K", "Potassium"), (20, "Ca", "Calcium"),
    (21, "Sc", "Scandium"), (22, "Ti", "Titanium"), (23, "V", "Vanadium"),
    (24, "Cr", "Chromium"), (25, "Mn", "Manganese"), (26, "Fe", "Iron"), (27, "Co", "Cobalt"),
    (28, "Ni", "Nickel"), (29, "Cu", "Copper"), (30, "Zn", "Zinc"), (31, "Ga", "Gallium"),
    (32, "Ge", "Germanium"), (33, "As", "Arsenic"), (34, "Se", "Selenium"),
    (35, "Br", "Bromine"), (36, "Kr", "Krypton"), (37, "Rb", "Rubidium"),
    (38, "Sr", "Strontium"), (39, "Y", "Yttrium"), (40, "Zr", "Zirconium"),
    (41, "Nb", "Niobium"), (42, "Mo", "Molybdenum"), (43, "Tc", "Technetium"),
    (44, "Ru", "Ruthenium"), (45, "Rh", "Rhodium"), (46, "Pd", "Palladium"),
    (47, "Ag", "Silver"), (48, "Cd", "Cadmium"), (49, "In", "Indium"), (50, "Sn", "Tin"),
    (51, "Sb", "Antimony"), (52, "Te", "Tellurium"), (53, "I", "Iodine"), (54, "Xe", "Xenon"),
    (55, "Cs", "Caesium"), (56, "Ba", "Barium"), (74, "W", "Tungsten"), (78, "Pt", "Platinum"),
    (79, "Au", "Gold"), (80, "Hg", "Mercury"), (82, "Pb", "Lead"), (92, "U", "Uranium"),
)
NAME_VARIANTS = {"Aluminium": ["Aluminum"], "Sulfur": ["Sulphur"], "Caesium": ["Cesium"]}
#: the same symbols written out independently, in atomic-number order 1..56 (cross-check)
SYMBOLS_1_56 = (
    "H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se "
    "Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba"
)
#: symbols not starting with the English name's first letter (Latin or German origin)
FOREIGN_SYMBOLS = ("Na", "K", "Fe", "Ag", "Sn", "Sb", "W", "Au", "Hg", "Pb")
#: unit -> (dimension, exact size in SI base units) from the unit definitions
UNITS = {
    "metre": ("length", "1"), "kilometre": ("length", "1000"), "centimetre": ("length", "0.01"),
    "millimetre": ("length", "0.001"), "inch": ("length", "0.0254"),
    "foot": ("length", "0.3048"), "yard": ("length", "0.9144"), "mile": ("length", "1609.344"),
    "kilogram": ("mass", "1"), "gram": ("mass", "0.001"), "tonne": ("mass", "1000"),
    "pound": ("mass", "0.45359237"), "ounce": ("mass", "0.028349523125"),
    "litre": ("volume", "0.001"), "millilitre": ("volume", "0.000001"),
    "US gallon": ("volume", "0.003785411784"), "second": ("time", "1"), "minute": ("time", "60"),
    "hour": ("time", "3600"), "day": ("time", "86400"), "week": ("time", "604800"),
    "square metre": ("area", "1"), "hectare": ("area", "10000"), "acre": ("area", "4046.8564224"),
}
PLURAL = {"foot": "feet", "inch": "inches", "US gallon": "US gallons",
          "square metre": "square metres"}
EASY_PAIRS = (("kilometre", "metre"), ("metre", "centimetre"), ("tonne", "kilogram"),
              ("kilogram", "gram"), ("litre", "millilitre"), ("hour", "minute"), ("day", "hour"),
              ("week", "day"), ("hectare", "square metre"), ("centimetre", "millimetre"))
MEDIUM_PAIRS = (("inch", "centimetre"), ("foot", "metre"), ("mile", "kilometre"),
                ("pound", "kilogram"), ("US gallon", "litre"), ("ounce", "gram"),
                ("yard", "metre"))
HARD_PAIRS = (("kilometre", "mile"), ("kilogram", "pound"), ("litre", "US gallon"),
              ("metre", "foot"), ("centimetre", "inch"), ("hectare", "acre"))
#: (name, symbol, exponent)
SI_PREFIXES = (
    ("yotta", "Y", 24), ("zetta", "Z", 21), ("exa", "E", 18), ("peta", "P", 15),
    ("tera", "T", 12), ("giga", "G", 9), ("mega", "M", 6), ("kilo", "k", 3), ("hecto", "h", 2),
    ("deca", "da", 1), ("deci", "d", -1), ("centi", "c", -2), ("milli", "m", -3),
    ("micro", "µ", -6), ("nano", "n", -9), ("pico", "p", -12), ("femto", "f", -15),
    ("atto", "a", -18), ("zepto", "z", -21), ("yocto", "y", -24),
)
PLANETS = ("Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune")
#: mean orbital radius in astronomical units, only used to cross-check the order above
ORBIT_AU = (0.387, 0.723, 1.0, 1.524, 5.203, 9.537, 19.19, 30.07)
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
         (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
# fmt: on


def _check_tables() -> None:
    """The embedded tables agree with their independent cross-checks."""
    by_z = {z: (sym, name) for z, sym, name in ELEMENTS}
    assert [by_z[z][0] for z in range(1, 57)] == SYMBOLS_1_56.split()
    for sym, name in by_z.values():
        assert (sym[0] == name[0]) != (sym in FOREIGN_SYMBOLS), sym
    size = {u: Fraction(v) for u, (_, v) in UNITS.items()}
    identities = (
        ("foot", 12, "inch"),
        ("yard", 3, "foot"),
        ("mile", 1760, "yard"),
        ("pound", 16, "ounce"),
        ("day", 24, "hour"),
        ("week", 7, "day"),
        ("hour", 60, "minute"),
        ("US gallon", 231, None),
    )
    for big, factor, small in identities:
        if small is None:  # the US gallon is 231 cubic inches
            assert size[big] == factor * size["inch"] ** 3
        else:
            assert size[big] == factor * size[small], big
    assert size["acre"] == 4840 * size["yard"] ** 2
    exps = [e for _, _, e in SI_PREFIXES]
    assert exps == sorted(exps, reverse=True) and all(abs(e) <= 3 or e % 3 == 0 for e in exps)
    assert list(ORBIT_AU) == sorted(ORBIT_AU)


_check_tables()


def _pick(j: int, lo: int, hi: int) -> tuple[int, int]:
    """The ``j``-th of ``PER_CATEGORY`` disjoint slices of ``[lo, hi]``: rows never collide."""
    span = hi - lo + 1
    return lo + span * j // PER_CATEGORY, lo + span * (j + 1) // PER_CATEGORY - 1


def dec(value: Fraction, places: int | None = None) -> str:
    """Exact decimal text of a terminating fraction, or rounded half-up to ``places``."""
    if places is not None:
        q = Decimal(value.numerator) / Decimal(value.denominator)
        text = str(q.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
        return text.rstrip("0").rstrip(".") if "." in text else text
    scale = 0
    while (value * 10**scale).denominator != 1:
        scale += 1
        assert scale < 40, value
    digits = str(abs(value.numerator * 10**scale // value.denominator)).rjust(scale + 1, "0")
    text = digits[: len(digits) - scale] + ("." + digits[len(digits) - scale :] if scale else "")
    return ("-" if value < 0 else "") + text


def _mc(question: str, options: list[str], correct: str) -> dict[str, Any]:
    labels = [chr(ord("A") + i) for i in range(len(options))]
    listing = "\n".join(f"{lb}. {opt}" for lb, opt in zip(labels, options, strict=True))
    return {
        "prompt": f"{question}\n\n{listing}" + SUFFIX.format(f="<letter>"),
        "answer": labels[options.index(correct)],
        "choices": options,
        "scorer": "mc",
    }


def _plural(unit: str) -> str:
    return PLURAL.get(unit, unit + "s")


def _numeric(
    text: str, value: str, meta: dict[str, Any], tolerance: float | None = None
) -> dict[str, Any]:
    if tolerance is not None:
        meta = {**meta, "tolerance": tolerance}
    return {
        "prompt": text + SUFFIX.format(f="<number>"),
        "answer": value,
        "scorer": "numeric",
        "meta": meta,
    }


def _exact(text: str, value: str | list[str], meta: dict[str, Any], fmt: str) -> dict[str, Any]:
    return {"prompt": text + SUFFIX.format(f=fmt), "answer": value, "scorer": "exact", "meta": meta}


def _elements(rng: random.Random, level: int, j: int) -> dict[str, Any]:
    z, sym, name = ELEMENTS[(j * 23 + 5) % len(ELEMENTS)]
    if level == 0:
        return _exact(
            f"What is the chemical symbol of the element {name.lower()}?", sym, {"z": z}, "<symbol>"
        )
    if level == 1 and j % 2:
        return _numeric(f"What is the atomic number of {name.lower()}?", str(z), {"z": z})
    if level == 1:
        names = [name, *NAME_VARIANTS.get(name, [])]
        return _exact(
            f"Which chemical element has atomic number {z}?",
            names if len(names) > 1 else name,
            {"z": z},
            "<element name>",
        )
    picks = rng.sample(ELEMENTS, 4)
    best = max(picks)[2]
    names = [p[2] for p in picks]
    out = _mc("Which of these elements has the largest atomic number?", names, best)
    return {**out, "meta": {"z": [p[0] for p in picks]}}


def to_roman(n: int) -> str:
    out = []
    for value, letters in ROMAN:
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


def _roman(rng: random.Random, level: int, j: int) -> dict[str, Any]:
    lo, hi = ((1, 99), (100, 999), (1000, 3999))[level]
    n = rng.randint(*_pick(j, lo, hi))
    if level == 1:
        return _numeric(
            f"What number does the Roman numeral {to_roman(n)} stand for?", str(n), {"value": n}
        )
    return _exact(f"Write {n} in Roman numerals.", to_roman(n), {"value": n}, "<numeral>")


def _bases(rng: random.Random, level: int, j: int) -> dict[str, Any]:
    lo, hi = ((20, 255), (256, 4095), (4096, 65535))[level]
    n = rng.randint(*_pick(j, lo, hi))
    if level == 0:
        return _exact(
            f"Write the decimal number {n} in binary.",
            [f"{n:b}", f"0b{n:b}"],
            {"value": n, "base": 2},
            "<binary digits>",
        )
    if level == 1:
        return _numeric(
            f"What is the hexadecimal (base 16) number {n:X} in decimal (base 10)?",
            str(n),
            {"value": n, "base": 16},
        )
    return _exact(
        f"Write the decimal number {n} in hexadecimal.",
        [f"{n:X}", f"0x{n:X}"],
        {"value": n, "base": 16},
        "<hex digits>",
    )


def _factor(n: int) -> list[int]:
    """Prime factors with multiplicity, by trial division."""
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out + ([n] if n > 1 else [])


def _primes(rng: random.Random, level: int, j: int) -> dict[str, Any]:
    if level == 0:
        while True:
            n = rng.randint(*_pick(j, 301, 1999)) | 1
            if len(_factor(n)) > 1 and n % 3 and n % 5:
                break
        return _numeric(
            f"What is the smallest prime factor of {n}?",
            str(_factor(n)[0]),
            {"n": n, "ask": "smallest"},
        )
    if level == 1:
        while True:
            n = rng.randint(*_pick(j, 2000, 30000))
            if len(_factor(n)) > 2:
                break
        return _numeric(
            f"What is the largest prime factor of {n}?",
            str(_factor(n)[-1]),
            {"n": n, "ask": "largest"},
        )
    n = math.prod(rng.choice((2, 3, 5, 7, 11)) for _ in range(rng.randint(4, 7)))
    n = n * (j + 1) if n * (j + 1) < 10**6 else n
    counts = [_factor(n).count(p) for p in sorted(set(_factor(n)))]
    return _numeric(
        f"How many positive divisors does {n} have (including 1 and {n})?",
        str(math.prod(c + 1 for c in counts)),
        {"n": n, "ask": "divisors"},
    )


def _units(rng: random.Random, level: int, j: int) -> dict[str, Any]:
    pairs = (EASY_PAIRS, MEDIUM_PAIRS, HARD_PAIRS)[level]
    src, dst = pairs[j % len(pairs)] if level < 2 else pairs[(j // 3) % len(pairs)]
    if level == 2 and j % 2:
        temp_c = rng.randint(-40, 120)
        if j % 4 == 1:
            value = Fraction(temp_c) * 9 / 5 + 32
            return _numeric(
                f"Convert {temp_c} degrees Celsius to degrees Fahrenheit.",
                dec(value),
                {"from": "C", "to": "F", "value": temp_c},
            )
        temp_f = rng.randint(-40, 250)
        value = (Fraction(temp_f) - 32) * 5 / 9
        return _numeric(
            f"Convert {temp_f} degrees Fahrenheit to degrees Celsius, rounded to two "
            "decimal places.",
            dec(value, 2),
            {"from": "F", "to": "C", "value": temp_f},
            0.01,
        )
    amount = rng.randint(*_pick(j, 2, 400))
    value = amount * Fraction(UNITS[src][1]) / Fraction(UNITS[dst][1])
    meta = {"from": src, "to": dst, "value": amount}
    question = f"How many {_plural(dst)} are there in {amount} {_plural(src)}?"
    if level == 0:
        return _numeric(question, dec(value), meta)
    if level == 1:
        return _numeric(question + " Give the exact value.", dec(value), meta, 0.01)
    tol = max(0.01, round(float(value) / 1000, 2))  # 0.1 %: any correct definition-based route
    return _numeric(question + " Round to two decimal places.", dec(value, 2), meta, tol)


def _si(rng: random.Random, level: int, j: int) -> dict[str, Any]:
    name, sym, exp = SI_PREFIXES[(j * 7 + 3) % len(SI_PREFIXES)]
    if level == 0:
        return _numeric(
            f"The SI prefix '{name}' (symbol {sym}) stands for 10^n. What is n?",
            str(exp),
            {"prefix": name},
        )
    if level == 1:
        picks = [name, *rng.sample([p[0] for p in SI_PREFIXES if p[0] != name], 3)]
        rng.shuffle(picks)
        out = _mc(f"Which SI prefix stands for 10^{exp}?", picks, name)
        return {**out, "meta": {"prefix": name}}
    unit = ("metre", "gram", "litre", "second")[j % 4]
    small = [p for p in SI_PREFIXES if p[2] < exp and exp - p[2] <= 9]
    other, _, exp2 = rng.choice(small) if small else SI_PREFIXES[-2]
    amount = Fraction(rng.randint(11, 99), 10)
    value = amount * Fraction(10) ** (exp - exp2)
    return _numeric(
        f"How many {other}{unit}s are there in {dec(amount)} {name}{unit}s?",
        dec(value),
        {"prefixes": [name, other], "value": dec(amount)},
    )


def _geometry(rng: random.Random, level: int, j: int) -> dict[str, Any]:
    shape = j // 3 % 3
    if level == 0:
        a, b = rng.randint(*_pick(j, 3, 60)), rng.randint(3, 60)
        if shape == 0:
            return _numeric(
                f"What is the area of a rectangle {a} cm long and {b} cm wide, in "
                "square centimetres?",
                str(a * b),
                {"shape": "rectangle", "a": a, "b": b},
            )
        if shape == 1:
            return _numeric(
                f"What is the perimeter of a rectangle {a} m long and {b} m wide, in metres?",
                str(2 * (a + b)),
                {"shape": "rectangle_perimeter", "a": a, "b": b},
            )
        return _numeric(
            f"A triangle has a base of {a} cm and a height of {b} cm. What is its "
            "area in square centimetres?",
            dec(Fraction(a * b, 2)),
            {"shape": "triangle", "a": a, "b": b},
        )
    if level == 1:
        if shape == 1:
            base = ((3, 4), (5, 12), (8, 15), (7, 24), (20, 21))[j % 5]
            k = rng.randint(1, 9)
            a, b = base[0] * k, base[1] * k
            return _numeric(
                f"A right triangle has legs of {a} and {b}. How long is the hypotenuse?",
                str(math.isqrt(a * a + b * b)),
                {"shape": "hypotenuse", "a": a, "b": b},
            )
        r = rng.randint(*_pick(j, 2, 50))
        if shape == 0:
            return _numeric(
                f"What is the area of a circle of radius {r} cm, in square "
                "centimetres, rounded to two decimal places?",
                dec(Fraction(math.pi * r * r), 2),
                {"shape": "circle", "r": r},
                0.01,
            )
        return _numeric(
            f"What is the circumference of a circle of radius {r} cm, rounded to "
            "two decimal places?",
            dec(Fraction(2 * math.pi * r), 2),
            {"shape": "circumference", "r": r},
            0.01,
        )
    n = rng.randint(*_pick(j, 5, 40))
    if shape == 0:
        return _numeric(
            f"What is the sum of the interior angles of a convex polygon with {n} "
            "sides, in degrees?",
            str((n - 2) * 180),
            {"shape": "angle_sum", "n": n},
        )
    if shape == 1:
        return _numeric(
            f"How many diagonals does a convex polygon with {n} sides have?",
            str(n * (n - 3) // 2),
            {"shape": "diagonals", "n": n},
        )
    r = rng.randint(2, 20)
    return _numeric(
        f"What is the volume of a sphere of radius {r} cm, in cubic centimetres, "
        "rounded to two decimal places?",
        dec(Fraction(4 / 3 * math.pi * r**3), 2),
        {"shape": "sphere", "r": r},
        0.01,
    )


def _planets(rng: random.Random, level: int, j: int) -> dict[str, Any]:
    if level == 0:
        k = (j * 3) % 8
        return _exact(
            f"Counting outward from the Sun, which planet of the Solar System is {ORDINALS[k]}?",
            PLANETS[k],
            {"position": k + 1},
            "<planet>",
        )
    if level == 1:
        k = 1 + (j * 5) % 7
        if j % 2:
            return _exact(
                f"Counting outward from the Sun, which planet comes immediately "
                f"after {PLANETS[k - 1]}?",
                PLANETS[k],
                {"position": k + 1},
                "<planet>",
            )
        return _exact(
            f"Counting outward from the Sun, which planet comes immediately before {PLANETS[k]}?",
            PLANETS[k - 1],
            {"position": k},
            "<planet>",
        )
    picks = rng.sample(PLANETS, 4)
    far = j % 2 == 0
    best = max(picks, key=PLANETS.index) if far else min(picks, key=PLANETS.index)
    out = _mc(
        f"Which of these planets is {'farthest from' if far else 'closest to'} the Sun?",
        picks,
        best,
    )
    return {**out, "meta": {"ask": "farthest" if far else "closest"}}


def _calendar(rng: random.Random, level: int, j: int) -> dict[str, Any]:
    if level == 0:
        year, month = rng.randint(*_pick(j, 1901, 2099)), 2 if j % 2 else rng.randint(1, 12)
        days = calendar.monthrange(year, month)[1]
        return _numeric(
            f"How many days are there in {MONTHS[month - 1]} {year}?",
            str(days),
            {"year": year, "months": [month, month]},
        )
    if level == 1:
        year = (1700, 1800, 1900, 2000, 2100, 2400)[j // 3 % 6] + rng.choice((0, 0, 4, 12, 3))
        days = 366 if calendar.isleap(year) else 365
        return _numeric(
            f"How many days are there in the year {year} of the Gregorian calendar?",
            str(days),
            {"year": year, "months": [1, 12]},
        )
    year = rng.randint(*_pick(j, 1601, 2399))
    first = rng.randint(1, 6)
    last = rng.randint(first + 2, 12)
    days = sum(calendar.monthrange(year, m)[1] for m in range(first, last + 1))
    return _numeric(
        f"How many days are there from 1 {MONTHS[first - 1]} {year} to the last day "
        f"of {MONTHS[last - 1]} {year}, both included?",
        str(days),
        {"year": year, "months": [first, last]},
    )


BUILDERS = {
    "elements": _elements,
    "roman_numerals": _roman,
    "base_conversion": _bases,
    "prime_factors": _primes,
    "unit_conversion": _units,
    "si_prefixes": _si,
    "geometry": _geometry,
    "planets": _planets,
    "calendar_facts": _calendar,
}


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    category = CATEGORIES[idx % len(CATEGORIES)]
    j = idx // len(CATEGORIES)
    level = j % len(DIFFICULTIES)
    built = BUILDERS[category](rng, level, j)
    row = {
        "id": f"know-{idx + 1:04d}",
        "category": category,
        "difficulty": DIFFICULTIES[level],
        "prompt": built["prompt"],
        "answer": built["answer"],
        "scorer": built["scorer"],
        "meta": {**built["meta"], "subject": SUBJECTS[category]},
    }
    if "choices" in built:
        row["choices"] = built["choices"]
    return row


# --- proofs ----------------------------------------------------------------------------------

ROMAN_VALUE = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
CANONICAL_ROMAN = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")


def parse_roman(text: str) -> int:
    """Left to right: a symbol smaller than its right neighbour is subtracted."""
    values = [ROMAN_VALUE[c] for c in text]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def _digits(n: int, base: int) -> str:
    out = ""
    while n:
        n, d = divmod(n, base)
        out = "0123456789ABCDEF"[d] + out
    return out


def _ints(text: str) -> list[int]:
    return [int(v) for v in re.findall(r"(?<![\w.])-?\d+(?!\w|\.\d)", text)]


def _chosen(row: dict[str, Any]) -> str:
    return row["choices"][ord(row["answer"]) - ord("A")]


def _prove_elements(row: dict[str, Any]) -> None:
    by_name = {name.lower(): (z, sym) for z, sym, name in ELEMENTS}
    by_z = {z: name for z, _, name in ELEMENTS}
    prompt, answer = row["prompt"], row["answer"]
    if row["scorer"] == "mc":
        zs = [by_name[c.lower()][0] for c in row["choices"]]
        assert zs.count(max(zs)) == 1 and by_name[_chosen(row).lower()][0] == max(zs)
    elif "symbol" in prompt:
        name = re.search(r"the element (\w+)\?", prompt)[1]
        assert by_name[name][1] == answer
    elif "atomic number of" in prompt:
        assert by_name[re.search(r"atomic number of (\w+)\?", prompt)[1]][0] == int(answer)
    else:
        z = _ints(prompt)[0]
        names = answer if isinstance(answer, list) else [answer]
        assert by_z[z] == names[0] and names[1:] == NAME_VARIANTS.get(by_z[z], [])


def _roman_in(prompt: str) -> str:
    return re.search(r"Roman numeral ([IVXLCDM]+) ", prompt)[1]


def _prove_roman(row: dict[str, Any]) -> None:
    n = row["meta"]["value"]
    numeral = row["answer"] if row["scorer"] == "exact" else _roman_in(row["prompt"])
    assert CANONICAL_ROMAN.fullmatch(numeral) and parse_roman(numeral) == n, row["id"]
    assert str(n) in row["prompt"] or row["answer"] == str(n)


def _prove_bases(row: dict[str, Any]) -> None:
    n, base = row["meta"]["value"], row["meta"]["base"]
    digits = _digits(n, base)
    if row["scorer"] == "numeric":
        assert f" {digits} " in row["prompt"] and int(row["answer"]) == int(digits, base)
    else:
        prefix = "0b" if base == 2 else "0x"
        assert row["answer"] == [digits, prefix + digits] and _ints(row["prompt"])[0] == n


def _prove_primes(row: dict[str, Any]) -> None:
    n, answer = row["meta"]["n"], int(row["answer"])
    assert _ints(row["prompt"])[0] == n
    divisors = [d for d in range(1, n + 1) if n % d == 0]
    primes = [d for d in divisors if d > 1 and all(d % e for e in range(2, math.isqrt(d) + 1))]
    want = {"smallest": primes[0], "largest": primes[-1], "divisors": len(divisors)}
    assert answer == want[row["meta"]["ask"]], row["id"]


def _prove_units(row: dict[str, Any]) -> None:
    m = row["meta"]
    got = Fraction(row["answer"])
    if m["from"] == "C":  # run the conversion backwards
        assert (got - 32) * 5 / 9 == m["value"], row["id"]
        return
    if m["from"] == "F":  # rounded to 0.005 degC, i.e. 0.009 degF
        assert abs(got * 9 / 5 + 32 - m["value"]) <= Fraction(9, 1000), row["id"]
        return
    back = got * Fraction(UNITS[m["to"]][1]) / Fraction(UNITS[m["from"]][1])
    assert UNITS[m["to"]][0] == UNITS[m["from"]][0]
    slack = Fraction(m.get("tolerance", 0)) if "Round" in row["prompt"] else Fraction(0)
    scale = Fraction(UNITS[m["to"]][1]) / Fraction(UNITS[m["from"]][1])
    assert abs(back - m["value"]) <= slack * scale, row["id"]


def _prove_si(row: dict[str, Any]) -> None:
    exps = {name: e for name, _, e in SI_PREFIXES}
    if row["scorer"] == "mc":
        want = _ints(row["prompt"].replace("10^", " "))[0]
        assert [exps[c] for c in row["choices"]].count(want) == 1 and exps[_chosen(row)] == want
    elif len(row["meta"].get("prefixes", [])) == 2:
        big, small = row["meta"]["prefixes"]
        got = Fraction(row["answer"]) * Fraction(10) ** exps[small]
        assert got == Fraction(row["meta"]["value"]) * Fraction(10) ** exps[big], row["id"]
    else:
        assert int(row["answer"]) == exps[row["meta"]["prefix"]]


def _prove_geometry(row: dict[str, Any]) -> None:
    m, got = row["meta"], Fraction(row["answer"])
    shape = m["shape"]
    if shape == "rectangle":
        assert got / m["a"] == m["b"]
    elif shape == "rectangle_perimeter":
        assert got == m["a"] + m["a"] + m["b"] + m["b"]
    elif shape == "triangle":  # half the enclosing rectangle
        assert got * 2 == m["a"] * m["b"]
    elif shape == "hypotenuse":
        assert got * got == m["a"] ** 2 + m["b"] ** 2
    elif shape == "angle_sum":  # a full turn of exterior angles subtracted from n straight angles
        assert got == m["n"] * 180 - 360
    elif shape == "diagonals":  # count vertex pairs that are not neighbours
        n = m["n"]
        pairs = sum(1 for i in range(n) for k in range(i + 1, n) if (k - i) % n not in (1, n - 1))
        assert got == pairs
    else:
        r = m["r"]
        circumference = 2 * math.pi * r
        exact = {
            "circumference": circumference,
            "circle": circumference * r / 2,
            "sphere": 4 * math.pi * r * r * r / 3,
        }[shape]
        assert abs(float(got) - exact) <= 0.005 + 1e-9, row["id"]


def _prove_planets(row: dict[str, Any]) -> None:
    by_orbit = [p for _, p in sorted(zip(ORBIT_AU, PLANETS, strict=True))]
    if row["scorer"] == "mc":
        ranks = [by_orbit.index(c) for c in row["choices"]]
        pick = max if row["meta"]["ask"] == "farthest" else min
        assert by_orbit.index(_chosen(row)) == pick(ranks)
    else:
        assert by_orbit.index(row["answer"]) + 1 == row["meta"]["position"]
        if "after" in row["prompt"]:
            assert f"after {by_orbit[row['meta']['position'] - 2]}?" in row["prompt"]
        elif "before" in row["prompt"]:
            assert f"before {by_orbit[row['meta']['position']]}?" in row["prompt"]
        else:
            assert ORDINALS[row["meta"]["position"] - 1] in row["prompt"]


def _prove_calendar(row: dict[str, Any]) -> None:
    year, (first, last) = row["meta"]["year"], row["meta"]["months"]
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    lengths = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    assert int(row["answer"]) == sum(lengths[first - 1 : last]), row["id"]


PROVERS = {
    "elements": _prove_elements,
    "roman_numerals": _prove_roman,
    "base_conversion": _prove_bases,
    "prime_factors": _prove_primes,
    "unit_conversion": _prove_units,
    "si_prefixes": _prove_si,
    "geometry": _prove_geometry,
    "planets": _prove_planets,
    "calendar_facts": _prove_calendar,
}


def prove(row: dict[str, Any]) -> None:
    assert row["meta"]["subject"] == SUBJECTS[row["category"]]
    PROVERS[row["category"]](row)


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    seen = {(r["category"], r["difficulty"]) for r in rows}
    assert len(seen) == len(CATEGORIES) * len(DIFFICULTIES), seen
    scorers = [r["scorer"] for r in rows]
    assert max(set(scorers), key=scorers.count) == DEFAULT_SCORER
    assert set(scorers) == {"mc", "exact", "numeric"}


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
