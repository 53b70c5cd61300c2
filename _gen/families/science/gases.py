"""eval-science-v3 gas laws: moles and masses in a tank, combined gas law, partial pressures,
density and molar mass, Boyle's law under water, the factor a pressure changes by, and naming a
gas from a weighed sample.

Traps: Celsius where kelvin is needed, a forgotten atmosphere above the water, the other gas's
share. The pressure-factor options are four wrong-or-right factors of one form (Celsius ratio,
inverted ratios, the volume or temperature change alone) in ascending order with the gold at the
planned rank, so neither "the one above 1" nor "the odd one out" finds it. Proofs work through
invariants (p V / T, moles) rather than the generators' formulas.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from common import mc_plan as plan

from families.science.base import (
    GAS_NOTE,
    KELVIN,
    R_GAS,
    G,
    Item,
    an,
    bisect,
    check_choice,
    check_numeric,
    check_value_options,
    frac,
    num,
    numeric,
    numeric_options,
)

FORMS = (
    ("moles", "numeric"),
    ("combined", "numeric"),
    ("partial", "numeric"),
    ("density", "numeric"),
    ("boyle", "numeric"),
    ("pressure_factor", "mc"),
    ("pressure_factor", "mc"),
    ("which_gas", "mc"),
)
#: (name, formula, molar mass g/mol); neighbours differ by more than 8 %
GASES = (
    ("hydrogen", "H2", Fraction(2016, 1000)),
    ("helium", "He", Fraction(4003, 1000)),
    ("methane", "CH4", Fraction(16043, 1000)),
    ("neon", "Ne", Fraction(20180, 1000)),
    ("nitrogen", "N2", Fraction(28014, 1000)),
    ("oxygen", "O2", Fraction(31998, 1000)),
    ("argon", "Ar", Fraction(39948, 1000)),
    ("carbon dioxide", "CO2", Fraction(44009, 1000)),
    ("sulfur dioxide", "SO2", Fraction(64066, 1000)),
    ("chlorine", "Cl2", Fraction(70900, 1000)),
    ("krypton", "Kr", Fraction(83798, 1000)),
    ("xenon", "Xe", Fraction(131293, 1000)),
)
SEA = Fraction(1025)
ATM = Fraction(1013, 10)


def kelvin(t_c: int | Fraction) -> Fraction:
    return t_c + KELVIN


def moles(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    p, v, t = rng.randint(80, 500), rng.randint(2, 60), rng.randint(-20, 90)
    n = Fraction(p) * v / (R_GAS * kelvin(t))  # kPa * L = J
    if level == 0:
        q = (
            f"A rigid tank of {v} litres holds gas at {p} kPa and {t} degrees C. {GAS_NOTE} How "
            "many moles of gas are in the tank?"
        )
        meta: dict[str, Any] = {"kind": "moles", "p": p, "v": v, "t": t}
        return numeric(q, "moles", n, meta, [Fraction(p) * v / (R_GAS * (t or 1)), n * 1000])
    name, formula, molar = rng.choice(GASES[2:])
    if level == 1:
        q = (
            f"A rigid tank of {v} litres holds {name} ({formula}, molar mass {num(molar)} g/mol) "
            f"at {p} kPa and {t} degrees C. {GAS_NOTE} What mass of {name} is in the tank?"
        )
        meta = {"kind": "gas_mass", "p": p, "v": v, "t": t, "molar": str(molar)}
        return numeric(
            q, "grams", n * molar, meta, [n, Fraction(p) * v * molar / (R_GAS * (t or 1))]
        )
    t2 = t + rng.randint(20, 80)
    p2 = rng.randint(p // 3, p - 10)
    q = (
        f"A {v} L gas cylinder holds gas at {p} kPa and {t} degrees C. Its valve is opened until "
        f"the pressure has fallen to {p2} kPa, and the gas left inside is then at {t2} degrees "
        f"C. {GAS_NOTE} How many moles of gas escaped?"
    )
    meta = {"kind": "leaked", "p": [p, p2], "v": v, "t": [t, t2]}
    left = Fraction(p2) * v / (R_GAS * kelvin(t2))
    wrong_t = Fraction(p - p2) * v / (R_GAS * kelvin(t))
    return numeric(
        q,
        "moles",
        n - left,
        meta,
        [wrong_t, n - Fraction(p2) * v / (R_GAS * kelvin(t))] if t2 != t else [wrong_t],
    )


def combined(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    p1, v1, v2 = rng.randint(90, 300), rng.randint(2, 20), rng.randint(2, 20)
    t1, t2 = rng.randint(5, 40), rng.randint(60, 250)
    if level == 0:
        q = (
            f"A gas occupies {v1} L at {t1} degrees C. It is heated to {t2} degrees C at constant "
            f"pressure. {GAS_NOTE} What volume does it occupy now?"
        )
        meta: dict[str, Any] = {"kind": "charles", "v1": v1, "t": [t1, t2]}
        return numeric(
            q,
            "litres",
            v1 * kelvin(t2) / kelvin(t1),
            meta,
            [Fraction(v1 * t2, t1), v1 * kelvin(t1) / kelvin(t2)],
        )
    if level == 1:
        q = (
            f"A gas sample at {p1} kPa occupies {v1} L at {t1} degrees C. It is moved into a {v2} "
            f"L container and heated to {t2} degrees C. {GAS_NOTE} What is its new pressure?"
        )
        meta = {"kind": "combined", "p": [p1], "v": [v1, v2], "t": [t1, t2]}
        p2 = Fraction(p1) * v1 * kelvin(t2) / (v2 * kelvin(t1))
        return numeric(q, "kPa", p2, meta, [Fraction(p1 * v1 * t2, v2 * t1), Fraction(p1 * v1, v2)])
    p2 = rng.randint(p1 + 50, 3 * p1)
    t_end = Fraction(p2) * v2 * kelvin(t1) / (p1 * v1) - KELVIN
    if v2 >= v1 or not 20 <= t_end <= 1000:  # a compression, not a furnace
        return None
    q = (
        f"A gas at {p1} kPa, {v1} L and {t1} degrees C is compressed to {v2} L, after which its "
        f"pressure is {p2} kPa. {GAS_NOTE} What is its temperature now, in degrees C?"
    )
    meta = {"kind": "final_temp", "p": [p1, p2], "v": [v1, v2], "t": [t1]}
    return numeric(q, "degrees C", t_end, meta, [t_end + KELVIN, Fraction(p2 * v2 * t1, p1 * v1)])


def partial(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    (name_a, _, ma), (name_b, _, mb) = rng.sample(GASES[1:], 2)
    mass_a, mass_b, v, t = (
        rng.randint(2, 40),
        rng.randint(2, 40),
        rng.randint(5, 50),
        rng.randint(0, 80),
    )
    na, nb = mass_a / ma, mass_b / mb
    if level == 0:
        mol_a, mol_b, total = (
            Fraction(rng.randint(1, 30), 10),
            Fraction(rng.randint(1, 30), 10),
            rng.randint(100, 900),
        )
        q = (
            f"A cylinder holds {num(mol_a)} mol of {name_a} and {num(mol_b)} mol of {name_b} at a "
            f"total pressure of {total} kPa. {GAS_NOTE} What is the partial pressure of the "
            f"{name_a}?"
        )
        meta: dict[str, Any] = {
            "kind": "mole_fraction",
            "n": [str(mol_a), str(mol_b)],
            "total": total,
        }
        return numeric(
            q,
            "kPa",
            total * mol_a / (mol_a + mol_b),
            meta,
            [total * mol_a / mol_b, Fraction(total, 2)] if mol_a != mol_b else [total * mol_a],
        )
    both = (
        f"{an(v).capitalize()} {v} L flask at {t} degrees C contains {mass_a} g of {name_a} "
        f"(molar mass {num(ma)} g/mol) and {mass_b} g of {name_b} (molar mass {num(mb)} g/mol). "
        f"{GAS_NOTE}"
    )
    meta = {"kind": "", "mass": [mass_a, mass_b], "molar": [str(ma), str(mb)], "v": v, "t": t}
    per_mol = R_GAS * kelvin(t) / v
    if level == 1:
        meta["kind"] = "partial"
        q = f"{both} What is the partial pressure of the {name_a}?"
        return numeric(q, "kPa", na * per_mol, meta, [(na + nb) * per_mol, nb * per_mol])
    meta["kind"] = "total_pressure"
    q = f"{both} What is the total pressure in the flask?"
    return numeric(
        q,
        "kPa",
        (na + nb) * per_mol,
        meta,
        [na * per_mol, Fraction(mass_a + mass_b) / ((ma + mb) / 2) * per_mol],
    )


def density(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    name, formula, molar = rng.choice(GASES)
    p, t = rng.randint(50, 400), rng.randint(-30, 150)
    rho = Fraction(p) * molar / (R_GAS * kelvin(t))  # g/L
    if level == 0:
        q = (
            f"What is the density of {name} gas ({formula}, molar mass {num(molar)} g/mol) at {p} "
            f"kPa and {t} degrees C? {GAS_NOTE}"
        )
        meta: dict[str, Any] = {"kind": "density", "p": p, "t": t, "molar": str(molar)}
        return numeric(
            q, "grams per litre", rho, meta, [rho * 1000, Fraction(p) * molar / (R_GAS * 273)]
        )
    if level == 1:
        measured = Fraction(round(rho * 1000), 1000)
        if measured < Fraction(1, 10):
            return None
        q = (
            f"A pure gas has a measured density of {num(measured)} g/L at {p} kPa and {t} degrees "
            f"C. {GAS_NOTE} What is its molar mass?"
        )
        meta = {"kind": "molar_from_density", "p": p, "t": t, "rho": str(measured)}
        value = measured * R_GAS * kelvin(t) / p
        return numeric(
            q,
            "grams per mole",
            value,
            meta,
            [measured * R_GAS * (t or 1) / p, measured * p / (R_GAS * kelvin(t))],
        )
    bar = Fraction(rng.randint(11, 60), 10)
    rho = bar * 100 * molar / (R_GAS * kelvin(t))
    q = (
        f"What is the density of {name} gas ({formula}, molar mass {num(molar)} g/mol) at "
        f"{num(bar)} bar and {t} degrees C, in kilograms per cubic metre? 1 bar = 100 kPa. "
        f"{GAS_NOTE}"
    )
    meta = {"kind": "density_bar", "bar": str(bar), "t": t, "molar": str(molar)}
    return numeric(q, "kg/m^3", rho, meta, [rho / 100, rho * 1000])


def boyle(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    v = rng.randint(2, 40)
    if level == 0:
        p1, p2 = rng.randint(90, 200), rng.randint(210, 800)
        q = (
            f"A sealed syringe holds {v} mL of air at {p1} kPa. The plunger is pushed in slowly, "
            f"at constant temperature, until the pressure is {p2} kPa. What volume does the air "
            "occupy now?"
        )
        meta: dict[str, Any] = {"kind": "boyle", "v": v, "p": [p1, p2]}
        return numeric(
            q,
            "millilitres",
            Fraction(v * p1, p2),
            meta,
            [Fraction(v * p2, p1), v * Fraction(p2 - p1, p2)],
        )
    depth = rng.randint(5, 60)
    water = (
        f"Take the pressure at the surface as {num(ATM)} kPa, seawater's density as {SEA} kg/m^3 "
        f"and g = {num(G)} m/s^2."
    )
    deep = ATM + SEA * G * depth / 1000
    if level == 1:
        q = (
            f"A diver {depth} m below the surface of the sea breathes out a bubble of {v} cm^3 "
            "that rises to the surface without gaining or losing air or changing temperature. "
            f"{water} What is its volume at the surface?"
        )
        meta = {"kind": "bubble", "v": v, "depth": depth}
        return numeric(
            q,
            "cm^3",
            v * deep / ATM,
            meta,
            [v * (SEA * G * depth / 1000) / ATM, v * ATM / deep],
        )
    t_deep, t_top = rng.randint(4, 12), rng.randint(18, 30)
    q = (
        f"A bubble of {v} cm^3 leaves a diver {depth} m below the surface of the sea, where the "
        f"water is at {t_deep} degrees C, and rises to the surface, where the water is at {t_top} "
        f"degrees C, taking the temperature of the water around it. {water} T(K) = T(degrees C) + "
        "273.15. What is its volume at the surface?"
    )
    meta = {"kind": "bubble_warm", "v": v, "depth": depth, "t": [t_deep, t_top]}
    value = v * deep / ATM * kelvin(t_top) / kelvin(t_deep)
    return numeric(q, "cm^3", value, meta, [v * deep / ATM, v * deep / ATM * t_top / t_deep])


#: the temperatures (degrees C) a pressure-factor row starts and ends at
FACTOR_TEMPS = ((-40, 150), (-40, 450))


def pressure_factor(
    rng: random.Random,
    level: int,
    slot: int | None,
    ordinal: int,
    temps: tuple[tuple[int, int], tuple[int, int]] = FACTOR_TEMPS,
) -> Item | None:
    assert slot is not None
    t1, t2 = rng.randint(*temps[0]), rng.randint(*temps[1])
    if abs(t2 - t1) < 60 or 0 in (t1, t2):
        return None
    v1, v2 = (1, 1) if level == 0 else (rng.randint(2, 30), rng.randint(2, 30))
    if level and v1 == v2:
        return None
    k = Fraction(v1, v2)
    ratio, celsius = kelvin(t2) / kelvin(t1), Fraction(t2, t1)
    t_1, t_2 = kelvin(t1), kelvin(t2)
    pool = [celsius * k, k / ratio, k / celsius, t_2 / KELVIN * k, ratio * ratio * k]
    pool += [abs(t_2 - t_1) / t_1 * k, t2 / t_1 * k, t_2 / t1 * k]  # change as a share; mixed units
    if level:
        pool += [ratio / k, celsius / k, 1 / (ratio * k), ratio, k]
    change = "warmed" if t2 > t1 else "cooled"
    if level == 0:
        q = (
            f"A sealed steel cylinder of gas is {change} from {t1} degrees C to {t2} degrees C; "
            f"its volume does not change. {GAS_NOTE} By what factor is the pressure of the gas "
            "multiplied?"
        )
    elif level == 1:
        q = (
            f"A gas in a cylinder with a piston is {change} from {t1} degrees C to {t2} degrees C "
            f"while the piston moves so that its volume goes from {v1} L to {v2} L. {GAS_NOTE} By "
            "what factor is its pressure multiplied?"
        )
    else:
        q = (
            f"A gas at {t1} degrees C fills a {v1} L vessel. All of it is pumped into a {v2} L "
            f"vessel, where it settles at {t2} degrees C. {GAS_NOTE} By what factor has its "
            "pressure been multiplied?"
        )
    meta = {"kind": "pressure_factor", "t": [t1, t2], "v": [v1, v2]}
    return numeric_options(rng, q, ratio * k, pool, slot, "", meta)


def which_gas(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    assert slot is not None
    picks = sorted(rng.sample(range(len(GASES)), 4))
    v, t, p = flask(rng)
    grams = gas_grams(picks[slot], v, t, p)
    if grams < 1:
        return None
    return which_gas_item(picks, slot, v, t, p, grams)


def flask(rng: random.Random) -> tuple[int, int, int]:
    """A which-gas flask's volume (L), temperature (degrees C) and pressure (kPa)."""
    return rng.randint(1, 20), rng.randint(-10, 90), rng.randint(80, 300)


