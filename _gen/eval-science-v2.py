# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-science-v2: applied physics and chemistry with every constant in the prompt (spec 001,
the -v2 wave).

Five categories: kinematics, circuits, gas laws, stoichiometry and energy. Each prompt states
every constant it needs (g, R, 273.15, molar masses, specific and latent heats, densities) and
the unit and rounding of the answer, so nothing depends on a textbook edition. Traps are
deliberate: Celsius that must become kelvin, km/h that must become m/s, the smaller mass that is
not the limiting reagent, the largest resistor that does not dissipate the most power,
and irrelevant data (a car's mass in a distance question).

Numeric answers: prompts ask for 3 significant figures; ``answer`` holds the exact value rounded
to 4 significant figures and the tolerance rule is relative, 1 % of the answer
(``meta.tolerance_relative`` = 0.01; ``meta.tolerance`` is that amount in absolute terms for
this answer, the form docs/datasets.md#rows gives the numeric scorer). 1 % admits any correct
3-figure rounding and intermediate rounding by the model, and every trap value is checked by
``prove`` to lie at least 3 % away from the answer. Balanced equations are re-checked atom by
atom.
"""

from __future__ import annotations

import math
import random
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, v2
from families.science.base import KELVIN, R_GAS, RELATIVE, TRAP_GAP, G, bisect, num, sqrt
from families.science.chem import REACTIONS, atoms, equation, mass_note, molar_mass
from families.science.circuits import parallel
from families.science.energy import METALS

DATASET_ID = "eval-science-v2"
KIND = "eval"
DESCRIPTION = (
    "Applied physics and chemistry (kinematics, circuits, gas laws, stoichiometry, energy) with "
    "every constant given in the prompt; numeric answers to 3 significant figures with a 1 % "
    "relative tolerance, plus mc and exact rows."
)
SEED = 2_000_501
COUNT = 120
CREATED = "2026-09-01"
DEFAULT_SCORER = "numeric"
CATEGORIES = ("kinematics", "circuits", "gas_laws", "stoichiometry", "energy")
Item = dict[str, Any]


def numeric(
    question: str,
    unit: str,
    value: float | Fraction,
    meta: dict[str, Any],
    traps: list[Any] | None = None,
) -> Item:
    """A numeric item: rounding instruction, 4-figure gold, tolerance and the trap values."""
    exact = Fraction(value).limit_denominator(10**12) if isinstance(value, float) else value
    answer = v2.fmt_sig(exact, 4)
    meta = {**meta, **v2.tolerance_meta(answer, RELATIVE), "traps": [float(t) for t in traps or []]}
    prompt = f"{question} Give the answer in {unit}, rounded to 3 significant figures."
    return {"question": prompt, "scorer": "numeric", "answer": answer, "meta": meta}


def an(value: Any) -> str:
    """Article for a number read aloud: "an 8 L flask", "an 18 V supply", "a 12 V supply"."""
    text = num(value)
    return "an" if text.startswith("8") or text[:2] in ("11", "18") and len(text) in (2, 5) else "a"


# ---- kinematics -------------------------------------------------------------------------------
def kinematics(rng: random.Random, level: int, variant: int) -> Item:
    g = f"Take g = {num(G)} m/s^2 and ignore air resistance."
    if variant == 0:
        if level == 0:
            u, v, t, mass = (
                rng.randint(0, 10),
                rng.randint(15, 35),
                rng.randint(4, 15),
                rng.randint(900, 2000),
            )
            q = (
                f"A car of mass {mass} kg speeds up uniformly from {u} m/s to {v} m/s in {t} s. "
                f"How far does it travel during that time?"
            )
            meta: dict[str, Any] = {"kind": "uniform_accel", "u": u, "v": v, "t": t}
            return numeric(q, "metres", Fraction(u + v, 2) * t, meta, [v * t, Fraction(v, 2) * t])
        if level == 1:
            v0, h = rng.randint(5, 25), rng.randint(5, 60)
            t_hit = (v0 + sqrt(v0 * v0 + 2 * G * h)) / float(G)
            q = (
                f"A stone is thrown straight up at {v0} m/s from the edge of a cliff {h} m above "
                f"the ground and falls past the edge to the ground below. {g} How long after the "
                f"throw does it hit the ground?"
            )
            meta = {"kind": "throw_up", "v0": v0, "h": h, "g": str(G)}
            return numeric(q, "seconds", t_hit, meta, [2 * v0 / float(G), sqrt(2 * h / G)])
        va, delay, a = rng.randint(10, 30), rng.randint(2, 10), Fraction(rng.randint(10, 40), 10)
        t_meet = (float(va) + sqrt(va * va + 2 * a * va * delay)) / float(a)
        q = (
            f"A van passes a parked motorbike at a steady {va} m/s. {delay} s later the motorbike "
            f"sets off from rest after it with a constant acceleration of {num(a)} m/s^2. How long "
            f"after setting off does the motorbike draw level with the van?"
        )
        meta = {"kind": "chase", "va": va, "delay": delay, "a": str(a)}
        return numeric(q, "seconds", t_meet, meta, [t_meet + delay, 2 * va / float(a)])
    if variant == 2:
        v, h = rng.randint(5, 30), rng.randint(10, 120)
        reach = v * sqrt(2 * h / G)
        q = (
            f"A ball is thrown horizontally at {v} m/s from the top of a tower {h} m tall. {g} How "
            f"far from the foot of the tower does it land?"
        )
        meta = {"kind": "horizontal", "v": v, "h": h, "g": str(G)}
        return numeric(q, "metres", reach, meta, [v * sqrt(h / G), v * v / float(G)])
    while True:
        launches = []
        for _ in range(4):
            speed = rng.randint(10, 30) if level else 20
            angle = rng.choice((15, 20, 30, 35, 40, 45, 50, 55, 60, 70, 75))
            launches.append((speed, angle))
        ranges = [s * s * math.sin(math.radians(2 * a)) / float(G) for s, a in launches]
        order = sorted(range(4), key=ranges.__getitem__)
        if len(set(launches)) == 4 and ranges[order[-1]] > ranges[order[-2]] * 1.03:
            break
    texts = [f"{s} m/s at {a} degrees above the horizontal" for s, a in launches]
    q = (
        f"Four balls are launched from level ground and land back on it. {g} Which launch "
        f"travels the greatest horizontal distance?"
    )
    meta = {"kind": "range_choice", "launches": launches, "g": str(G)}
    return {
        "question": q,
        "scorer": "mc",
        "correct": texts[order[-1]],
        "distractors": [texts[i] for i in order[:-1]],
        "meta": meta,
    }


# ---- circuits ---------------------------------------------------------------------------------


def circuits(rng: random.Random, level: int, variant: int) -> Item:
    res = [
        Fraction(rng.choice((10, 12, 15, 20, 22, 27, 33, 47, 56, 68, 82, 100, 120, 150, 220)))
        for _ in range(4)
    ]
    volts = Fraction(rng.choice((6, 9, 12, 15, 18, 24, 30, 48)))
    ideal = "The supply is ideal and the wires have no resistance."
    if variant == 0:
        r1, r2, r3, r4 = res
        if level == 0:
            q = (
                f"{an(volts).capitalize()} {num(volts)} V supply drives resistors of {r1} ohm and "
                f"{r2} ohm connected in "
                f"series. {ideal} What current flows?"
            )
            meta: dict[str, Any] = {"kind": "series", "volts": str(volts), "r": [str(r1), str(r2)]}
            return numeric(
                q,
                "milliamperes",
                volts / (r1 + r2) * 1000,
                meta,
                [volts / r1 * 1000, volts / (r1 + r2)],
            )
        total = r1 + parallel(r2, r3) if level == 1 else r1 + parallel(r2, r3 + r4)
        across = volts * (total - r1) / total
        if level == 1:
            q = (
                f"{an(volts).capitalize()} {num(volts)} V supply is connected to {an(r1)} {r1} ohm "
                "resistor in series with a "
                f"parallel pair of {r2} ohm and {r3} ohm resistors. {ideal} What current flows "
                f"through the {r3} ohm resistor?"
            )
            meta = {"kind": "branch_current", "volts": str(volts), "r": [str(r1), str(r2), str(r3)]}
            return numeric(
                q,
                "milliamperes",
                across / r3 * 1000,
                meta,
                [volts / r3 * 1000, volts / total * 1000],
            )
        q = (
            f"{an(volts).capitalize()} {num(volts)} V supply is connected to resistor R1 = {r1} "
            "ohm in series with a "
            f"parallel combination of R2 = {r2} ohm and a branch made of R3 = {r3} ohm in series "
            f"with R4 = {r4} ohm. {ideal} What power is dissipated in R2?"
        )
        meta = {
            "kind": "branch_power",
            "volts": str(volts),
            "r": [str(r1), str(r2), str(r3), str(r4)],
        }
        return numeric(
            q,
            "milliwatts",
            across * across / r2 * 1000,
            meta,
            [volts * volts / r2 * 1000, (volts / total) ** 2 * r2 * 1000],
        )
    if variant == 2:
        caps = [Fraction(rng.choice((1, 2, 3, 4, 5, 6, 8, 10, 22, 47))) for _ in range(3)]
        c1, c2, c3 = caps
        if level == 0:
            total, shape = c1 + c2, f"{c1} uF and {c2} uF capacitors connected in parallel"
        elif level == 1:
            total, shape = parallel(c1, c2), f"{c1} uF and {c2} uF capacitors connected in series"
        else:
            total = parallel(c1, c2 + c3)
            shape = (
                f"{an(c1)} {c1} uF capacitor in series with a parallel pair of {c2} uF and {c3} uF "
                f"capacitors"
            )
        energy = total * volts * volts / 2  # microjoules
        q = (
            f"{an(volts).capitalize()} {num(volts)} V supply fully charges {shape} (uF = "
            "microfarad). How much energy is "
            f"stored in the capacitors in total?"
        )
        meta = {
            "kind": "capacitors",
            "volts": str(volts),
            "c": [str(c) for c in caps],
            "layout": level,
        }
        return numeric(
            q,
            "microjoules",
            energy,
            meta,
            [total * volts * volts, (c1 + c2 + c3) * volts * volts / 2],
        )
    while True:
        r1, r2, r3 = res[:3]
        total = r1 + parallel(r2, r3)
        current = volts / total
        across = volts - current * r1
        powers = {
            "R1": current * current * r1,
            "R2": across * across / r2,
            "R3": across * across / r3,
        }
        ranked = sorted(powers, key=powers.__getitem__)
        if powers[ranked[-1]] > powers[ranked[-2]] * Fraction(105, 100) and (
            level == 0 or max(res[:3]) != {"R1": r1, "R2": r2, "R3": r3}[ranked[-1]]
        ):
            break
        res = [Fraction(rng.choice((10, 15, 22, 33, 47, 68, 100, 150))) for _ in range(4)]
    q = (
        f"{an(volts).capitalize()} {num(volts)} V supply is connected to R1 = {r1} ohm in series "
        "with a parallel pair "
        f"R2 = {r2} ohm and R3 = {r3} ohm. {ideal} Which resistor dissipates the most power?"
    )
    meta = {"kind": "max_power", "volts": str(volts), "r": [str(r1), str(r2), str(r3)]}
    return {
        "question": q,
        "scorer": "mc",
        "correct": ranked[-1],
        "distractors": [*ranked[:-1], "All three dissipate the same power"],
        "meta": meta,
    }


# ---- gas laws ---------------------------------------------------------------------------------
GASES = (
    ("nitrogen", "N2", Fraction(28014, 1000)),
    ("oxygen", "O2", Fraction(31998, 1000)),
    ("argon", "Ar", Fraction(39948, 1000)),
    ("helium", "He", Fraction(4003, 1000)),
    ("carbon dioxide", "CO2", Fraction(44009, 1000)),
    ("methane", "CH4", Fraction(16043, 1000)),
)
GAS_NOTE = (
    f"Treat the gases as ideal; use R = {num(R_GAS)} J/(mol K) and "
    f"T(K) = T(degrees C) + {num(KELVIN)}."
)


def gas_laws(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        if level == 0:
            p_kpa, v_l, t_c = rng.randint(80, 500), rng.randint(2, 60), rng.randint(-20, 90)
            n = Fraction(p_kpa) * v_l / (R_GAS * (t_c + KELVIN))  # kPa * L = J
            q = (
                f"A rigid tank of {v_l} litres holds gas at {p_kpa} kPa and {t_c} degrees C. "
                f"{GAS_NOTE} How many moles of gas are in the tank?"
            )
            meta: dict[str, Any] = {"kind": "moles", "p_kpa": p_kpa, "v_l": v_l, "t_c": t_c}
            return numeric(
                q, "moles", n, meta, [Fraction(p_kpa) * v_l / (R_GAS * t_c or 1), n * 1000]
            )
        if level == 1:
            p1, v1, v2_, t1, t2 = (
                rng.randint(90, 300),
                rng.randint(2, 20),
                rng.randint(2, 20),
                rng.randint(5, 40),
                rng.randint(60, 250),
            )
            p2 = Fraction(p1) * v1 * (t2 + KELVIN) / (v2_ * (t1 + KELVIN))
            q = (
                f"A gas sample at {p1} kPa occupies {v1} L at {t1} degrees C. It is moved into a "
                f"{v2_} L container and heated to {t2} degrees C. {GAS_NOTE} What is its new "
                f"pressure?"
            )
            meta = {"kind": "combined", "p1": p1, "v1": v1, "v2": v2_, "t1": t1, "t2": t2}
            return numeric(
                q, "kPa", p2, meta, [Fraction(p1) * v1 * t2 / (v2_ * t1), Fraction(p1) * v1 / v2_]
            )
        (name_a, _, ma), (name_b, _, mb) = rng.sample(GASES, 2)
        mass_a, mass_b = rng.randint(2, 40), rng.randint(2, 40)
        v_l, t_c = rng.randint(5, 50), rng.randint(0, 80)
        partial = mass_a / ma * R_GAS * (t_c + KELVIN) / v_l
        q = (
            f"{an(v_l).capitalize()} {v_l} L flask at {t_c} degrees C contains {mass_a} g of "
            f"{name_a} (molar mass "
            f"{num(ma)} g/mol) and {mass_b} g of {name_b} (molar mass {num(mb)} g/mol). "
            f"{GAS_NOTE} What is the partial pressure of the {name_a}?"
        )
        meta = {
            "kind": "partial",
            "mass": [mass_a, mass_b],
            "molar": [str(ma), str(mb)],
            "v_l": v_l,
            "t_c": t_c,
        }
        total = (mass_a / ma + mass_b / mb) * R_GAS * (t_c + KELVIN) / v_l
        return numeric(q, "kPa", partial, meta, [total, mass_b / mb * R_GAS * (t_c + KELVIN) / v_l])
    if variant == 2:
        name, formula, molar = rng.choice(GASES)
        p_kpa, t_c = rng.randint(50, 400), rng.randint(-30, 150)
        rho = Fraction(p_kpa) * molar / (R_GAS * (t_c + KELVIN))  # g/L
        q = (
            f"What is the density of {name} gas ({formula}, molar mass {num(molar)} g/mol) at "
            f"{p_kpa} kPa and {t_c} degrees C? {GAS_NOTE}"
        )
        meta = {"kind": "density", "p_kpa": p_kpa, "t_c": t_c, "molar": str(molar)}
        return numeric(
            q, "grams per litre", rho, meta, [rho * 1000, Fraction(p_kpa) * molar / (R_GAS * 273)]
        )
    t1 = rng.randint(5, 60)
    t2 = t1 * rng.choice((2, 3)) if level < 2 else t1 + rng.randint(20, 120)
    factor = (t2 + KELVIN) / (t1 + KELVIN)
    wrong = [Fraction(t2, t1), 1 / factor, Fraction(1)]
    texts = [f"It is multiplied by about {v2.fmt_decimal(f, 3)}" for f in (factor, *wrong)]
    q = (
        f"A sealed steel cylinder of gas is warmed from {t1} degrees C to {t2} degrees C; its "
        f"volume does not change. {GAS_NOTE} What happens to the pressure of the gas?"
    )
    meta = {"kind": "pressure_factor", "t1": t1, "t2": t2}
    return {
        "question": q,
        "scorer": "mc",
        "correct": texts[0],
        "distractors": texts[1:],
        "meta": meta,
    }


# ---- stoichiometry ----------------------------------------------------------------------------
def stoichiometry(rng: random.Random, level: int, variant: int) -> Item:
    reaction = rng.choice(REACTIONS)
    (ca, fa, na), (cb, fb, nb) = reaction[0]
    cp, fp, np_ = rng.choice(reaction[1])
    head = f"Consider the balanced reaction {equation(reaction)}. {mass_note(reaction)}"
    moles_a = lambda grams: grams / molar_mass(fa)  # noqa: E731
    if variant == 0:
        mass_a = Fraction(rng.randint(10, 500), 10)
        if level == 0:
            grams = moles_a(mass_a) * Fraction(cp, ca) * molar_mass(fp)
            q = (
                f"{head} What mass of {np_} ({fp}) forms when {num(mass_a)} g of {na} ({fa}) "
                f"reacts completely with excess {nb}?"
            )
            meta: dict[str, Any] = {
                "kind": "yield_mass",
                "reaction": equation(reaction),
                "given": [fa, str(mass_a)],
                "product": fp,
            }
            return numeric(
                q,
                "grams",
                grams,
                meta,
                [mass_a * Fraction(cp, ca), moles_a(mass_a) * molar_mass(fp)],
            )
        mass_b = Fraction(rng.randint(10, 500), 10)
        extent = min(moles_a(mass_a) / ca, mass_b / molar_mass(fb) / cb)
        if level == 1:
            grams = extent * cp * molar_mass(fp)
            q = (
                f"{head} {num(mass_a)} g of {na} ({fa}) is mixed with {num(mass_b)} g of {nb} "
                f"({fb}) and the reaction runs to completion. What mass of {np_} ({fp}) forms?"
            )
            meta = {
                "kind": "limiting_mass",
                "reaction": equation(reaction),
                "masses": {fa: str(mass_a), fb: str(mass_b)},
                "product": fp,
            }
            other = max(moles_a(mass_a) / ca, mass_b / molar_mass(fb) / cb)
            return numeric(q, "grams", grams, meta, [other * cp * molar_mass(fp)])
        left = {
            fa: mass_a - extent * ca * molar_mass(fa),
            fb: mass_b - extent * cb * molar_mass(fb),
        }
        spare = max(left, key=left.__getitem__)
        q = (
            f"{head} {num(mass_a)} g of {na} ({fa}) is mixed with {num(mass_b)} g of {nb} ({fb}) "
            f"and the reaction runs to completion. What mass of the reactant in excess is left "
            f"over?"
        )
        meta = {
            "kind": "excess_left",
            "reaction": equation(reaction),
            "masses": {fa: str(mass_a), fb: str(mass_b)},
            "spare": spare,
        }
        if left[spare] < Fraction(1, 2):
            return stoichiometry(rng, level, variant)
        return numeric(q, "grams", left[spare], meta, [abs(mass_a - mass_b)])
    if variant == 1:
        while True:
            mass_a, mass_b = Fraction(rng.randint(10, 500), 10), Fraction(rng.randint(10, 500), 10)
            runs = {fa: moles_a(mass_a) / ca, fb: mass_b / molar_mass(fb) / cb}
            limiting = min(runs, key=runs.__getitem__)
            bigger_mass = fa if mass_a > mass_b else fb
            more_moles = fa if moles_a(mass_a) > mass_b / molar_mass(fb) else fb
            trap = {0: True, 1: limiting == bigger_mass, 2: limiting == more_moles}[level]
            if trap and runs[limiting] * Fraction(11, 10) < max(runs.values()):
                break
        q = (
            f"{head} {num(mass_a)} g of {na} ({fa}) is mixed with {num(mass_b)} g of {nb} ({fb}). "
            f"Which reactant is used up first (the limiting reagent)? Give its formula."
        )
        meta = {
            "kind": "limiting",
            "reaction": equation(reaction),
            "masses": {fa: str(mass_a), fb: str(mass_b)},
        }
        name = na if limiting == fa else nb
        return {"question": q, "scorer": "exact", "answer": [limiting, name], "meta": meta}
    mass_b = Fraction(rng.randint(10, 300), 10)
    need = mass_b / molar_mass(fb) * Fraction(ca, cb)
    wrong = [
        mass_b / molar_mass(fb),
        mass_b / molar_mass(fb) * Fraction(cb, ca),
        mass_b / molar_mass(fa) * Fraction(ca, cb),
    ]
    unit, scale = ("mol", Fraction(1)) if level == 0 else ("g", molar_mass(fa))
    texts = [f"{v2.fmt_sig(x * scale, 3)} {unit}" for x in (need, *wrong)]
    if len(set(texts)) < 4:
        return stoichiometry(rng, level, variant)
    what = "How many moles" if level == 0 else "What mass"
    q = (
        f"{head} {what} of {na} ({fa}) {'are' if level == 0 else 'is'} needed to react completely "
        "with "
        f"{num(mass_b)} g of {nb} ({fb})?"
    )
    meta = {
        "kind": "amount_needed",
        "reaction": equation(reaction),
        "given": [fb, str(mass_b)],
        "wanted": fa,
        "unit": unit,
    }
    return {
        "question": q,
        "scorer": "mc",
        "correct": texts[0],
        "distractors": texts[1:],
        "meta": meta,
    }


# ---- energy -----------------------------------------------------------------------------------
C_WATER, C_ICE, L_FUSION = Fraction(4186), Fraction(2100), Fraction(334_000)


def energy(rng: random.Random, level: int, variant: int) -> Item:
    if variant == 0:
        if level == 0:
            m, kmh = rng.randint(50, 2500), rng.randint(20, 130)
            v = Fraction(kmh * 1000, 3600)
            q = f"What is the kinetic energy of {an(m)} {m} kg object moving at {kmh} km/h?"
            meta: dict[str, Any] = {"kind": "kinetic", "m": m, "kmh": kmh}
            return numeric(
                q,
                "kilojoules",
                m * v * v / 2 / 1000,
                meta,
                [Fraction(m * kmh * kmh, 2000), m * v * v / 1000],
            )
        if level == 1:
            litres, h, eff = (
                rng.randint(100, 5000),
                rng.randint(3, 60),
                rng.choice((40, 50, 60, 65, 70, 80)),
            )
            work = Fraction(litres) * G * h  # 1 L of water = 1 kg
            q = (
                f"An electric pump lifts {litres} litres of water through a height of {h} m. The "
                f"pump is {eff}% efficient. Take the density of water as 1 kg per litre and "
                f"g = {num(G)} m/s^2. How much electrical energy does the pump use?"
            )
            meta = {"kind": "pump", "litres": litres, "h": h, "eff": eff, "g": str(G)}
            return numeric(
                q,
                "kilojoules",
                work * 100 / eff / 1000,
                meta,
                [work / 1000, work * eff / 100 / 1000],
            )
        kg, t_ice, t_end = Fraction(rng.randint(2, 50), 10), rng.randint(5, 30), rng.randint(10, 80)
        heat = kg * (C_ICE * t_ice + L_FUSION + C_WATER * t_end)
        q = (
            f"How much heat is needed to turn {num(kg)} kg of ice at -{t_ice} degrees C into water "
            f"at {t_end} degrees C? Use specific heats of {C_ICE} J/(kg K) for ice and {C_WATER} "
            f"J/(kg K) for water, and a latent heat of fusion of {L_FUSION} J/kg."
        )
        meta = {"kind": "ice_to_water", "m": str(kg), "t_ice": t_ice, "t_end": t_end}
        return numeric(
            q,
            "kilojoules",
            heat / 1000,
            meta,
            [kg * C_WATER * (t_end + t_ice) / 1000, kg * (C_ICE * t_ice + C_WATER * t_end) / 1000],
        )
    if variant == 2:
        m1, t1 = Fraction(rng.randint(100, 900)), rng.randint(40, 90)
        if level == 0:
            m2, t2 = Fraction(rng.randint(100, 900)), rng.randint(5, 30)
            final = (m1 * t1 + m2 * t2) / (m1 + m2)
            q = (
                f"{m1} g of water at {t1} degrees C is mixed with {m2} g of water at {t2} degrees "
                f"C in an insulated container. What is the final temperature?"
            )
            meta = {"kind": "mix_water", "m": [str(m1), str(m2)], "t": [t1, t2]}
            traps = [Fraction(t1 + t2, 2)]
        elif level == 1:
            metal, c_metal = rng.choice(METALS)
            m2, t2 = Fraction(rng.randint(200, 2000)), rng.randint(150, 400)
            final = (m1 * C_WATER * t1 + m2 * c_metal * t2) / (m1 * C_WATER + m2 * c_metal)
            q = (
                f"{an(m2).capitalize()} {m2} g block of {metal} (specific heat {c_metal} J/(kg K)) "
                f"at {t2} degrees C "
                f"is dropped into {m1} g of water (specific heat {C_WATER} J/(kg K)) at {t1} "
                f"degrees C in an insulated container; no water boils. What is the final "
                f"temperature?"
            )
            meta = {"kind": "mix_metal", "m": [str(m1), str(m2)], "t": [t1, t2], "c": c_metal}
            traps = [(m1 * t1 + m2 * t2) / (m1 + m2)]
            if final >= 95:  # the prompt promises that no water boils
                return energy(rng, level, variant)
        else:
            m2 = Fraction(rng.randint(10, 60))
            final = (m1 * C_WATER * t1 - m2 * L_FUSION) / ((m1 + m2) * C_WATER)
            q = (
                f"{m2} g of ice at 0 degrees C is dropped into {m1} g of water at {t1} degrees C "
                "in "
                f"an insulated container, and all of the ice melts. Use {C_WATER} J/(kg K) for "
                f"the specific heat of water and {L_FUSION} J/kg for the latent heat of fusion of "
                f"ice. What is the final temperature?"
            )
            meta = {"kind": "mix_ice", "m": [str(m1), str(m2)], "t": [t1, 0]}
            traps = [m1 * t1 / (m1 + m2)]
            if final < 1:
                return energy(rng, level, variant)
        return numeric(q, "degrees C", final, meta, traps)
    while True:
        m_car, kmh = rng.randint(800, 2000), rng.randint(30, 130)
        m_lift, h = rng.randint(50, 2000), rng.randint(2, 50)
        water, dt = rng.randint(1, 20), rng.randint(5, 60)
        volts, amp_h = rng.choice((3, 12, 48)), rng.randint(2, 100)
        options = {
            f"{an(m_car).capitalize()} {m_car} kg car moving at {kmh} km/h (its kinetic "
            "energy)": Fraction(m_car) * Fraction(kmh * 1000, 3600) ** 2 / 2,
            f"{an(m_lift).capitalize()} {m_lift} kg load raised {h} m (its gain in potential "
            "energy)": m_lift * G * h,
            f"{water} litres of water heated by {dt} degrees C (the heat it absorbs)": water
            * C_WATER
            * dt,
            f"{an(volts).capitalize()} {volts} V battery rated {amp_h} ampere-hours (its stored "
            "energy)": Fraction(volts * amp_h * 3600),
        }
        ranked = sorted(options, key=options.__getitem__)
        if (
            options[ranked[-1]] > options[ranked[-2]] * Fraction((130, 115, 105)[level], 100)
            and options[ranked[-1]] < options[ranked[-2]] * 3
        ):
            break
    q = (
        f"Which of these involves the most energy? Take g = {num(G)} m/s^2, 1 litre of water = "
        f"1 kg and a specific heat of water of {C_WATER} J/(kg K)."
    )
    meta = {"kind": "most_energy", "values": {k: float(v) for k, v in options.items()}}
    return {
        "question": q,
        "scorer": "mc",
        "correct": ranked[-1],
        "distractors": ranked[:-1],
        "meta": meta,
    }


# ---- rows and proofs --------------------------------------------------------------------------
BUILDERS = {
    "kinematics": kinematics,
    "circuits": circuits,
    "gas_laws": gas_laws,
    "stoichiometry": stoichiometry,
    "energy": energy,
}


def _traps_clear(item: Item) -> bool:
    if item["scorer"] != "numeric":
        return True
    gold = float(item["answer"])
    return all(abs(t - gold) > float(TRAP_GAP) * abs(gold) for t in item["meta"]["traps"])


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    """Row ``idx``: category cycles fastest, then difficulty, then the question form; items
    whose trap values land within 3 % of the answer are redrawn."""
    category, level, variant = v2.cell(idx, CATEGORIES)
    item = BUILDERS[category](rng, level, variant)
    while not _traps_clear(item):
        item = BUILDERS[category](rng, level, variant)
    return v2.item_row(
        rng, f"sci2-{idx + 1:04d}", category, level, item, v2.plain_suffix("the formula")
    )


def _node_voltage(volts: float, r1: float, branches: list[float]) -> float:
    """Voltage across the parallel part by Kirchhoff's current law at its top node."""
    return bisect(lambda v: (volts - v) / r1 - sum(v / b for b in branches), 0.0, volts)


def _recompute(row: dict[str, Any]) -> float | str:  # noqa: C901 - one branch per kind
    m, kind = row["meta"], row["meta"]["kind"]
    g = float(Fraction(m.get("g", "9.81")))
    if kind == "uniform_accel":
        a = (m["v"] - m["u"]) / m["t"]
        return m["u"] * m["t"] + a * m["t"] ** 2 / 2
    if kind == "throw_up":
        rise = m["v0"] / g
        top = m["h"] + m["v0"] ** 2 / (2 * g)
        return rise + math.sqrt(2 * top / g)
    if kind == "chase":
        a = float(Fraction(m["a"]))
        return bisect(lambda t: a * t * t / 2 - m["va"] * (t + m["delay"]), 0.0, 1e4)
    if kind == "horizontal":
        return m["v"] * bisect(lambda t: g * t * t / 2 - m["h"], 0.0, 100.0)
    if kind == "range_choice":
        flights = [
            2 * s * math.sin(math.radians(a)) / g * s * math.cos(math.radians(a))
            for s, a in m["launches"]
        ]
        s, a = m["launches"][flights.index(max(flights))]
        return f"{s} m/s at {a} degrees above the horizontal"
    if kind in ("series", "branch_current", "branch_power", "max_power"):
        volts, r = float(Fraction(m["volts"])), [float(Fraction(x)) for x in m["r"]]
        if kind == "series":
            return bisect(lambda i: volts - i * (r[0] + r[1]), 0.0, volts) * 1000
        branches = [r[1], r[2] + r[3]] if kind == "branch_power" else [r[1], r[2]]
        v = _node_voltage(volts, r[0], branches)
        if kind == "branch_current":
            return v / r[2] * 1000
        if kind == "branch_power":
            return v * v / r[1] * 1000
        powers = {"R1": (volts - v) ** 2 / r[0], "R2": v * v / r[1], "R3": v * v / r[2]}
        return max(powers, key=powers.__getitem__)
    if kind == "capacitors":
        volts, (c1, c2, c3) = float(Fraction(m["volts"])), (float(Fraction(c)) for c in m["c"])
        if m["layout"] == 0:
            return (c1 + c2) * volts**2 / 2
        pair = c2 if m["layout"] == 1 else c2 + c3
        charge = volts / (1 / c1 + 1 / pair)  # the same charge sits on both series parts
        return charge * charge / (2 * c1) + charge * charge / (2 * pair)
    kelvin = lambda c: c + 273.15  # noqa: E731
    if kind == "moles":
        return m["p_kpa"] * 1000 * m["v_l"] / 1000 / (8.314 * kelvin(m["t_c"]))
    if kind == "combined":
        n_r = m["p1"] * m["v1"] / kelvin(m["t1"])
        return n_r * kelvin(m["t2"]) / m["v2"]
    if kind == "partial":
        n = m["mass"][0] / float(Fraction(m["molar"][0]))
        return n * 8.314 * kelvin(m["t_c"]) / (m["v_l"] / 1000) / 1000
    if kind == "density":
        molar_volume = 8.314 * kelvin(m["t_c"]) / (m["p_kpa"] * 1000)  # m^3 per mol
        return float(Fraction(m["molar"])) / (molar_volume * 1000)
    if kind == "pressure_factor":
        return f"It is multiplied by about {kelvin(m['t2']) / kelvin(m['t1']):.3f}"
    if kind in ("yield_mass", "limiting_mass", "excess_left", "limiting", "amount_needed"):
        return _chemistry(m)
    if kind == "kinetic":
        v = m["kmh"] / 3.6
        return 0.5 * m["m"] * v * v / 1000
    if kind == "pump":
        return m["litres"] * g * m["h"] / (m["eff"] / 100) / 1000
    if kind == "ice_to_water":
        mass = float(Fraction(m["m"]))
        return sum((mass * 2100 * m["t_ice"], mass * 334_000, mass * 4186 * m["t_end"])) / 1000
    if kind in ("mix_water", "mix_metal", "mix_ice"):
        (m1, m2), (t1, t2) = (float(Fraction(x)) / 1000 for x in m["m"]), m["t"]
        c2 = {"mix_water": 4186, "mix_metal": m.get("c", 0), "mix_ice": 4186}[kind]
        melt = 334_000 * m2 if kind == "mix_ice" else 0.0
        return bisect(lambda t: m1 * 4186 * (t - t1) + m2 * c2 * (t - t2) + melt, -50.0, 500.0)
    if kind == "most_energy":
        return max(m["values"], key=m["values"].__getitem__)
    raise AssertionError(f"no proof for {kind}")


def _chemistry(m: dict[str, Any]) -> float | str:
    """Stoichiometry from a mole table built out of the stored equation text."""
    left, right = m["reaction"].split(" -> ")
    parse = lambda side: [(int(c or 1), f) for c, f in re.findall(r"(\d*)([A-Z]\w*)", side)]  # noqa: E731
    reactants, products = parse(left), parse(right)
    coef = {f: c for c, f in reactants + products}
    mm = {f: float(molar_mass(f)) for f in coef}
    if m["kind"] in ("yield_mass", "amount_needed"):
        given, grams = m["given"][0], float(Fraction(m["given"][1]))
        extent = grams / mm[given] / coef[given]
        if m["kind"] == "yield_mass":
            return extent * coef[m["product"]] * mm[m["product"]]
        amount = extent * coef[m["wanted"]] * (mm[m["wanted"]] if m["unit"] == "g" else 1.0)
        return f"{v2.fmt_sig(Fraction(amount).limit_denominator(10**9), 3)} {m['unit']}"
    masses = {f: float(Fraction(x)) for f, x in m["masses"].items()}
    extents = {f: masses[f] / mm[f] / coef[f] for f in masses}
    limiting = min(extents, key=extents.__getitem__)
    if m["kind"] == "limiting":
        return limiting
    if m["kind"] == "limiting_mass":
        return extents[limiting] * coef[m["product"]] * mm[m["product"]]
    return masses[m["spare"]] - extents[limiting] * coef[m["spare"]] * mm[m["spare"]]


def prove(row: dict[str, Any]) -> None:
    value = _recompute(row)
    if row["scorer"] == "numeric":
        gold = float(row["answer"])
        assert abs(float(value) - gold) <= 6e-4 * abs(gold), (row["id"], value, gold)
        assert math.isclose(row["meta"]["tolerance"], abs(gold) * 0.01, rel_tol=1e-9), row["id"]
        for trap in row["meta"]["traps"]:
            assert abs(trap - gold) > float(TRAP_GAP) * abs(gold), (row["id"], trap)
    elif row["scorer"] == "exact":
        assert row["answer"][0] == value, (row["id"], value)
    else:
        assert v2.check_mc_layout(row) == value, (row["id"], value)


def prove_all(rows: list[dict[str, Any]]) -> None:
    v2.check_suite(rows, CATEGORIES)
    for reactants, products in REACTIONS:  # every equation is balanced, atom by atom
        totals: list[dict[str, int]] = [{}, {}]
        for side, terms in enumerate((reactants, products)):
            for c, f, _ in terms:
                for sym, n in atoms(f).items():
                    totals[side][sym] = totals[side].get(sym, 0) + c * n
        assert totals[0] == totals[1], equation((reactants, products))


def main(argv: list[str] | None = None) -> None:
    lib.run(
        dataset_id=DATASET_ID,
        kind=KIND,
        description=DESCRIPTION,
        generator_file=f"_gen/{Path(__file__).name}",
        seed=SEED,
        count=COUNT,
        default_scorer=DEFAULT_SCORER,
        created=CREATED,
        generate=generate,
        prove=prove,
        prove_all=prove_all,
        argv=argv,
    )


if __name__ == "__main__":
    main()
