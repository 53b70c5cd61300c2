"""The five eval-knowledge families as eval-knowledge-v2 and -v3 lay them out: the categories in
row order, each category's v2 builder (``(rng, level, variant) -> item``) and every v2 kind's
proof (``row -> expected answer``)."""

from __future__ import annotations

from families.knowledge import calendar, elements, prefixes, roman, units

CATEGORIES = ("elements", "calendar", "units", "si_prefixes", "roman_numerals")
BUILDERS = {
    "elements": elements.elements,
    "calendar": calendar.calendar,
    "units": units.units,
    "si_prefixes": prefixes.si_prefixes,
    "roman_numerals": roman.roman_numerals,
}
EXPECTED = {
    **elements.EXPECTED,
    **calendar.EXPECTED,
    **units.EXPECTED,
    **prefixes.EXPECTED,
    **roman.EXPECTED,
}
