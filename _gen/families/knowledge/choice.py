"""eval-knowledge-v3's choice rows, one form per category, rebuilt so that no option-only rule
finds the gold (issue 19), each with its proof.

What the v2 choice rows let a guesser do: the date n days later was the middle one of three
consecutive dates (the leap-day slips either side of it); the longest length was the longest
text (a few nautical miles against thousands of inches); the largest SI quantity was often the
shortest text; the standard Roman numeral was the one sharing most characters with the others
(its neighbours n +- 1 and n +- 10); and the gold letters were uneven (A 9 of 30).

Here every option set is a *window* or a set of *near-equal* values, so which option is the gold
does not change what the options look like:

* elements, calendar dates and Roman numerals: four consecutive members of an ordered series
  (atomic numbers, days, centuries, numbers a fixed step apart) listed in order, the gold at
  the planned position; every position is the gold equally often over the dataset;
* lengths and SI quantities: four values within about 25 % of one another, each in a different
  unit or prefix and written to 3 significant figures (so each option's text length follows its
  unit, not its size); the largest is the gold and is put at the planned letter.

Builders take ``(rng, level, slot)`` and return an mc item laid out by ``common.mc_plan``; the
proofs re-derive the gold from the options themselves (period and group by the noble-gas
boundaries, era arithmetic, a Roman-numeral parser, exact unit definitions).
"""

from __future__ import annotations

import datetime as dt
import math
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from common import mc_plan as plan
from common import v2

from families.knowledge.calendar import EVENTS, civil_of, days_from_civil, long_date
from families.knowledge.elements import TABLE, period_group
from families.knowledge.roman import roman_value, to_roman
from families.knowledge.units import LENGTHS, UNIT_PLURALS

Item = dict[str, Any]
MAIN_GROUPS = (1, 2, 13, 14, 15, 16, 17, 18)
NEAR_UNITS = ("inch", "foot", "yard", "metre", "kilometre", "mile", "nautical mile")
#: prefixes of the near-equal SI quantities (a factor of 10 apart, so every one reads naturally)
NEAR_PREFIXES = (("milli", -3), ("centi", -2), ("deci", -1), ("", 0), ("deca", 1), ("hecto", 2))
NEAR_PREFIXES += (("kilo", 3),)
SI_BASES = ("metre", "gram", "litre")
MARGINS = (Fraction(125, 100), Fraction(110, 100), Fraction(105, 100))  # largest / second


def _tries(build: Callable[[], Item | None]) -> Item:
    for _ in range(10_000):
        item = build()
        if item is not None:
            return item
    raise AssertionError("no choice item after 10000 draws")


def elements(rng: random.Random, level: int, slot: int) -> Item:
    """Which of four consecutive elements sits at a given period and group."""

    def draw() -> Item | None:
        period = rng.choice((2, 3) if level == 0 else (4, 5))
        group = rng.choice(MAIN_GROUPS if level < 2 else range(3, 13))
        (z,) = [z for z in range(1, 57) if period_group(z) == (period, group)]
        start = z - slot
        if start < 1 or start + 3 > 56:
            return None
        names = [TABLE[k - 1][1] for k in range(start, start + 4)]
        question = (
            f"Which of these elements is in period {period} and group {group} of the periodic "
            "table?"
        )
        meta = {"kind": "position_window", "period": period, "group": group, "first_z": start}
        return plan.mc_item(question, names, slot, meta)

    return _tries(draw)


def calendar(rng: random.Random, level: int, slot: int) -> Item:
    """Level 0: the leap year among four consecutive century years; above: the date n days
    after a historic date among four consecutive dates."""
    if level == 0:
        leaps = range(1600, 2801, 400)  # each window of four centuries holds one of them
        leap = rng.choice(
            [y for y in leaps if y - 100 * slot >= 1600 and y + 100 * (3 - slot) <= 3000]
        )
        years = [str(leap - 100 * (slot - k)) for k in range(4)]
        question = "In the Gregorian calendar, which of these years is a leap year?"
        return plan.mc_item(question, years, slot, {"kind": "leap_window"})
    when, what = rng.choice(EVENTS)
    day = dt.date.fromisoformat(when)
    n = rng.randint(500, 3000) if level == 1 else rng.randint(20_000, 60_000)
    target = day + dt.timedelta(days=n)
    dates = [long_date(target + dt.timedelta(days=k - slot)) for k in range(4)]
    question = (
        f"Which date is exactly {n} days after {what} ({long_date(day)})? All dates are in the "
        "Gregorian calendar."
    )
    meta = {"kind": "date_window", "date": day.isoformat(), "days": n}
    return plan.mc_item(question, dates, slot, meta)


