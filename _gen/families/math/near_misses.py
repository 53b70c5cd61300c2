"""Near misses of eval-math-v3 rows (issue 19), by question kind: what a careless solver answers
instead of the gold.

* every integer answer: one more and one less (the counting slip); fractions: the complement and
  the numerator one off;
* powers modulo m: the exponent one off; recurrences: the term before or after the asked one;
  divisor sums and counts: 1 or the number itself left out; the next joint flash: the product of
  the periods instead of their least common multiple;
* exact lists: the values in the wrong order or with a sign slipped (linear systems), a root left
  out (square roots), the window of terms one place early or late (rule-defined lists).

mc rows take the other letters and option texts (``common.probes.mc``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from common import probes

from families.math.sequences import EXPECTED as SEQUENCE

Row = dict[str, Any]


def _generic(gold: Fraction) -> list[Fraction | int]:
    if gold.denominator == 1:
        return list(probes.off_by_one(int(gold), low=None))
    wrong: list[Fraction | int] = [1 - gold]
    wrong += [Fraction(gold.numerator + d, gold.denominator) for d in (-1, 1)]
    return [w for w in wrong if w > 0]


def _index_slips(meta: dict[str, Any]) -> list[Fraction | int]:
    kind, k = meta["kind"], meta["index"]
    return [int(SEQUENCE[kind]({**meta, "index": j})) for j in (k - 1, k + 1)]


def _specific(meta: dict[str, Any], gold: Fraction) -> list[Fraction | int]:
    kind = meta["kind"]
    if kind == "power":
        return [pow(meta["base"], meta["exponent"] + d, meta["modulus"]) for d in (-1, 1)]
    if kind in ("affine", "second_order", "digit_rule"):
        return _index_slips(meta)
    if kind == "divisor_sum":
        return [gold - 1, gold - meta["n"], gold - 1 - meta["n"]]
    if kind == "divisor_number":
        return [gold - 2]
    if kind == "lcm_next":
        return [math.prod(meta["periods"])]
    return []


def _numeric(row: Row) -> list[Fraction | int]:
    gold = Fraction(str(row["answer"]))
    return [*_generic(gold), *_specific(row["meta"], gold)]


def _exact(row: Row) -> list[str]:
    meta, first = row["meta"], row["answer"][0]
    values = first.split(", ")
    if meta["kind"] == "system_solve":
        flipped = [
            ", ".join(["-" + values[0] if values[0][0] != "-" else values[0][1:], *values[1:]])
        ]
        return [", ".join(reversed(values)), *flipped]
    if meta["kind"] == "square_roots":
        return [", ".join(values[1:]), ", ".join(values[:-1])]
    early, late = ({**meta, "from_index": meta["from_index"] + d} for d in (-1, 1))
    return [SEQUENCE[meta["kind"]](early), SEQUENCE[meta["kind"]](late)]


def slips(row: Row) -> tuple[list[Any], list[str]]:
    """The wrong answers of an open row's kind (``common.probes.with_probes``); no other
    spellings (the exact answer list holds every accepted one)."""
    return (_numeric(row) if row["scorer"] == "numeric" else _exact(row)), []
