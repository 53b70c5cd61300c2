"""Near misses of eval-knowledge-v3 rows (issue 19), by question kind: what a careless solver
answers instead of the gold.

* particle counts: the count for one atom or molecule, the mass number or atomic number taken
  for the neutron count, the ion's charge added with the wrong sign or left out;
* day counts and exact length counts: one too many or too few (both ends counted, or none), the
  extra yards left out;
* conversions: the factor applied the wrong way round, or rounded by 1 %;
* prefix counts: one zero too many or too few, the square or cube forgotten;
* Roman numerals read or written one or ten off, or written without subtraction (IIII);
* element symbols: the neighbours in the table; weekdays: the day before or after; prefix names:
  the prefix a factor of 10 or 1000 away.

mc rows take the other letters and option texts (``common.probes.mc``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from common import probes

from families.knowledge.elements import NAME_Z, SYMBOL_Z, TABLE, protons
from families.knowledge.prefixes import BY_EXPONENT, EXPONENT
from families.knowledge.roman import roman_value, to_roman
from families.knowledge.units import CONVERSIONS
from families.multilingual.lexicon import EN_DAYS

Row = dict[str, Any]


def _neutrons(meta: dict[str, Any], gold: Fraction) -> list[Fraction | int]:
    k, mass, z = meta["count"], meta["mass_number"], NAME_Z[meta["element"].capitalize()]
    return [k * mass, k * z, mass - z]


def _protons(meta: dict[str, Any], gold: Fraction) -> list[Fraction | int]:
    return [protons(meta["formula"]), *probes.off_by_one(int(gold))]


def _electrons(meta: dict[str, Any], gold: Fraction) -> list[Fraction | int]:
    k, p, q = meta["count"], protons(meta["formula"]), meta["charge"]
    return [k * (p + q), k * p, p - q]


def _counted(meta: dict[str, Any], gold: Fraction) -> list[Fraction | int]:
    wrong: list[Fraction | int] = list(probes.off_by_one(int(gold)))
    if meta.get("extra_yards"):
        per_yard = {"foot": 3, "inch": 36, "centimetre": Fraction(9144, 100)}[meta["to"]]
        wrong.append(gold - meta["extra_yards"] * per_yard)
    return wrong


def _convert(meta: dict[str, Any], gold: Fraction) -> list[Fraction | int]:
    x = Fraction(meta["x"])
    value = CONVERSIONS[meta["conversion"]][1](x)
    return [
        round(x * x / value, 2),
        round(value * Fraction(101, 100), 2),
        round(value * 99 / 100, 2),
    ]


def _prefix(meta: dict[str, Any], gold: Fraction) -> list[Fraction | int]:
    wrong: list[Fraction | int] = [gold * 10, gold / 10]
    if meta["power"] > 1:
        wrong.append(meta["x"] * 10 ** (EXPONENT[meta["from"]] - EXPONENT[meta["to"]]))
    return wrong


def _from_roman(meta: dict[str, Any], gold: Fraction) -> list[Fraction | int]:
    values = [roman_value(t) for t in meta["numerals"]]
    if meta["op"] == "*":
        return [values[0] * (values[1] + 1), values[0] * (values[1] - 1), gold + 10]
    return [gold + 1, gold - 1, gold + 10, gold - 10]


NUMERIC: dict[str, Callable[[dict[str, Any], Fraction], list[Fraction | int]]] = {
    "neutrons": _neutrons,
    "protons": _protons,
    "electrons": _electrons,
    "days_between": _counted,
    "length_count": _counted,
    "convert": _convert,
    "prefix_count": _prefix,
    "from_roman": _from_roman,
}


def _symbols(row: Row) -> list[str]:
    z = SYMBOL_Z[row["answer"][0]]
    return [TABLE[k - 1][0] for k in (z - 1, z + 1) if 1 <= k <= len(TABLE)]


def _weekdays(row: Row) -> list[str]:
    k = EN_DAYS.index(row["answer"])
    return [EN_DAYS[(k - 1) % 7], EN_DAYS[(k + 1) % 7]]


def _prefix_names(row: Row) -> list[str]:
    e = EXPONENT[row["answer"][0]]
    return [BY_EXPONENT[e + d] for d in (-3, -1, 1, 3) if e + d in BY_EXPONENT]


def _numerals(row: Row) -> list[str]:
    n = roman_value(row["answer"])
    return [to_roman(n - 1), to_roman(n + 1), to_roman(n, subtractive=False)]


EXACT: dict[str, Callable[[Row], list[str]]] = {
    "z_sum": _symbols,
    "z_product": _symbols,
    "below": _symbols,
    "weekday": _weekdays,
    "prefix_name": _prefix_names,
    "to_roman": _numerals,
}


def slips(row: Row) -> tuple[list[Any], list[str]]:
    """The wrong answers of an open row's kind (``common.probes.with_probes``)."""
    kind = row["meta"]["kind"]
    if row["scorer"] == "numeric":
        return list(NUMERIC[kind](row["meta"], Fraction(row["answer"]))), []
    return EXACT[kind](row), []