def gas_grams(gas: int, v: int, t: int, p: int) -> Fraction:
    """The mass of ``GASES[gas]`` a flask holds, to the centigram."""
    return Fraction(round(Fraction(p) * v / (R_GAS * kelvin(t)) * GASES[gas][2] * 100), 100)


def which_gas_item(picks: list[int], slot: int, v: int, t: int, p: int, grams: Fraction) -> Item:
    """The which-gas item of a flask holding ``grams`` of ``GASES[picks[slot]]``."""
    q = (
        f"{an(v).capitalize()} {v} L flask at {t} degrees C and {p} kPa holds {num(grams)} g of a "
        f"single pure gas. {GAS_NOTE} Which gas is it?"
    )
    options = [
        f"{name} ({formula}, {num(m)} g/mol)" for name, formula, m in (GASES[i] for i in picks)
    ]
    meta = {"kind": "which_gas", "v": v, "t": t, "p": p, "grams": str(grams)}
    return plan.mc_item(q, options, slot, meta)


BUILD = {
    "moles": moles,
    "combined": combined,
    "partial": partial,
    "density": density,
    "boyle": boyle,
    "pressure_factor": pressure_factor,
    "which_gas": which_gas,
}


# ---- proofs: through invariants (p V / T, moles), not the builders' formulas -----------------
def _k(t_c: float) -> float:
    return t_c + 273.15


