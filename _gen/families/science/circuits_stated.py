"""eval-science-v4 circuits: the -v3 family (``circuits``) with ideal wires stated everywhere.

Every -v3 circuit row says "The supply is ideal and the wires have no resistance" except the
terminal-voltage form, whose battery is not ideal (it has an internal resistance) but whose wires
are assumed ideal all the same; here it states ``stated.NO_WIRE_RESISTANCE``. Forms and proofs
are -v3's; the fuse and capacitor forms need no statement (ratings and a full charge are given).
"""

from __future__ import annotations

import random
from typing import Any

from families.science import circuits
from families.science.base import Item
from families.science.stated import NO_WIRE_RESISTANCE, check_stated, insert

FORMS = circuits.FORMS


def series(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    item = circuits.series(rng, level, slot, ordinal)
    if item is not None and item["meta"]["kind"] == "terminal":
        item["question"] = insert(item["question"], "ohm resistor.", NO_WIRE_RESISTANCE)
    return item


def _prove(row: dict[str, Any]) -> None:
    kind = row["meta"]["kind"]
    if kind == "terminal":
        check_stated(row, NO_WIRE_RESISTANCE)
    elif kind not in ("capacitors", "fuse"):
        check_stated(row, circuits.IDEAL)
    circuits.PROVE[kind](row)


BUILD = {**circuits.BUILD, "series": series}
PROVE = dict.fromkeys(circuits.PROVE, _prove)
