"""What every eval-science-v3 family shares: constants stated in prompts, number formatting,
the numeric item with its rounding rule and trap values, numeric options by rank, and the
checks each family's proof ends with.

Numeric answers (as in eval-science-v2): the prompt asks for 3 significant figures, ``answer``
holds the exact value rounded to 4, ``meta.tolerance_relative`` is 1 % and ``meta.tolerance`` that
amount for this answer. ``meta.traps`` are the values a typical slip gives (Celsius for kelvin,
km/h for m/s, ...); every one lies more than 3 % from the answer.

Numeric options (mc rows whose options are values): four values of the same form and unit in
ascending order, the gold at the planned rank, the others drawn from wrong-method values; each
option more than 3 % from every other one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from common import mc_plan as plan
from common import v2

Item = dict[str, Any]
Builder = Callable[[random.Random, int, "int | None", int], "Item | None"]
RELATIVE = Fraction(1, 100)
TRAP_GAP = Fraction(3, 100)
OPTION_GAP = 0.03
G = Fraction(981, 100)
R_GAS = Fraction(8314, 1000)
KELVIN = Fraction(27315, 100)
G_NOTE = f"Take g = {v2.fmt_decimal(G, 2)} m/s^2 and ignore air resistance."
GAS_NOTE = "Treat the gases as ideal; use R = 8.314 J/(mol K) and T(K) = T(degrees C) + 273.15."


def num(x: Fraction | int | float) -> str:
    """A number as a prompt shows it: integers plainly, others with at most three decimals."""
    value = Fraction(x)
    if value.denominator == 1:
        return str(value.numerator)
    return v2.fmt_decimal(value, 3).rstrip("0").rstrip(".")


def an(value: Any) -> str:
    """The article before a number read aloud: "an 8 L flask", "an 18 V supply", "a 12 V"."""
    text = num(value)
    eleven = text[:2] in ("11", "18") and len(text.split(".")[0]) in (2, 5)
    return "an" if text.startswith("8") or eleven else "a"


def exact(value: float | Fraction) -> Fraction:
    """A float answer as a fraction (floats only come from square roots and trigonometry)."""
    return Fraction(value).limit_denominator(10**12) if isinstance(value, float) else value


def numeric(
    question: str, unit: str, value: float | Fraction, meta: dict[str, Any], traps: Sequence[Any]
) -> Item | None:
    """A numeric item, or None when a trap value lands within 3 % of the answer (redraw)."""
    answer = v2.fmt_sig(exact(value), 4)
    gold = float(answer)
    if any(abs(float(t) - gold) <= float(TRAP_GAP) * abs(gold) for t in traps):
        return None
    meta = {**meta, **v2.tolerance_meta(answer, RELATIVE), "traps": [float(t) for t in traps]}
    prompt = f"{question} Give the answer in {unit}, rounded to 3 significant figures."
    return {"question": prompt, "scorer": "numeric", "answer": answer, "meta": meta}


def sig3(value: float) -> str:
    """A value as an option shows it: 3 significant figures."""
    return v2.fmt_sig(exact(value), 3)


def numeric_options(
    rng: random.Random,
    question: str,
    gold: float | Fraction,
    pool: Sequence[float | Fraction],
    slot: int,
    unit: str,
    meta: dict[str, Any],
) -> Item | None:
    """An mc item of four ascending values with the gold at ``slot``, or None (redraw)."""
    values = plan.by_rank(rng, float(gold), [float(p) for p in pool], slot, OPTION_GAP, shown=sig3)
    if values is None:
        return None
    options = [f"{sig3(v)} {unit}".strip() for v in values]
    return plan.mc_item(question, options, slot, meta)


def redraw(build: Callable[[], Item | None], what: str) -> Item:
    """Call ``build`` until it returns an item (each call draws new values from the row rng)."""
    for _ in range(20_000):
        item = build()
        if item is not None:
            return item
    raise AssertionError(f"{what}: no item after 20000 draws")


def bisect(f: Callable[[float], float], lo: float, hi: float) -> float:
    """A root of ``f`` on [lo, hi] by bisection (proofs avoid the generators' closed forms)."""
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if (f(lo) < 0) == (f(mid) < 0) else (lo, mid)
    return (lo + hi) / 2


def sqrt(x: Fraction | float | int) -> float:
    return math.sqrt(float(x))


def frac(text: str | int | float) -> float:
    """A stored fraction string ("37/2") or number as a float."""
    return float(Fraction(text))


# ---- the checks every proof ends with ---------------------------------------------------------
def check_numeric(row: dict[str, Any], value: float) -> None:
    """The gold is ``value`` rounded to 4 figures; tolerance and trap clearance hold."""
    assert row["scorer"] == "numeric", row["id"]
    gold = float(row["answer"])
    assert abs(value - gold) <= 6e-4 * abs(gold), (row["id"], value, gold)
    assert math.isclose(row["meta"]["tolerance"], abs(gold) * 0.01, rel_tol=1e-9), row["id"]
    for trap in row["meta"]["traps"]:
        assert abs(trap - gold) > float(TRAP_GAP) * abs(gold), (row["id"], trap)
    assert "rounded to 3 significant figures" in row["prompt"], row["id"]


def check_choice(row: dict[str, Any], expected: str) -> None:
    """The option at the gold letter is ``expected``."""
    assert plan.gold_text(row) == expected, (row["id"], expected)


def check_value_options(row: dict[str, Any], value: float) -> None:
    """Numeric options: ascending, gold within rounding of ``value``, all 3 % apart."""
    shown = [float(c.split()[0]) for c in row["choices"]]
    assert shown == sorted(shown), row["id"]
    gold = float(plan.gold_text(row).split()[0])
    assert math.isclose(gold, value, rel_tol=5e-3), (row["id"], gold, value)
    assert plan.far_apart(shown, OPTION_GAP - 0.005), (row["id"], shown)
