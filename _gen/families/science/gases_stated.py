"""eval-science-v4 gas laws: the -v3 family (``gases``) with the ideal gas stated everywhere.

In -v3 every gas-law row says "Treat the gases as ideal" except the Boyle's-law forms (a syringe
of air, a bubble rising from a diver, a bubble that also warms), whose answers assume it just the
same; here those rows state ``stated.IDEAL_AIR`` before their question. The pressure-factor and
which-gas choices are ``priors_v4``'s (temperatures over a wider range, gases kept while the
flask is drawn again). Forms and proofs are -v3's; the proof of every row also asserts that an
ideal gas is stated.
"""

from __future__ import annotations

import random
from typing import Any

from families.science import gases, priors_v4
from families.science.base import GAS_NOTE, Item
from families.science.stated import IDEAL_AIR, check_stated, insert

FORMS = gases.FORMS
#: the sentence each Boyle's-law row ends its set-up with, before the question
_SETUP_END = {
    "boyle": "until the pressure is",
    "bubble": "g = 9.81 m/s^2.",
    "bubble_warm": "T(K) = T(degrees C) + 273.15.",
}


def boyle(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    item = gases.boyle(rng, level, slot, ordinal)
    if item is None:
        return None
    question, kind = item["question"], item["meta"]["kind"]
    if kind == "boyle":  # "... until the pressure is 307 kPa. What volume ..."
        head, tail = question.split(" What volume", 1)
        item["question"] = f"{head} {IDEAL_AIR} What volume{tail}"
    else:
        item["question"] = insert(question, _SETUP_END[kind], IDEAL_AIR)
    return item


def _prove(row: dict[str, Any]) -> None:
    kind = row["meta"]["kind"]
    if kind in _SETUP_END:
        check_stated(row, IDEAL_AIR)
    else:
        assert GAS_NOTE in row["prompt"], row["id"]
    gases.PROVE[kind](row)


BUILD = {
    **gases.BUILD,
    "boyle": boyle,
    "pressure_factor": priors_v4.pressure_factor,
    "which_gas": priors_v4.which_gas,
}
PROVE = dict.fromkeys(gases.PROVE, _prove)