def _moles(p_kpa: float, v_l: float, t_c: float) -> float:
    return p_kpa * 1000 * (v_l / 1000) / (8.314 * _k(t_c))


def _prove_gas(row: dict[str, Any]) -> None:  # noqa: C901 - one line per kind
    m, kind = row["meta"], row["meta"]["kind"]
    if kind == "moles":
        value = _moles(m["p"], m["v"], m["t"])
    elif kind == "gas_mass":
        value = _moles(m["p"], m["v"], m["t"]) * frac(m["molar"])
    elif kind == "leaked":
        value = _moles(m["p"][0], m["v"], m["t"][0]) - _moles(m["p"][1], m["v"], m["t"][1])
    elif kind == "charles":
        value = m["v1"] / _k(m["t"][0]) * _k(m["t"][1])  # V / T is conserved
    elif kind == "combined":
        invariant = m["p"][0] * m["v"][0] / _k(m["t"][0])
        value = invariant * _k(m["t"][1]) / m["v"][1]
    elif kind == "final_temp":
        invariant = m["p"][0] * m["v"][0] / _k(m["t"][0])
        value = bisect(lambda t: m["p"][1] * m["v"][1] / _k(t) - invariant, -273.0, 1e5)
    elif kind == "mole_fraction":
        na, nb = frac(m["n"][0]), frac(m["n"][1])
        value = m["total"] * na / (na + nb)
    elif kind in ("partial", "total_pressure"):
        n = [mass / frac(mm) for mass, mm in zip(m["mass"], m["molar"], strict=True)]
        share = n[0] if kind == "partial" else sum(n)
        value = share * 8.314 * _k(m["t"]) / (m["v"] / 1000) / 1000
    elif kind == "density":
        value = frac(m["molar"]) / (8.314 * _k(m["t"]) / (m["p"] * 1000) * 1000)
    elif kind == "molar_from_density":
        value = frac(m["rho"]) / _moles(m["p"], 1.0, m["t"])  # grams in one litre / moles
    elif kind == "density_bar":
        value = _moles(frac(m["bar"]) * 100, 1000.0, m["t"]) * frac(m["molar"]) / 1000
    elif kind == "boyle":
        value = m["v"] * m["p"][0] / m["p"][1]  # p V is conserved
    else:  # the bubble's moles are conserved from depth to surface
        surface, deep = 101.3, 101.3 + 1025 * 9.81 * m["depth"] / 1000
        t_deep, t_top = m.get("t", [10, 10])
        held = _moles(deep, m["v"] / 1000, t_deep)
        value = bisect(lambda v: _moles(surface, v / 1000, t_top) - held, 0.0, 1e6)
    check_numeric(row, value)


