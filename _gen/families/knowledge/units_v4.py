"""Unit conversions for eval-knowledge-v4: "round to 2 decimal places" with no looser tolerance
beside it, and the exact value kept for the proof (issue 30).

eval-knowledge-v3's conversion rows asked to round to 2 decimal places but carried
``meta.tolerance`` 0.01, so for a gold of 453.11 the numeric scorer also took 453.10 and 453.12,
two answers that are not what the rounding gives (and 0.36 and 0.38 for a gold of 0.37). Here
the rows carry no ``meta.tolerance``: the prompt's rounding is the rule (the scorer reads
"round to N decimal places" from the prompt), so the right replies are exactly the values that
round to the gold. ``meta.exact`` is the unrounded result as an exact fraction ``p/q`` and
``meta.decimals`` the places asked for.

The items (the conversions, their ranges and question text) are v2's (``units``); the gold is
the exact result rounded half up. The proof recomputes the exact result from the unit
definitions written out again here (``DEFINITIONS``: the inch is 2.54 cm, the pound
0.45359237 kg, the US gallon 231 cubic inches, the nautical mile 1852 m, ...), not from the
builder's formulas, and rounds it with integer division.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from common import v2

from families.knowledge import units

DECIMALS = 2
#: Every unit a conversion uses, in metres, kilograms, seconds (exact legal definitions).
M_PER_INCH = Fraction(254, 10_000)
M_PER_FOOT = 12 * M_PER_INCH
M_PER_YARD = 3 * M_PER_FOOT
M_PER_MILE = 1760 * M_PER_YARD
LITRE = Fraction(1, 1000)  # cubic metres
GALLON = 231 * M_PER_INCH**3
KG_PER_POUND = Fraction(45_359_237, 100_000_000)
#: conversion index -> (size of one input unit, size of one output unit), in base units; the
#: fuel row (14) divides instead and is handled on its own.
DEFINITIONS: dict[int, tuple[Fraction, Fraction]] = {
    0: (M_PER_INCH, Fraction(1, 100)),  # inches -> centimetres
    1: (M_PER_FOOT, Fraction(1)),  # feet -> metres
    2: (KG_PER_POUND, Fraction(1)),  # pounds -> kilograms
    3: (M_PER_YARD, Fraction(1)),  # yards -> metres
    4: (M_PER_MILE, Fraction(1000)),  # miles -> kilometres
    5: (KG_PER_POUND / 16, Fraction(1, 1000)),  # ounces -> grams
    6: (M_PER_MILE / 3600, Fraction(1)),  # miles per hour -> metres per second
    7: (4840 * M_PER_YARD**2, Fraction(10_000)),  # acres -> hectares
    8: (GALLON, LITRE),  # US liquid gallons -> litres
    9: (Fraction(1852, 3600), Fraction(1000, 3600)),  # knots -> kilometres per hour
    10: (14 * KG_PER_POUND, Fraction(1)),  # stone -> kilograms
    11: (M_PER_FOOT**3, LITRE),  # cubic feet -> litres
    12: (M_PER_MILE**2, Fraction(1000) ** 2),  # square miles -> square kilometres
    13: (LITRE, GALLON / 128),  # litres -> US fluid ounces
    15: (M_PER_FOOT, Fraction(1000, 3600)),  # feet per second -> kilometres per hour
}
FUEL = 14  # miles per US gallon -> litres per 100 km


def units_item(rng: random.Random, level: int, variant: int) -> dict[str, Any]:
    """v2's units item; a conversion row loses its tolerance and keeps its exact value."""
    item = units.units(rng, level, variant)
    meta = item["meta"]
    if meta["kind"] != "convert":
        return item
    exact = units.CONVERSIONS[meta["conversion"]][1](Fraction(meta["x"]))
    meta.pop("tolerance")
    meta |= {"exact": v2.fmt_fraction(exact), "decimals": DECIMALS}
    assert item["answer"] == v2.fmt_decimal(exact, DECIMALS)
    return item


def exact_value(meta: dict[str, Any]) -> Fraction:
    """The conversion recomputed from ``DEFINITIONS``."""
    x = Fraction(meta["x"])
    if meta["conversion"] == FUEL:  # litres per 100 km at x miles per gallon
        return (GALLON / LITRE) / (x * M_PER_MILE / (100 * 1000))
    source, target = DEFINITIONS[meta["conversion"]]
    return x * source / target


def rounded_half_up(value: Fraction, decimals: int) -> str:
    """``value`` >= 0 rounded half up to ``decimals`` places by integer division."""
    assert value >= 0
    scaled_num, den = value.numerator * 10**decimals, value.denominator
    whole, rest = divmod(scaled_num, den)
    whole += 2 * rest >= den  # the discarded part is at least one half
    digits = str(whole).rjust(decimals + 1, "0")
    return f"{digits[:-decimals]}.{digits[-decimals:]}"


def prove_convert(row: dict[str, Any]) -> str:
    """The gold re-derived: the exact value from the definitions (equal to ``meta.exact``), then
    rounded half up; the prompt states the rounding and the row no other tolerance."""
    meta = row["meta"]
    exact = exact_value(meta)
    assert Fraction(meta["exact"]) == exact, (row.get("id"), meta["exact"])
    assert "tolerance" not in meta and meta["decimals"] == DECIMALS, row.get("id")
    assert f"round to {DECIMALS} decimal places" in row["prompt"], row.get("id")
    return rounded_half_up(exact, DECIMALS)


def rounding_slips(meta: dict[str, Any], gold: Fraction) -> list[Fraction]:
    """Wrong answers a reply gives when it rounds carelessly: one unit of the last place either
    side of the gold (what v3's tolerance of 0.01 accepted), the value truncated and the value
    rounded to one place fewer, where they differ from the gold."""
    exact = Fraction(meta["exact"])
    step = Fraction(1, 10**DECIMALS)
    truncated = Fraction(int(exact / step)) * step
    one_fewer = Fraction(rounded_half_up(exact, DECIMALS - 1))
    return [v for v in (gold - step, gold + step, truncated, one_fewer) if v != gold and v >= 0]
