"""Units with exact legal definitions for eval-knowledge-v2 and -v3 (inch = 25.4 mm, pound =
0.45359237 kg, US gallon = 231 cubic inches, ...): the v2 question forms (conversions rounded to
2 decimals, exact length counts, the longest of four lengths) and their proofs (decimal
rounding, inch counts). Moved here from the v2 generator, unchanged.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from common import v2

Item = dict[str, Any]

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


# ---- proofs -----------------------------------------------------------------------------------
def _convert(row: dict[str, Any]) -> str:
    from decimal import ROUND_HALF_UP, Decimal

    meta = row["meta"]
    value = CONVERSIONS[meta["conversion"]][1](Fraction(meta["x"]))
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _length_count(row: dict[str, Any]) -> str:
    meta = row["meta"]
    inches = {"mile": 63_360, "nautical mile": Fraction(185_200 * 100, 254), "yard": 36}
    per = {"foot": 12, "inch": 1, "centimetre": Fraction(100, 254)}  # inches per unit
    total = (meta["count"] * inches[meta["from"]] + meta["extra_yards"] * 36) / per[meta["to"]]
    return str(total)


def _longest(row: dict[str, Any]) -> str:
    metres = {label: n * LENGTHS[u] for label, (n, u) in row["meta"]["amounts"].items()}
    return max(metres, key=metres.__getitem__)


EXPECTED = {"convert": _convert, "length_count": _length_count, "longest": _longest}
