"""Tolerance from the prompt (issue 30): a numeric row whose prompt asks for the result rounded to
N significant figures or N decimal places accepts exactly the values that round to the gold at
that precision — not a band around it. ``meta.tolerance`` then plays no part.

- The prompt's sentence, as the suites write it: ``round(ed) to <N> significant figure(s)`` or
  ``round(ed) to <N> decimal place(s)``, N in digits or a word (one … six); the last such phrase of
  the prompt (every message's text joined) counts.
- A value is accepted when it and the gold round to the same number at that precision, half up
  or half to even (a value exactly between two roundings is read either way). Significant
  figures count from each value's own leading digit, so 9.995 and 10.0 agree at 3.
- The gold is the dataset's: science rows store it at one figure more than they ask. Where that
  stored gold is itself exactly halfway at the asked precision (``35.05`` at 3 figures), it
  rounds both ways, and both neighbours are accepted — the data cannot say which the exact value
  was.
A zero gold has no significant figures: it is compared exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import Any

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_STATED = re.compile(
    r"\bround(?:ed)?\s+to\s+(?P<n>\d+|one|two|three|four|five|six)\s+"
    r"(?P<unit>significant\s+figures?|decimal\s+places?)",
    re.I,
)


@dataclass(frozen=True)
class Precision:
    """The rounding a prompt asks for."""

    places: int
    """How many significant figures or decimal places."""
    significant: bool
    """True: significant figures; False: decimal places."""

    def __str__(self) -> str:
        unit = "significant figures" if self.significant else "decimal places"
        return f"rounded to {self.places} {unit}"


def prompt_text(row: dict[str, Any]) -> str:
    """Every text the row sends, joined (``prompt`` or each message's string content)."""
    if isinstance(row.get("prompt"), str):
        return str(row["prompt"])
    parts = []
    for message in row.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            parts.append(content)
    return "\n".join(parts)


def stated(row: dict[str, Any]) -> Precision | None:
    """The rounding the row's prompt asks for, or None."""
    matches = list(_STATED.finditer(prompt_text(row)))
    if not matches:
        return None
    last = matches[-1]
    count = last["n"].lower()
    places = int(count) if count.isdigit() else _WORDS[count]
    return Precision(places, last["unit"].lower().startswith("significant"))


def _quantum(value: Fraction, precision: Precision) -> Fraction:
    if not precision.significant:
        return Fraction(1, 10**precision.places)
    magnitude, exponent = abs(value), 0
    while magnitude >= 10:
        magnitude /= 10
        exponent += 1
    while magnitude < 1:
        magnitude *= 10
        exponent -= 1
    return Fraction(10) ** (exponent - precision.places + 1)


def roundings(value: Fraction, precision: Precision) -> set[Fraction]:
    """``value`` rounded at ``precision`` half up and half to even (one value unless a tie)."""
    quantum = _quantum(value, precision)
    scaled = value / quantum
    out = set()
    with localcontext() as context:
        context.prec = 200
        exact = Decimal(scaled.numerator) / Decimal(scaled.denominator)
        for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN):
            out.add(Fraction(int(exact.to_integral_value(rounding=mode))) * quantum)
    return out


def agrees(got: Fraction, gold: Fraction, precision: Precision) -> bool:
    """True when ``got`` and ``gold`` round to the same value at ``precision`` (module rules)."""
    if precision.significant and (gold == 0 or got == 0):
        return got == gold
    return bool(roundings(got, precision) & roundings(gold, precision))
