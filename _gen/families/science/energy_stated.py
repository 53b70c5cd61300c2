"""eval-science-v4 energy: the -v3 family (``energy``) with every kettle's efficiency stated.

The easy kettle of -v3 assumed that all of the electrical energy heats the water without saying
so (sci3-0065), while its siblings state 70-90 %; here every kettle row states its share, the
easy ones with ``stated.FULL_EFFICIENCY``. The most-energy choice is ``priors_v4``'s (each store's
energy drawn from one range, so "48 V" no longer names the gold). Everything else, forms and
proofs included, is -v3's.
"""

from __future__ import annotations

import random
from typing import Any

from families.science import energy, priors_v4
from families.science.base import Item
from families.science.stated import FULL_EFFICIENCY, check_stated, insert

FORMS = energy.FORMS


def kettle(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    item = energy.kettle(rng, level, slot, ordinal)
    if item is not None and item["meta"]["eff"] == 100:
        item["question"] = insert(item["question"], "to 100 degrees C.", FULL_EFFICIENCY)
    return item


def _prove_kettle(row: dict[str, Any]) -> None:
    eff = row["meta"]["eff"]
    check_stated(row, FULL_EFFICIENCY if eff == 100 else f"{eff}% of its electrical energy")
    energy.PROVE["kettle"](row)


BUILD = {**energy.BUILD, "kettle": kettle, "most_energy": priors_v4.most_energy}
PROVE = {**energy.PROVE, "kettle": _prove_kettle}