def _prove_factor(row: dict[str, Any]) -> None:
    m = row["meta"]
    before = _moles(100.0, m["v"][0], m["t"][0])  # at 100 kPa, then hold the moles fixed
    after = bisect(lambda p: _moles(p, m["v"][1], m["t"][1]) - before, 0.0, 1e6)
    check_value_options(row, after / 100.0)


def _prove_which_gas(row: dict[str, Any]) -> None:
    m = row["meta"]
    molar = frac(m["grams"]) / _moles(m["p"], m["v"], m["t"])
    listed = [float(c.split(", ")[-1].split()[0]) for c in row["choices"]]
    assert listed == sorted(listed), row["id"]
    nearest = min(range(4), key=lambda i: abs(listed[i] / molar - 1))
    assert abs(listed[nearest] / molar - 1) < 0.01, (row["id"], molar)
    check_choice(row, row["choices"][nearest])


PROVE = {
    **{
        k: _prove_gas
        for k in (
            "moles",
            "gas_mass",
            "leaked",
            "charles",
            "combined",
            "final_temp",
            "mole_fraction",
            "partial",
            "total_pressure",
            "density",
            "molar_from_density",
            "density_bar",
            "boyle",
            "bubble",
            "bubble_warm",
        )
    },
    "pressure_factor": _prove_factor,
    "which_gas": _prove_which_gas,
}
