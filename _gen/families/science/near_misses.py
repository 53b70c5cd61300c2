"""Near misses and alternative spellings of eval-science-v4 rows (issue 19), by answer form.

* numeric: the row's trap values (``meta.traps``: Celsius for kelvin, km/h for m/s, the
  efficiency applied the wrong way, ...) and the gold with its decimal point slipped one place,
  each to 4 significant figures as the gold is written; alternatives are the gold rounded to the
  3 significant figures the prompt asks for, alone and followed by the unit the prompt names
  (unless the unit holds a digit, as kg/m^3 does);
* exact: a power ranking with two neighbours swapped or read backwards, balancing coefficients
  doubled (not the smallest) or with one raised by one, an empirical formula with one subscript
  off by one or doubled (the molecular formula of a dimer);
* mc: the other letters and option texts (``common.probes.mc``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from common import v2

Row = dict[str, Any]
_UNIT = re.compile(r"Give the answer in (.+?), rounded to 3 significant figures")


def _numeric(row: Row) -> tuple[list[Fraction], list[str]]:
    gold = Fraction(row["answer"])
    wrong = [Fraction(v2.fmt_sig(Fraction(t), 4)) for t in row["meta"]["traps"] if t]
    wrong += [Fraction(v2.fmt_sig(gold * 10, 4)), Fraction(v2.fmt_sig(gold / 10, 4))]
    three = v2.fmt_sig(gold, 3)
    unit = _UNIT.search(row["prompt"])
    assert unit, row["id"]
    right = [three]
    if not any(ch.isdigit() for ch in unit[1]):  # "kg/m^3" would end in another number
        right.append(f"{three} {unit[1]}")
    return wrong, right


def _ranking(answer: str) -> list[str]:
    labels = answer.split(", ")
    swaps = []
    for i in range(len(labels) - 1):
        swapped = list(labels)
        swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
        swaps.append(", ".join(swapped))
    return [*swaps, ", ".join(reversed(labels))]


def _coefficients(answer: str) -> list[str]:
    coefs = [int(c) for c in answer.split(", ")]
    raised = [[c + (i == j) for j, c in enumerate(coefs)] for i in range(len(coefs))]
    return [", ".join(map(str, c)) for c in [[2 * c for c in coefs], *raised]]


def _formula(answer: str) -> list[str]:
    counts = [(sym, int(n or 1)) for sym, n in re.findall(r"([A-Z][a-z]?)(\d*)", answer)]

    def text(parts: list[tuple[str, int]]) -> str:
        return "".join(sym + (str(n) if n > 1 else "") for sym, n in parts)

    out = [text([(sym, 2 * n) for sym, n in counts])]
    for i in range(len(counts)):
        for step in (-1, 1):
            changed = [(sym, n + step * (j == i)) for j, (sym, n) in enumerate(counts)]
            if all(n >= 1 for _, n in changed):
                out.append(text(changed))
    return out


EXACT: dict[str, Callable[[str], list[str]]] = {
    "power_ranking": _ranking,
    "balance": _coefficients,
    "empirical": _formula,
}


def slips(row: Row) -> tuple[list[Any], list[str]]:
    """The wrong answers of an open row's kind, and for numeric rows the gold as the prompt asks
    it written (``common.probes.with_probes``)."""
    if row["scorer"] == "numeric":
        return _numeric(row)
    return EXACT[row["meta"]["kind"]](row["answer"][0]), []
