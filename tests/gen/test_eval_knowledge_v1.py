"""eval-knowledge-v1: every committed answer re-derived from the prompt with independent data.

The reference facts below are typed independently of the generator's tables (different layout,
different algorithms): element data as one string, Roman numerals digit by digit, conversions
from the unit definitions in centimetres/grams/millilitres, calendar spans with ``datetime``.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest


def split_words(text: str) -> list[str]:
    """Word lists are written as one string; this keeps them readable at 100 columns."""
    return text.split()


DATA = Path(__file__).resolve().parents[2] / "datasets" / "eval-knowledge-v1"
ROWS = [json.loads(line) for line in (DATA / "rows.jsonl").read_text("utf-8").splitlines()]

ELEMENT_TEXT = """hydrogen H 1, helium He 2, lithium Li 3, beryllium Be 4, boron B 5, carbon C 6,
nitrogen N 7, oxygen O 8, fluorine F 9, neon Ne 10, sodium Na 11, magnesium Mg 12,
aluminium Al 13, silicon Si 14, phosphorus P 15, sulfur S 16, chlorine Cl 17, argon Ar 18,
potassium K 19, calcium Ca 20, scandium Sc 21, titanium Ti 22, vanadium V 23, chromium Cr 24,
manganese Mn 25, iron Fe 26, cobalt Co 27, nickel Ni 28, copper Cu 29, zinc Zn 30, gallium Ga 31,
germanium Ge 32, arsenic As 33, selenium Se 34, bromine Br 35, krypton Kr 36, rubidium Rb 37,
strontium Sr 38, yttrium Y 39, zirconium Zr 40, niobium Nb 41, molybdenum Mo 42,
technetium Tc 43, ruthenium Ru 44, rhodium Rh 45, palladium Pd 46, silver Ag 47, cadmium Cd 48,
indium In 49, tin Sn 50, antimony Sb 51, tellurium Te 52, iodine I 53, xenon Xe 54,
caesium Cs 55, barium Ba 56, tungsten W 74, platinum Pt 78, gold Au 79, mercury Hg 80,
lead Pb 82, uranium U 92"""
ELEMENTS = {
    name: (sym, int(z))
    for name, sym, z in (item.split() for item in ELEMENT_TEXT.replace("\n", " ").split(", "))
}
PLANETS = split_words("Mercury Venus Earth Mars Jupiter Saturn Uranus Neptune")
ORDINALS = split_words("first second third fourth fifth sixth seventh eighth")
PREFIX_EXP = dict(
    zip(
        split_words(
            "yocto zepto atto femto pico nano micro milli centi deci deca hecto kilo mega giga "
            "tera peta exa zetta yotta"
        ),
        [-24, -21, -18, -15, -12, -9, -6, -3, -2, -1, 1, 2, 3, 6, 9, 12, 15, 18, 21, 24],
        strict=True,
    )
)
#: unit sizes in cm, g, ml, s and m^2 from the definitions (1 in = 2.54 cm, 1 lb = 453.59237 g,
#: 1 US gal = 231 in^3, 1 acre = 4840 yd^2)
SIZE = {
    "metre": Fraction(100),
    "kilometre": Fraction(100000),
    "centimetre": Fraction(1),
    "millimetre": Fraction(1, 10),
    "inch": Fraction("2.54"),
    "foot": 12 * Fraction("2.54"),
    "yard": 36 * Fraction("2.54"),
    "mile": 63360 * Fraction("2.54"),
    "gram": Fraction(1),
    "kilogram": Fraction(1000),
    "tonne": Fraction(10**6),
    "pound": Fraction("453.59237"),
    "ounce": Fraction("453.59237") / 16,
    "millilitre": Fraction(1),
    "litre": Fraction(1000),
    "US gallon": 231 * Fraction("2.54") ** 3,
    "minute": Fraction(60),
    "hour": Fraction(3600),
    "day": Fraction(86400),
    "week": Fraction(604800),
    "square metre": Fraction(1),
    "hectare": Fraction(10**4),
    "acre": 4840 * Fraction("0.9144") ** 2,
}
SINGULAR = {"feet": "foot", "inches": "inch"}


def rows_of(category: str) -> list[dict]:
    return [r for r in ROWS if r["category"] == category]


def chosen(row: dict) -> str:
    return row["choices"]["ABCD".index(row["answer"])]


def ints(text: str) -> list[int]:
    return [int(v) for v in re.findall(r"(?<![\w.])\d+(?!\w|\.\d)", text)]


def unit(word: str) -> str:
    word = SINGULAR.get(word, word)
    return word[:-1] if word not in SIZE and word.endswith("s") else word


def test_mix_is_as_intended() -> None:
    card = json.loads((DATA / "dataset.json").read_text("utf-8"))
    assert card["rows"] == len(ROWS) == 144 and card["default_scorer"] == "numeric"
    assert set(Counter(r["category"] for r in ROWS).values()) == {16}
    assert Counter(r["scorer"] for r in ROWS) == {"numeric": 88, "exact": 41, "mc": 15}
    assert Counter(r["difficulty"] for r in ROWS) == {"easy": 54, "medium": 45, "hard": 45}
    assert len({r["prompt"] for r in ROWS}) == len(ROWS)
    subjects = {r["category"]: r["meta"]["subject"] for r in ROWS}
    assert subjects["elements"] == "chemistry" and subjects["planets"] == "astronomy"
    assert len(set(subjects.values())) == 7
    for row in ROWS:
        assert "'Answer: " in row["prompt"].splitlines()[-1]
        if "rounded" in row["prompt"] or "Round" in row["prompt"] or "exact value" in row["prompt"]:
            assert row["meta"]["tolerance"] >= 0.01


@pytest.mark.parametrize("row", rows_of("elements"), ids=lambda r: r["id"])
def test_elements(row: dict) -> None:
    prompt, answer = row["prompt"], row["answer"]
    if row["scorer"] == "mc":
        zs = {c: ELEMENTS[c.lower()][1] for c in row["choices"]}
        assert chosen(row) == max(zs, key=zs.__getitem__) and len(set(zs.values())) == 4
    elif m := re.search(r"symbol of the element (\w+)\?", prompt):
        assert answer == ELEMENTS[m[1]][0]
    elif m := re.search(r"atomic number of (\w+)\?", prompt):
        assert int(answer) == ELEMENTS[m[1]][1]
    else:
        z = ints(prompt)[0]
        first = answer[0] if isinstance(answer, list) else answer
        assert ELEMENTS[first.lower()][1] == z


def roman(n: int) -> str:
    ones = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
    tens = ["", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"]
    hundreds = ["", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"]
    return "M" * (n // 1000) + hundreds[n // 100 % 10] + tens[n // 10 % 10] + ones[n % 10]


@pytest.mark.parametrize("row", rows_of("roman_numerals"), ids=lambda r: r["id"])
def test_roman_numerals(row: dict) -> None:
    if row["scorer"] == "exact":
        assert row["answer"] == roman(ints(row["prompt"])[0])
    else:
        numeral = re.search(r"numeral ([IVXLCDM]+) ", row["prompt"])[1]
        assert [n for n in range(1, 4000) if roman(n) == numeral] == [int(row["answer"])]


@pytest.mark.parametrize("row", rows_of("base_conversion"), ids=lambda r: r["id"])
def test_base_conversion(row: dict) -> None:
    if m := re.search(r"hexadecimal \(base 16\) number ([0-9A-F]+) ", row["prompt"]):
        assert int(row["answer"]) == int(m[1], 16)
        return
    n = ints(row["prompt"])[0]
    base = 2 if "binary" in row["prompt"] else 16
    plain = bin(n)[2:] if base == 2 else hex(n)[2:].upper()
    assert row["answer"][0] == plain and int(row["answer"][1], 0) == n


@pytest.mark.parametrize("row", rows_of("prime_factors"), ids=lambda r: r["id"])
def test_prime_factors(row: dict) -> None:
    n = ints(row["prompt"])[0]
    sieve = [True] * (n + 1)
    for p in range(2, math.isqrt(n) + 1):
        if sieve[p]:
            sieve[p * p :: p] = [False] * len(sieve[p * p :: p])
    primes = [p for p in range(2, n + 1) if sieve[p] and n % p == 0]
    if "smallest" in row["prompt"]:
        assert int(row["answer"]) == primes[0] < n
    elif "largest" in row["prompt"]:
        assert int(row["answer"]) == primes[-1] < n
    else:
        assert int(row["answer"]) == sum(1 for d in range(1, n + 1) if n % d == 0)


@pytest.mark.parametrize("row", rows_of("unit_conversion"), ids=lambda r: r["id"])
def test_unit_conversion(row: dict) -> None:
    prompt, got = row["prompt"], Fraction(row["answer"])
    if m := re.match(r"Convert (-?\d+) degrees (\w+)", prompt):
        t = Fraction(int(m[1]))
        want = t * 9 / 5 + 32 if m[2] == "Celsius" else (t - 32) * 5 / 9
    else:
        m = re.match(r"How many ([\w ]+?) are there in (\d+) ([\w ]+?)\?", prompt)
        want = int(m[2]) * SIZE[unit(m[3])] / SIZE[unit(m[1])]
    if "exact value" in prompt or "rounded" not in prompt and "Round" not in prompt:
        assert got == want
    else:
        assert abs(got - want) <= Fraction(1, 200)


@pytest.mark.parametrize("row", rows_of("si_prefixes"), ids=lambda r: r["id"])
def test_si_prefixes(row: dict) -> None:
    prompt = row["prompt"]
    if row["scorer"] == "mc":
        exp = int(re.search(r"10\^(-?\d+)\?", prompt)[1])
        assert [PREFIX_EXP[c] for c in row["choices"]].count(exp) == 1
        assert PREFIX_EXP[chosen(row)] == exp
    elif m := re.search(r"prefix '(\w+)'", prompt):
        assert int(row["answer"]) == PREFIX_EXP[m[1]]
    else:
        m = re.match(
            r"How many (\w+?)(metre|gram|litre|second)s are there in ([\d.]+) (\w+?)\2s", prompt
        )
        want = Fraction(m[3]) * Fraction(10) ** (PREFIX_EXP[m[4]] - PREFIX_EXP[m[1]])
        assert Fraction(row["answer"]) == want


@pytest.mark.parametrize("row", rows_of("geometry"), ids=lambda r: r["id"])
def test_geometry(row: dict) -> None:
    prompt, got = row["prompt"], Fraction(row["answer"])
    x = ints(prompt.split("\n")[0])
    if "area of a rectangle" in prompt:
        want = Fraction(x[0] * x[1])
    elif "perimeter" in prompt:
        want = Fraction(2 * x[0] + 2 * x[1])
    elif "triangle has a base" in prompt:
        want = Fraction(x[0] * x[1], 2)
    elif "hypotenuse" in prompt:
        want = Fraction(math.hypot(x[0], x[1]))
    elif "interior angles" in prompt:
        want = Fraction(180 * (x[0] - 2))
    elif "diagonals" in prompt:
        want = Fraction(math.comb(x[0], 2) - x[0])
    else:
        r = x[0]
        want = Fraction(
            math.pi * r**2
            if "area of a circle" in prompt
            else 2 * math.pi * r
            if "circumference" in prompt
            else 4 / 3 * math.pi * r**3
        )
        assert abs(got - want) <= Fraction(1, 200)
        return
    assert got == want


@pytest.mark.parametrize("row", rows_of("planets"), ids=lambda r: r["id"])
def test_planets(row: dict) -> None:
    prompt = row["prompt"]
    if row["scorer"] == "mc":
        ranks = [PLANETS.index(c) for c in row["choices"]]
        want = max(ranks) if "farthest" in prompt else min(ranks)
        assert PLANETS.index(chosen(row)) == want
    elif m := re.search(r"immediately (after|before) (\w+)\?", prompt):
        step = 1 if m[1] == "after" else -1
        assert PLANETS.index(row["answer"]) == PLANETS.index(m[2]) + step
    else:
        k = ORDINALS.index(re.search(r"Solar System is (\w+)\?", prompt)[1])
        assert row["answer"] == PLANETS[k]


@pytest.mark.parametrize("row", rows_of("calendar_facts"), ids=lambda r: r["id"])
def test_calendar_facts(row: dict) -> None:
    prompt = row["prompt"].split("\n")[0]
    months = [dt.date(2001, m, 1).strftime("%B") for m in range(1, 13)]
    if m := re.search(r"in the year (\d+) ", prompt):
        y = int(m[1])
        span = dt.date(y + 1, 1, 1) - dt.date(y, 1, 1)
    elif m := re.search(r"from 1 (\w+) (\d+) to the last day of (\w+)", prompt):
        y, first, last = int(m[2]), months.index(m[1]) + 1, months.index(m[3]) + 1
        end = dt.date(y + 1, 1, 1) if last == 12 else dt.date(y, last + 1, 1)
        span = end - dt.date(y, first, 1)
    else:
        m = re.search(r"days are there in (\w+) (\d+)\?", prompt)
        y, mo = int(m[2]), months.index(m[1]) + 1
        span = (dt.date(y + 1, 1, 1) if mo == 12 else dt.date(y, mo + 1, 1)) - dt.date(y, mo, 1)
    assert int(row["answer"]) == span.days
