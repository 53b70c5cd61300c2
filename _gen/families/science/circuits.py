"""eval-science-v3 circuits: series and parallel resistors, power in one branch, capacitors, the
resistor that dissipates most (any of four can win), the smallest safe fuse, and a full power
ranking given as an exact answer.

The network of the choice form is R1 in series with R2 parallel to (R3 + R4); its options are
always ``R1`` .. ``R4`` in that order, and the generator draws resistances until the planned one
dissipates the most (so every resistor wins as often as its letter is planned), and at the higher
levels the winner is not the largest resistor. The ranking form's network is R1 and R2 in series
with R3 parallel to R4; its 24 possible answers make it no guess, and its top resistor follows
the row's position so that no ranking (R1 first, say) dominates. Proofs solve the node voltages
by bisection on Kirchhoff's current law instead of combining resistances.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from common import mc_plan as plan

from families.science.base import Item, an, bisect, check_choice, check_numeric, frac, num, numeric

FORMS = (
    ("series", "numeric"),
    ("branch_current", "numeric"),
    ("branch_power", "numeric"),
    ("capacitors", "numeric"),
    ("max_power", "mc"),
    ("fuse", "mc"),
    ("power_ranking", "exact"),
    ("power_ranking", "exact"),
)
E12 = (10, 12, 15, 18, 22, 27, 33, 39, 47, 56, 68, 82, 100, 120, 150, 180, 220, 270, 330)
VOLTS = (6, 9, 12, 15, 18, 24, 30, 48)
IDEAL = "The supply is ideal and the wires have no resistance."


def parallel(*rs: Fraction) -> Fraction:
    return Fraction(1) / sum((1 / r for r in rs), Fraction(0))


def _draw(rng: random.Random, n: int) -> list[Fraction]:
    return [Fraction(rng.choice(E12)) for _ in range(n)]


def _supply(volts: Fraction) -> str:
    return f"{an(volts).capitalize()} {num(volts)} V supply"


def series(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    volts, (r1, r2, r3) = Fraction(rng.choice(VOLTS)), _draw(rng, 3)
    if level == 0:
        q = (
            f"{_supply(volts)} drives resistors of {r1} ohm and {r2} ohm connected in series. "
            f"{IDEAL} What current flows?"
        )
        meta: dict[str, Any] = {
            "kind": "series_current",
            "volts": str(volts),
            "r": [str(r1), str(r2)],
        }
        return numeric(
            q,
            "milliamperes",
            volts / (r1 + r2) * 1000,
            meta,
            [volts / r1 * 1000, volts / (r1 + r2)],
        )
    if level == 1:
        q = (
            f"{_supply(volts)} drives three resistors in series: R1 = {r1} ohm, R2 = {r2} ohm and "
            f"R3 = {r3} ohm. {IDEAL} What is the voltage across R2?"
        )
        meta = {"kind": "divider", "volts": str(volts), "r": [str(r1), str(r2), str(r3)]}
        return numeric(
            q, "volts", volts * r2 / (r1 + r2 + r3), meta, [volts * r2 / (r1 + r2), volts / 3]
        )
    emf, inner = Fraction(rng.choice((6, 9, 12))), Fraction(rng.randint(2, 40), 10)
    q = (
        f"A battery of emf {num(emf)} V and internal resistance {num(inner)} ohm is connected to "
        f"{an(r1)} {r1} ohm resistor. What is the voltage across the battery's terminals?"
    )
    meta = {"kind": "terminal", "emf": str(emf), "inner": str(inner), "r": [str(r1)]}
    current = emf / (r1 + inner)
    return numeric(q, "volts", emf - current * inner, meta, [emf, emf - emf / r1 * inner])


def branch_current(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    volts, (r1, r2, r3, r4) = Fraction(rng.choice(VOLTS)), _draw(rng, 4)
    if level == 0:
        q = (
            f"{_supply(volts)} is connected across {r1} ohm and {r2} ohm resistors in parallel. "
            f"{IDEAL} What total current does the supply deliver?"
        )
        meta: dict[str, Any] = {
            "kind": "parallel_total",
            "volts": str(volts),
            "r": [str(r1), str(r2)],
        }
        return numeric(
            q,
            "milliamperes",
            volts / parallel(r1, r2) * 1000,
            meta,
            [volts / (r1 + r2) * 1000, volts / r1 * 1000],
        )
    if level == 1:
        total = r1 + parallel(r2, r3)
        q = (
            f"{_supply(volts)} is connected to {an(r1)} {r1} ohm resistor in series with a "
            f"parallel pair of {r2} ohm and {r3} ohm resistors. {IDEAL} What current flows "
            f"through the {r3} ohm resistor?"
        )
        meta = {"kind": "branch_current", "volts": str(volts), "r": [str(r1), str(r2), str(r3)]}
        if r2 == r3:
            return None
        return numeric(
            q,
            "milliamperes",
            volts * (total - r1) / total / r3 * 1000,
            meta,
            [volts / r3 * 1000, volts / total * 1000],
        )
    total = r1 + parallel(r2, r3 + r4)
    q = (
        f"{_supply(volts)} is connected to R1 = {r1} ohm in series with a parallel combination of "
        f"R2 = {r2} ohm and a branch made of R3 = {r3} ohm in series with R4 = {r4} ohm. {IDEAL} "
        f"What current flows through R4?"
    )
    meta = {"kind": "branch_current4", "volts": str(volts), "r": [str(x) for x in (r1, r2, r3, r4)]}
    across = volts * (total - r1) / total
    return numeric(
        q,
        "milliamperes",
        across / (r3 + r4) * 1000,
        meta,
        [volts / total * 1000, across / r4 * 1000],
    )


def branch_power(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    volts, (r1, r2, r3, r4) = Fraction(rng.choice(VOLTS)), _draw(rng, 4)
    if level == 0:
        q = (
            f"{_supply(volts)} drives R1 = {r1} ohm and R2 = {r2} ohm in series. {IDEAL} What "
            "power is dissipated in R1?"
        )
        meta: dict[str, Any] = {
            "kind": "series_power",
            "volts": str(volts),
            "r": [str(r1), str(r2)],
        }
        return numeric(
            q,
            "milliwatts",
            (volts / (r1 + r2)) ** 2 * r1 * 1000,
            meta,
            [volts * volts / r1 * 1000, volts * volts / (r1 + r2) * 1000],
        )
    branch = r3 if level == 1 else r3 + r4
    total = r1 + parallel(r2, branch)
    across = volts * (total - r1) / total
    if level == 1:
        q = (
            f"{_supply(volts)} is connected to R1 = {r1} ohm in series with a parallel pair "
            f"R2 = {r2} ohm and R3 = {r3} ohm. {IDEAL} What power is dissipated in R2?"
        )
        meta = {"kind": "branch_power", "volts": str(volts), "r": [str(r1), str(r2), str(r3)]}
    else:
        q = (
            f"{_supply(volts)} is connected to R1 = {r1} ohm in series with a parallel combination "
            f"of R2 = {r2} ohm and a branch made of R3 = {r3} ohm in series with R4 = {r4} ohm. "
            f"{IDEAL} What power is dissipated in R2?"
        )
        meta = {
            "kind": "branch_power4",
            "volts": str(volts),
            "r": [str(x) for x in (r1, r2, r3, r4)],
        }
    return numeric(
        q,
        "milliwatts",
        across * across / r2 * 1000,
        meta,
        [volts * volts / r2 * 1000, (volts / total) ** 2 * r2 * 1000],
    )


def capacitors(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    volts = Fraction(rng.choice(VOLTS))
    c1, c2, c3 = (Fraction(rng.choice((1, 2, 3, 4, 5, 6, 8, 10, 22, 47))) for _ in range(3))
    if level == 0:
        total, shape = c1 + c2, f"{c1} uF and {c2} uF capacitors connected in parallel"
    elif level == 1:
        total, shape = parallel(c1, c2), f"{c1} uF and {c2} uF capacitors connected in series"
    else:
        total = parallel(c1, c2 + c3)
        shape = (
            f"{an(c1)} {c1} uF capacitor in series with a parallel pair of {c2} uF and {c3} uF "
            "capacitors"
        )
    q = (
        f"{_supply(volts)} fully charges {shape} (uF = microfarad). How much energy is stored in "
        "the capacitors in total?"
    )
    meta = {
        "kind": "capacitors",
        "volts": str(volts),
        "c": [str(c1), str(c2), str(c3)],
        "layout": level,
    }
    return numeric(
        q,
        "microjoules",
        total * volts * volts / 2,
        meta,
        [total * volts * volts, (c1 + c2 + c3) * volts * volts / 2],
    )


def powers4(volts: Fraction, r: list[Fraction]) -> list[Fraction]:
    """Power in R1..R4 of R1 + (R2 || (R3 + R4))."""
    r1, r2, r3, r4 = r
    total = r1 + parallel(r2, r3 + r4)
    current = volts / total
    across = volts - current * r1
    branch = across / (r3 + r4)
    return [
        current * current * r1,
        across * across / r2,
        branch * branch * r3,
        branch * branch * r4,
    ]


def max_power(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    assert slot is not None
    volts, r = Fraction(rng.choice(VOLTS)), _draw(rng, 4)
    p = powers4(volts, r)
    ranked = sorted(range(4), key=p.__getitem__)
    if ranked[-1] != slot or p[ranked[-1]] < p[ranked[-2]] * Fraction(105, 100):
        return None
    if level >= 1 and r[slot] == max(r):
        return None  # "the largest resistor" must not be a rule that works
    if level == 2 and r[slot] == min(r):
        return None
    q = (
        f"{_supply(volts)} is connected to R1 = {r[0]} ohm in series with a parallel combination "
        f"of R2 = {r[1]} ohm and a branch made of R3 = {r[2]} ohm in series with R4 = {r[3]} ohm. "
        f"{IDEAL} Which resistor dissipates the most power?"
    )
    meta = {"kind": "max_power", "volts": str(volts), "r": [str(x) for x in r]}
    return plan.mc_item(q, ["R1", "R2", "R3", "R4"], slot, meta)


FUSE_SETS = ((1, 3, 5, 13), (2, 5, 10, 16), (3, 5, 10, 13), (1, 2, 5, 10), (3, 7, 13, 20))
APPLIANCES = ("kettle", "heater", "toaster", "hair dryer", "iron", "lamp", "fridge", "drill")
HEATERS = 5  #: the first five heat with an element of known resistance


def fuse(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    assert slot is not None
    ratings = rng.choice(FUSE_SETS)
    mains = rng.choice((110, 120, 230, 240))
    low = ratings[slot - 1] if slot else ratings[0] / 3
    current = Fraction(rng.randint(int(low * 100), int(ratings[slot] * 100)), 100)
    if not low * Fraction(11, 10) < current < ratings[slot] * Fraction(9, 10):
        return None
    names = rng.sample(APPLIANCES[:HEATERS] if level == 1 else APPLIANCES, 2)
    if level == 0:
        watts = int(current * mains / 10) * 10
        setup = f"A {watts} W {names[0]} runs from {mains} V mains."
        meta: dict[str, Any] = {"kind": "fuse", "mains": mains, "watts": [watts]}
    elif level == 1:
        ohms = Fraction(mains) / current
        ohms = Fraction(round(ohms * 10), 10)
        setup = (
            f"A {names[0]} whose element has a resistance of {num(ohms)} ohm runs from {mains} V "
            "mains."
        )
        meta = {"kind": "fuse", "mains": mains, "ohms": str(ohms)}
    else:
        first = Fraction(rng.randint(10, 90), 100) * current
        w1, w2 = int(first * mains / 10) * 10, int((current - first) * mains / 10) * 10
        if min(w1, w2) < 20:
            return None
        setup = (
            f"A {w1} W {names[0]} and a {w2} W {names[1]} run together from one {mains} V mains "
            "plug."
        )
        meta = {"kind": "fuse", "mains": mains, "watts": [w1, w2]}
    meta["ratings"] = list(ratings)
    drawn = _fuse_current(meta)
    gold = next(i for i, f in enumerate(ratings) if f >= drawn)
    if gold != slot or not low * 1.1 < drawn < ratings[slot] * 0.9:
        return None
    q = (
        f"{setup} Which of these is the smallest fuse rating that carries the normal current "
        "without blowing?"
    )
    return plan.mc_item(q, [f"{f} A" for f in ratings], slot, meta)


def _fuse_current(meta: dict[str, Any]) -> float:
    if "ohms" in meta:
        return meta["mains"] / frac(meta["ohms"])
    return sum(meta["watts"]) / meta["mains"]


def powers_ranking_network(volts: Fraction, r: list[Fraction]) -> list[Fraction]:
    """Power in R1..R4 of R1 + R2 + (R3 || R4)."""
    r1, r2, r3, r4 = r
    current = volts / (r1 + r2 + parallel(r3, r4))
    across = current * parallel(r3, r4)
    return [
        current * current * r1,
        current * current * r2,
        across * across / r3,
        across * across / r4,
    ]


def power_ranking(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    volts, r = Fraction(rng.choice(VOLTS)), _draw(rng, 4)
    p = powers_ranking_network(volts, r)
    order = sorted(range(4), key=lambda i: -p[i])
    if order[0] != ordinal % 4:
        return None  # the top resistor is planned, so no ranking dominates the answers
    if any(p[a] < p[b] * Fraction(11, 10) for a, b in zip(order, order[1:], strict=False)):
        return None
    if level >= 1 and order == sorted(range(4), key=lambda i: -r[i]):
        return None  # ordering by resistance alone must not give the answer
    labels = [f"R{i + 1}" for i in order]
    q = (
        f"{_supply(volts)} drives R1 = {r[0]} ohm and R2 = {r[1]} ohm in series with a parallel "
        f"pair R3 = {r[2]} ohm and R4 = {r[3]} ohm. {IDEAL} Rank the four resistors by the power "
        f"each dissipates, largest first, as their four labels separated by commas."
    )
    meta = {"kind": "power_ranking", "volts": str(volts), "r": [str(x) for x in r]}
    answer = [", ".join(labels), ",".join(labels), " ".join(labels), " > ".join(labels)]
    return {"question": q, "scorer": "exact", "answer": answer, "meta": meta}


BUILD = {
    "series": series,
    "branch_current": branch_current,
    "branch_power": branch_power,
    "capacitors": capacitors,
    "max_power": max_power,
    "fuse": fuse,
    "power_ranking": power_ranking,
}


# ---- proofs: node voltages by bisection on Kirchhoff's current law ----------------------------
def _node(volts: float, series_r: float, branches: list[float]) -> float:
    """Voltage across the parallel part fed through ``series_r`` (KCL at its top node)."""
    return bisect(lambda v: (volts - v) / series_r - sum(v / b for b in branches), 0.0, volts)


def _resistor_powers(row: dict[str, Any]) -> list[float]:
    m = row["meta"]
    volts, r = frac(m["volts"]), [frac(x) for x in m["r"]]
    if m["kind"] == "power_ranking":
        v = _node(volts, r[0] + r[1], [r[2], r[3]])
        i = (volts - v) / (r[0] + r[1])
        return [i * i * r[0], i * i * r[1], v * v / r[2], v * v / r[3]]
    v = _node(volts, r[0], [r[1], r[2] + r[3]])
    branch = v / (r[2] + r[3])
    return [(volts - v) ** 2 / r[0], v * v / r[1], branch**2 * r[2], branch**2 * r[3]]


def _prove_network(row: dict[str, Any]) -> None:
    m, kind = row["meta"], row["meta"]["kind"]
    if kind == "terminal":
        emf, inner, load = frac(m["emf"]), frac(m["inner"]), frac(m["r"][0])
        check_numeric(row, bisect(lambda v: (emf - v) / inner - v / load, 0.0, emf))
        return
    volts, r = frac(m["volts"]), [frac(x) for x in m["r"]]
    if kind in ("series_current", "series_power", "divider"):
        current = bisect(lambda i: volts - i * sum(r), 0.0, volts)
        value = {
            "series_current": current * 1000,
            "series_power": current**2 * r[0] * 1000,
            "divider": current * r[1],
        }[kind]
    elif kind == "parallel_total":
        value = (volts / r[0] + volts / r[1]) * 1000
    elif kind in ("branch_current", "branch_power"):
        v = _node(volts, r[0], [r[1], r[2]])
        value = v / r[2] * 1000 if kind == "branch_current" else v * v / r[1] * 1000
    else:
        v = _node(volts, r[0], [r[1], r[2] + r[3]])
        value = v / (r[2] + r[3]) * 1000 if kind == "branch_current4" else v * v / r[1] * 1000
    check_numeric(row, value)


def _prove_capacitors(row: dict[str, Any]) -> None:
    m = row["meta"]
    volts, (c1, c2, c3) = frac(m["volts"]), (frac(c) for c in m["c"])
    if m["layout"] == 0:
        check_numeric(row, (c1 + c2) * volts**2 / 2)
        return
    pair = c2 if m["layout"] == 1 else c2 + c3
    charge = volts / (1 / c1 + 1 / pair)  # series parts carry the same charge
    check_numeric(row, charge * charge / (2 * c1) + charge * charge / (2 * pair))


def _prove_max_power(row: dict[str, Any]) -> None:
    p = _resistor_powers(row)
    check_choice(row, f"R{p.index(max(p)) + 1}")


def _prove_fuse(row: dict[str, Any]) -> None:
    current = _fuse_current(row["meta"])
    safe = [f for f in row["meta"]["ratings"] if f > current]
    check_choice(row, f"{min(safe)} A")
    assert row["choices"] == [f"{f} A" for f in sorted(row["meta"]["ratings"])], row["id"]


def _prove_ranking(row: dict[str, Any]) -> None:
    p = _resistor_powers(row)
    labels = [f"R{i + 1}" for i in sorted(range(4), key=lambda i: p[i], reverse=True)]
    assert row["answer"][0] == ", ".join(labels), (row["id"], labels)


PROVE = {
    **{
        k: _prove_network
        for k in (
            "series_current",
            "divider",
            "terminal",
            "parallel_total",
            "branch_current",
            "branch_current4",
            "series_power",
            "branch_power",
            "branch_power4",
        )
    },
    "capacitors": _prove_capacitors,
    "max_power": _prove_max_power,
    "fuse": _prove_fuse,
    "power_ranking": _prove_ranking,
}