def _near_values(rng: random.Random, count: int) -> list[float]:
    """``count`` sizes within a factor exp(0.5) of one another (log-uniform around 1)."""
    return [math.exp(rng.uniform(-0.25, 0.25)) for _ in range(count)]


def _largest_first(amounts: list[Fraction], margin: Fraction) -> int | None:
    """Index of the largest amount if it beats the second by ``margin``, else None."""
    ranked = sorted(range(len(amounts)), key=amounts.__getitem__, reverse=True)
    top, second = amounts[ranked[0]], amounts[ranked[1]]
    return ranked[0] if top >= second * margin else None


def _shown(value: Fraction) -> str:
    """``value`` to 3 significant figures (rounded twice: 0.09996 rounds to 0.1000, then 0.100)."""
    return v2.fmt_sig(Fraction(v2.fmt_sig(value, 3)), 3)


def units(rng: random.Random, level: int, slot: int) -> Item:
    """The longest of four near-equal lengths, each in a different unit."""

    def draw() -> Item | None:
        base = Fraction(rng.randint(1900, 2500))  # metres: every unit reads 1.0 to 99 999
        picks = rng.sample(NEAR_UNITS, 4)
        texts, metres = [], []
        for unit, size in zip(picks, _near_values(rng, 4), strict=True):
            amount = _shown(base * Fraction(size) / LENGTHS[unit])
            texts.append(f"{amount} {UNIT_PLURALS[unit]}")
            metres.append(Fraction(amount) * LENGTHS[unit])
        best = _largest_first(metres, MARGINS[level])
        if best is None:
            return None
        others = [t for i, t in enumerate(texts) if i != best]
        options = plan.place(rng, texts[best], others, slot)
        units_of = {t: u for t, u in zip(texts, picks, strict=True)}
        meta = {"kind": "longest_near", "units": [units_of[t] for t in options]}
        return plan.mc_item("Which of these lengths is the longest?", options, slot, meta)

    return _tries(draw)


def si_prefixes(rng: random.Random, level: int, slot: int) -> Item:
    """The largest of four near-equal quantities of one unit, each with a different prefix."""

    def draw() -> Item | None:
        unit = rng.choice(SI_BASES)
        base = Fraction(rng.randint(100, 990), 10)  # 10 to 99 base units: amounts 0.01 to 99 000
        picks = rng.sample(NEAR_PREFIXES, 4)
        texts, sizes = [], []
        for (prefix, exponent), size in zip(picks, _near_values(rng, 4), strict=True):
            amount = _shown(base * Fraction(size) / Fraction(10) ** exponent)
            texts.append(f"{amount} {prefix}{unit}s")
            sizes.append(Fraction(amount) * Fraction(10) ** exponent)
        best = _largest_first(sizes, MARGINS[level])
        if best is None:
            return None
        others = [t for i, t in enumerate(texts) if i != best]
        options = plan.place(rng, texts[best], others, slot)
        meta = {"kind": "largest_near", "unit": unit, "margin": str(MARGINS[level])}
        return plan.mc_item("Which of these quantities is the largest?", options, slot, meta)

    return _tries(draw)


def roman_numerals(rng: random.Random, level: int, slot: int) -> Item:
    """The Roman numeral of n among four numerals of numbers a fixed step apart."""
    step, low, high = ((1, 14, 100), (10, 40, 2000), (100, 400, 3999))[level]

    def draw() -> Item | None:
        n = rng.randint(low, high)
        pattern = sorted(rng.sample(range(6), 4))  # the gaps, drawn apart from the gold's place
        values = [n + (p - pattern[slot]) * step for p in pattern]
        if values[0] < 1 or values[-1] > 3999:
            return None
        meta = {"kind": "roman_window", "number": n}
        question = f"Which of these is the Roman numeral for {n}?"
        return plan.mc_item(question, [to_roman(v) for v in values], slot, meta)

    return _tries(draw)


