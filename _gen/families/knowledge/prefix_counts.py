"""eval-knowledge-v3's prefix counts: how many of a small unit make a big one, asked only of
units that exist (issue 19).

eval-knowledge-v2 squared and cubed any unit of its list at the hard level, and so asked for
"square gigagrams in 82 square teragrams" (know2-0104, and fresh instances alike): a unit with
no physical meaning. Here only lengths are squared or cubed (square and cubic metres with the
prefixes that name real areas and volumes, kilo down to micro, at most six powers of ten
apart), and first powers keep the v2 units (metre, gram, second, joule, watt, volt) with the
prefixes that are multiples of three from pico to tera (v2 went on to atto and exa, giving
"exaseconds"). The proof counts the zeros from the prefix exponents, as v2's does.
"""

from __future__ import annotations

import random
from typing import Any

from families.knowledge.prefixes import EXPONENT, PREFIXES, SI_UNITS

Item = dict[str, Any]
#: the units a power applies to: any of v2's units on their own, only the metre squared or cubed
POWERED_UNITS = {1: SI_UNITS, 2: ("metre",), 3: ("metre",)}
THIRDS = tuple(p for p, e in PREFIXES if e % 3 == 0 and abs(e) <= 12)  # pico to tera
AREA_PREFIXES = ("kilo", "hecto", "deca", "deci", "centi", "milli", "micro")
SHAPES = {1: "", 2: "square ", 3: "cubic "}


def prefix_count(rng: random.Random, level: int) -> Item:
    """How many ``small`` units are in ``x`` ``big`` ones (square or cubic metres when hard)."""
    power = 1 if level < 2 else rng.choice((2, 3))
    unit = rng.choice(POWERED_UNITS[power])
    pool = THIRDS if power == 1 else AREA_PREFIXES
    while True:
        small, big = sorted(rng.sample(pool, 2), key=EXPONENT.__getitem__)
        if power == 1 or EXPONENT[big] - EXPONENT[small] <= 6:  # at most 10^18 per unit
            break
    x = rng.randint(2, 9) if level == 0 else rng.randint(11, 99)
    shape = SHAPES[power]
    value = x * 10 ** (power * (EXPONENT[big] - EXPONENT[small]))
    question = (
        f"How many {shape}{small}{unit}s are in {x} {shape}{big}{unit}s? Give the number "
        "written out in full."
    )
    meta = {"kind": "prefix_count", "x": x, "from": big, "to": small, "power": power}
    return {"question": question, "scorer": "numeric", "answer": str(value), "meta": meta}


def check_unit(row: dict[str, Any]) -> None:
    """Only metres are squared or cubed, with a prefix of a real area or volume."""
    meta = row["meta"]
    if meta["power"] > 1:
        assert f" {SHAPES[meta['power']]}{meta['to']}metres are in" in row["prompt"], row["id"]
        assert {meta["to"], meta["from"]} <= set(AREA_PREFIXES), row["id"]
