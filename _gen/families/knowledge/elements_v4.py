"""Element names for eval-knowledge-v4: every accepted spelling of each name in v2's table of
elements 1-56 (issue 30).

eval-knowledge-v3's exact element rows accepted the symbol and the table's one name, so
"Aluminium", "Caesium" and "Sulfur" scored but "Aluminum", "Cesium" and "Sulphur" did not,
though each is the usual spelling on one side of the Atlantic: aluminium and caesium are IUPAC's
spellings and aluminum and cesium the American ones; sulfur is IUPAC's (and American) spelling
and sulphur the traditional British one. Of the names of elements 1-56 these three are the only
ones spelled two ways (the test of eval-knowledge-v4 lists the table's 56 names against this);
``SPELLINGS`` holds them, and ``check_table`` proves each belongs to a name of the table and
that no spelling names two elements. Niobium's old American name, columbium, is another name
rather than another spelling, and is not accepted.

``accepted(z)`` gives an exact row's answers: the symbol, the table's name, then its other
spellings. ``element_of`` reads any accepted name back to its atomic number, which the mc check
uses to prove that no two options of a row are spellings of one element.
"""

from __future__ import annotations

import random
from typing import Any

from families.knowledge import elements
from families.knowledge.elements import SYMBOL_Z, TABLE

#: Table name -> its other standard spellings (American or British).
SPELLINGS: dict[str, tuple[str, ...]] = {
    "Aluminium": ("Aluminum",),
    "Sulfur": ("Sulphur",),
    "Caesium": ("Cesium",),
}


def names(z: int) -> list[str]:
    """Every accepted name of element ``z``, the table's first."""
    name = TABLE[z - 1][1]
    return [name, *SPELLINGS.get(name, ())]


def accepted(z: int) -> list[str]:
    """An exact row's accepted answers for element ``z``: symbol, name, other spellings."""
    return [TABLE[z - 1][0], *names(z)]


def element_of(text: str) -> int:
    """The atomic number a name (any accepted spelling, any case) or symbol stands for."""
    folded = text.strip().casefold()
    (z,) = {z for z in range(1, len(TABLE) + 1) if folded in {a.casefold() for a in accepted(z)}}
    return z


def elements_item(rng: random.Random, level: int, variant: int) -> dict[str, Any]:
    """v2's elements item; an exact row accepts every spelling of the element's name."""
    item = elements.elements(rng, level, variant)
    if item["scorer"] == "exact":
        symbol, name = item["answer"]
        assert names(SYMBOL_Z[symbol])[0] == name
        item["answer"] = accepted(SYMBOL_Z[symbol])
    return item


def check_table() -> None:
    """Every listed spelling belongs to a name of the table, and no spelling names two
    elements (casefolded, as the exact scorer compares)."""
    table_names = {name for _, name in TABLE}
    assert set(SPELLINGS) <= table_names, set(SPELLINGS) - table_names
    seen: dict[str, int] = {}
    for z in range(1, len(TABLE) + 1):
        for spelling in accepted(z):
            assert seen.setdefault(spelling.casefold(), z) == z, spelling


check_table()