BUILD: dict[str, Callable[[random.Random, int, int], Item]] = {
    "elements": elements,
    "calendar": calendar,
    "units": units,
    "si_prefixes": si_prefixes,
    "roman_numerals": roman_numerals,
}


# ---- proofs: the gold re-derived from the options ---------------------------------------------
def _position(row: dict[str, Any]) -> str:
    meta, names = row["meta"], [name for _, name in TABLE]
    zs = [names.index(c) + 1 for c in row["choices"]]
    assert zs == list(range(zs[0], zs[0] + 4)), row["id"]  # consecutive atomic numbers
    (right,) = [
        c
        for c, z in zip(row["choices"], zs, strict=True)
        if period_group(z)
        == (
            meta["period"],
            meta["group"],
        )
    ]
    return right


def _leap(row: dict[str, Any]) -> str:
    years = [int(c) for c in row["choices"]]
    assert years == list(range(years[0], years[0] + 400, 100)), row["id"]
    (right,) = [str(y) for y in years if y % 4 == 0 and (y % 100 or y % 400 == 0)]
    return right


def _date(row: dict[str, Any]) -> str:
    days = [civil_of(c) for c in row["choices"]]
    assert days == list(range(days[0], days[0] + 4)), row["id"]  # consecutive dates
    y, m, d = (int(x) for x in row["meta"]["date"].split("-"))
    target = days_from_civil(y, m, d) + row["meta"]["days"]
    (right,) = [c for c, k in zip(row["choices"], days, strict=True) if k == target]
    return right


def _size(text: str, factor: Fraction) -> Fraction:
    amount = text.split()[0]
    assert amount == v2.fmt_sig(Fraction(amount), 3), text  # 3 significant figures
    return Fraction(amount) * factor


def _longest(row: dict[str, Any]) -> str:
    units_of = row["meta"]["units"]
    assert len(set(units_of)) == 4, row["id"]
    metres = [_size(c, LENGTHS[u]) for c, u in zip(row["choices"], units_of, strict=True)]
    for text, unit in zip(row["choices"], units_of, strict=True):
        assert text.endswith(" " + UNIT_PLURALS[unit]), (row["id"], text)
    best = _largest_first(metres, MARGINS[v2.DIFFICULTIES.index(row["difficulty"])])
    assert best is not None, row["id"]
    return str(row["choices"][best])


def _largest(row: dict[str, Any]) -> str:
    unit, exponents = row["meta"]["unit"], dict(NEAR_PREFIXES)
    sizes = []
    for text in row["choices"]:
        prefix = text.split()[1].removesuffix(unit + "s")
        sizes.append(_size(text, Fraction(10) ** exponents[prefix]))
    assert len({text.split()[1] for text in row["choices"]}) == 4, row["id"]
    best = _largest_first(sizes, Fraction(row["meta"]["margin"]))
    assert best is not None, row["id"]
    return str(row["choices"][best])


def _roman(row: dict[str, Any]) -> str:
    values = [roman_value(c) for c in row["choices"]]
    assert values == sorted(values) and len(set(values)) == 4, row["id"]
    assert all(to_roman(v) == c for v, c in zip(values, row["choices"], strict=True)), row["id"]
    steps = {b - a for a, b in zip(values, values[1:], strict=False)}
    assert all(s % min(steps) == 0 for s in steps), row["id"]  # one step apart, in whole steps
    (right,) = [
        c for c, v in zip(row["choices"], values, strict=True) if v == row["meta"]["number"]
    ]
    return right


EXPECTED: dict[str, Callable[[dict[str, Any]], str]] = {
    "position_window": _position,
    "leap_window": _leap,
    "date_window": _date,
    "longest_near": _longest,
    "largest_near": _largest,
    "roman_window": _roman,
}
