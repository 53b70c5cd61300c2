"""eval-science-v3 energy: kinetic and potential energy, pumps and motors with an efficiency,
heating, melting and mixing, kettles, which of four stores holds the most energy, and a mixing
temperature chosen among near-miss values.

Traps: km/h for m/s, the kinetic energy of the speed change instead of the change of kinetic
energy, efficiency applied the wrong way, a forgotten latent heat. In the "most energy" form the
four stores are listed in a fixed order and the planned one is made the largest, so a kind of
store (the battery, say) wins exactly as often as its letter. Proofs sum the energy flows step
by step or bisect the heat balance.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from common import mc_plan as plan

from families.science.base import (
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
    ("kinetic", "numeric"),
    ("lifting", "numeric"),
    ("heating", "numeric"),
    ("mixing", "numeric"),
    ("kettle", "numeric"),
    ("most_energy", "mc"),
    ("most_energy", "mc"),
    ("mix_choice", "mc"),
)
C_WATER, C_ICE, L_FUSION, L_VAPOUR = (
    Fraction(4186),
    Fraction(2100),
    Fraction(334_000),
    Fraction(2_260_000),
)
METALS = (("aluminium", 900), ("copper", 385), ("iron", 450), ("lead", 130))
KMH = Fraction(1000, 3600)
WATER_NOTE = f"Use {C_WATER} J/(kg K) for the specific heat of water"


def kinetic(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    m = rng.randint(50, 2500)
    if level == 0:
        kmh = rng.randint(20, 130)
        v = kmh * KMH
        q = f"What is the kinetic energy of {an(m)} {m} kg object moving at {kmh} km/h?"
        meta: dict[str, Any] = {"kind": "kinetic", "m": m, "kmh": [kmh]}
        return numeric(
            q,
            "kilojoules",
            m * v * v / 2000,
            meta,
            [Fraction(m * kmh * kmh, 2000), m * v * v / 1000],
        )
    if level == 1:
        kj = max(1, round(m * (rng.randint(10, 120) / 3.6) ** 2 / 2000))  # 10 to 120 km/h
        v = (2 * kj * 1000 / m) ** 0.5
        q = (
            f"{an(m).capitalize()} {m} kg cart has {kj} kJ of kinetic energy. How fast is it "
            "moving?"
        )
        meta = {"kind": "speed_from_energy", "m": m, "kj": kj}
        return numeric(q, "km/h", v * 3.6, meta, [v, (kj * 1000 / m) ** 0.5 * 3.6])
    k1, k2 = sorted(rng.sample(range(20, 140, 5), 2))
    v1, v2 = k1 * KMH, k2 * KMH
    q = (
        f"{an(m).capitalize()} {m} kg car speeds up from {k1} km/h to {k2} km/h. By how much does "
        "its kinetic energy increase?"
    )
    meta = {"kind": "kinetic_gain", "m": m, "kmh": [k1, k2]}
    return numeric(
        q,
        "kilojoules",
        m * (v2 * v2 - v1 * v1) / 2000,
        meta,
        [m * (v2 - v1) ** 2 / 2000, m * v2 * v2 / 2000],
    )


def lifting(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    h, eff = rng.randint(3, 60), rng.choice((40, 50, 60, 65, 70, 80))
    g = f"g = {num(G)} m/s^2"
    if level == 0:
        m = rng.randint(20, 3000)
        q = (
            f"A crane lifts {an(m)} {m} kg load {h} m straight up. Take {g}. How much does the "
            "load's potential energy increase?"
        )
        meta: dict[str, Any] = {"kind": "potential", "m": m, "h": h}
        return numeric(q, "kilojoules", m * G * h / 1000, meta, [Fraction(m * h, 1000), m * G * h])
    litres = rng.randint(100, 5000)
    work = litres * G * h  # 1 L of water = 1 kg
    if level == 1:
        q = (
            f"An electric pump lifts {litres} litres of water through a height of {h} m. The pump "
            f"is {eff}% efficient. Take the density of water as 1 kg per litre and {g}. How much "
            "electrical energy does the pump use?"
        )
        meta = {"kind": "pump", "litres": litres, "h": h, "eff": eff}
        return numeric(
            q, "kilojoules", work * 100 / eff / 1000, meta, [work / 1000, work * eff / 100 / 1000]
        )
    watts = rng.randrange(200, 3000, 50)
    q = (
        f"A {watts} W electric pump that is {eff}% efficient lifts {litres} litres of water "
        f"through a height of {h} m. Take the density of water as 1 kg per litre and {g}. How "
        "long does it take?"
    )
    meta = {"kind": "pump_time", "litres": litres, "h": h, "eff": eff, "watts": watts}
    seconds = work / (watts * Fraction(eff, 100))
    return numeric(q, "seconds", seconds, meta, [work / watts, work * Fraction(eff, 100) / watts])


def heating(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    kg = Fraction(rng.randint(2, 50), 10)
    t_ice, t_end = rng.randint(5, 30), rng.randint(10, 80)
    latent = f"a latent heat of fusion of {L_FUSION} J/kg"
    if level == 0:
        t0 = rng.randint(5, 40)
        q = (
            f"How much heat is needed to warm {num(kg)} kg of water from {t0} degrees C to "
            f"{t0 + t_end} degrees C? {WATER_NOTE}."
        )
        meta: dict[str, Any] = {"kind": "warm_water", "m": str(kg), "t": [t0, t0 + t_end]}
        return numeric(
            q,
            "kilojoules",
            kg * C_WATER * t_end / 1000,
            meta,
            [kg * C_WATER * (t0 + t_end) / 1000, kg * C_WATER * t_end],
        )
    if level == 1:
        q = (
            f"How much heat is needed to turn {num(kg)} kg of ice at 0 degrees C into water at "
            f"{t_end} degrees C? {WATER_NOTE} and {latent}."
        )
        meta = {"kind": "melt_warm", "m": str(kg), "t_ice": 0, "t_end": t_end}
        heat = kg * (L_FUSION + C_WATER * t_end)
        return numeric(
            q, "kilojoules", heat / 1000, meta, [kg * C_WATER * t_end / 1000, kg * L_FUSION / 1000]
        )
    q = (
        f"How much heat is needed to turn {num(kg)} kg of ice at -{t_ice} degrees C into water at "
        f"{t_end} degrees C? Use specific heats of {C_ICE} J/(kg K) for ice and {C_WATER} J/(kg "
        f"K) for water, and {latent}."
    )
    meta = {"kind": "melt_warm", "m": str(kg), "t_ice": t_ice, "t_end": t_end}
    heat = kg * (C_ICE * t_ice + L_FUSION + C_WATER * t_end)
    return numeric(
        q,
        "kilojoules",
        heat / 1000,
        meta,
        [kg * C_WATER * (t_end + t_ice) / 1000, kg * (C_ICE * t_ice + C_WATER * t_end) / 1000],
    )


def _mix(
    rng: random.Random, level: int
) -> tuple[str, Fraction, list[Fraction], dict[str, Any]] | None:
    """A mixing question, its final temperature, the slips' values and meta."""
    m1, t1 = Fraction(rng.randint(100, 900)), rng.randint(40, 90)
    if level == 0:
        m2, t2 = Fraction(rng.randint(100, 900)), rng.randint(5, 30)
        final = (m1 * t1 + m2 * t2) / (m1 + m2)
        q = (
            f"{m1} g of water at {t1} degrees C is mixed with {m2} g of water at {t2} degrees C "
            "in an insulated container. What is the final temperature?"
        )
        return (
            q,
            final,
            [Fraction(t1 + t2, 2), (m1 * t2 + m2 * t1) / (m1 + m2)],
            {"kind": "mix_water", "m": [str(m1), str(m2)], "t": [t1, t2]},
        )
    if level == 1:
        metal, c = rng.choice(METALS)
        m2, t2 = Fraction(rng.randint(200, 2000)), rng.randint(150, 400)
        final = (m1 * C_WATER * t1 + m2 * c * t2) / (m1 * C_WATER + m2 * c)
        if final >= 95:
            return None  # the prompt promises that no water boils
        q = (
            f"{an(m2).capitalize()} {m2} g block of {metal} (specific heat {c} J/(kg K)) at {t2} "
            f"degrees C is dropped into {m1} g of water (specific heat {C_WATER} J/(kg K)) at "
            f"{t1} degrees C in an insulated container; no water boils. What is the final "
            "temperature?"
        )
        traps = [
            (m1 * t1 + m2 * t2) / (m1 + m2),
            Fraction(t1 + t2, 2),
            (m1 * c * t1 + m2 * C_WATER * t2) / (m1 * c + m2 * C_WATER),
        ]
        return (
            q,
            final,
            traps,
            {"kind": "mix_metal", "m": [str(m1), str(m2)], "t": [t1, t2], "c": c},
        )
    m2 = Fraction(rng.randint(10, 60))
    final = (m1 * C_WATER * t1 - m2 * L_FUSION) / ((m1 + m2) * C_WATER)
    if final < 1:
        return None
    q = (
        f"{m2} g of ice at 0 degrees C is dropped into {m1} g of water at {t1} degrees C in an "
        f"insulated container, and all of the ice melts. {WATER_NOTE} and {L_FUSION} J/kg for the "
        "latent heat of fusion of ice. What is the final temperature?"
    )
    traps = [
        m1 * t1 / (m1 + m2),
        (m1 * C_WATER * t1 - m2 * L_FUSION) / (m1 * C_WATER),
        Fraction(t1, 2),
    ]
    return q, final, traps, {"kind": "mix_ice", "m": [str(m1), str(m2)], "t": [t1, 0]}


def mixing(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    drawn = _mix(rng, level)
    if drawn is None:
        return None
    q, final, traps, meta = drawn
    return numeric(q, "degrees C", final, meta, traps)


def mix_choice(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    assert slot is not None
    drawn = _mix(rng, level)
    if drawn is None:
        return None
    q, final, traps, mixed = drawn
    meta = {**mixed, "kind": "mix_choice", "mix": mixed["kind"]}
    (m1, m2), (t1, t2) = (Fraction(x) for x in meta["m"]), meta["t"]
    hot, cold = max(t1, t2), min(t1, t2)
    pool = [  # the slips of the numeric form, a temperature change given as the answer, one
        *traps,  # body's heat spread over both masses, the masses' weights swapped
        hot - final,
        final - cold,
        m1 * t1 / (m1 + m2),
        m2 * t2 / (m1 + m2),
        (m2 * t1 + m1 * t2) / (m1 + m2),
    ]
    if mixed["kind"] == "mix_ice":  # the latent heat counted twice, or left out of the balance
        pool += [(m1 * C_WATER * t1 - 2 * m2 * L_FUSION) / ((m1 + m2) * C_WATER), t1 * m2 / m1]
    pool = [x for x in pool if cold < x < min(hot, 100)]  # each option a possible final state
    return numeric_options(rng, q, final, pool, slot, "degrees C", meta)


def kettle(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    watts, kg = rng.randrange(1000, 3100, 100), Fraction(rng.randint(3, 20), 10)
    t0 = rng.randint(8, 25)
    eff = rng.choice((70, 75, 80, 85, 90)) if level else 100
    heat = kg * C_WATER * (100 - t0)
    how = "" if level == 0 else f" {eff}% of its electrical energy reaches the water."
    meta: dict[str, Any] = {
        "kind": "kettle",
        "watts": watts,
        "m": str(kg),
        "t0": t0,
        "eff": eff,
        "boil_off": 0,
    }
    if level < 2:
        q = (
            f"A {watts} W kettle heats {num(kg)} kg of water from {t0} degrees C to 100 degrees "
            f"C.{how} {WATER_NOTE}. How long does it take?"
        )
        seconds = heat / (watts * Fraction(eff, 100))
        slip = heat * Fraction(eff, 100) / watts if eff < 100 else seconds / 60  # or minutes
        return numeric(q, "seconds", seconds, meta, [kg * C_WATER * 100 / watts, slip])
    grams = rng.randint(50, 400)
    meta["boil_off"] = grams
    q = (
        f"A {watts} W kettle heats {num(kg)} kg of water from {t0} degrees C to 100 degrees C and "
        f"keeps it boiling until {grams} g has boiled away.{how} {WATER_NOTE} and {L_VAPOUR} J/kg "
        "for its latent heat of vaporisation. How long does it take from switching on?"
    )
    total = heat + Fraction(grams, 1000) * L_VAPOUR
    return numeric(
        q,
        "seconds",
        total / (watts * Fraction(eff, 100)),
        meta,
        [heat / (watts * Fraction(eff, 100)), total / watts],
    )


STORES = ("car", "load", "water", "battery")
#: how far the most energetic store must lead the next one, by level
MARGINS = tuple(Fraction(m, 100) for m in (130, 115, 105))


def most_energy(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    assert slot is not None
    m_car, kmh = rng.randint(800, 2000), rng.randint(30, 130)
    m_lift, h = rng.randint(50, 2000), rng.randint(2, 50)
    water, dt = rng.randint(1, 20), rng.randint(5, 60)
    volts, amp_h = rng.choice((3, 12, 48)), rng.randint(2, 100)
    values = stored((m_car, kmh), (m_lift, h), (water, dt), (volts, amp_h))
    ranked = sorted(range(4), key=values.__getitem__)
    margin = MARGINS[level]
    if (
        ranked[-1] != slot
        or values[slot] < values[ranked[-2]] * margin
        or values[slot] > values[ranked[-2]] * 3
    ):
        return None
    return most_energy_item((m_car, kmh), (m_lift, h), (water, dt), (volts, amp_h), slot)


def stored(car: tuple[int, int], load: tuple[int, int], water: tuple[int, int],
           battery: tuple[int, int]) -> list[Fraction]:  # fmt: skip
    """The energies (J) of a car ``(kg, km/h)``, a raised load ``(kg, m)``, heated water
    ``(litres, kelvin)`` and a battery ``(V, ampere-hours)``, in ``STORES`` order."""
    return [
        Fraction(car[0]) * (car[1] * KMH) ** 2 / 2,
        load[0] * G * load[1],
        water[0] * C_WATER * water[1],
        Fraction(battery[0] * battery[1] * 3600),
    ]


def most_energy_item(car: tuple[int, int], load: tuple[int, int], water: tuple[int, int],
                     battery: tuple[int, int], slot: int) -> Item:  # fmt: skip
    """The most-energy item of the four stores, the one in ``STORES`` place ``slot`` the gold."""
    (m_car, kmh), (m_lift, h), (water_l, dt), (volts, amp_h) = car, load, water, battery
    options = [
        f"{an(m_car).capitalize()} {m_car} kg car moving at {kmh} km/h (its kinetic energy)",
        f"{an(m_lift).capitalize()} {m_lift} kg load raised {h} m (its gain in potential energy)",
        f"{water_l} litres of water heated by {dt} degrees C (the heat it absorbs)",
        f"{an(volts).capitalize()} {volts} V battery rated {amp_h} ampere-hours (its stored "
        "energy)",
    ]
    q = (
        f"Which of these involves the most energy? Take g = {num(G)} m/s^2, 1 litre of water = 1 "
        f"kg and a specific heat of water of {C_WATER} J/(kg K)."
    )
    meta = {
        "kind": "most_energy",
        "car": [m_car, kmh],
        "load": [m_lift, h],
        "water": [water_l, dt],
        "battery": [volts, amp_h],
    }
    return plan.mc_item(q, options, slot, meta)


BUILD = {
    "kinetic": kinetic,
    "lifting": lifting,
    "heating": heating,
    "mixing": mixing,
    "kettle": kettle,
    "most_energy": most_energy,
    "mix_choice": mix_choice,
}


# ---- proofs: energy flows summed step by step, heat balances bisected ------------------------
def _balance(m: dict[str, Any]) -> float:
    """Final temperature where the heat one body loses equals the heat the other gains."""
    (m1, m2), (t1, t2) = (frac(x) / 1000 for x in m["m"]), m["t"]
    kind = m.get("mix", m["kind"])
    c2 = {"mix_water": 4186, "mix_metal": m.get("c", 0), "mix_ice": 4186}[kind]
    melt = 334_000 * m2 if kind == "mix_ice" else 0.0
    return bisect(lambda t: m1 * 4186 * (t - t1) + m2 * c2 * (t - t2) + melt, -50.0, 500.0)


def _prove_energy(row: dict[str, Any]) -> None:  # noqa: C901 - one line per kind
    m, kind, g = row["meta"], row["meta"]["kind"], 9.81
    if kind in ("kinetic", "kinetic_gain"):
        speeds = [k / 3.6 for k in m["kmh"]]
        value = (
            m["m"] * speeds[-1] ** 2 - (m["m"] * speeds[0] ** 2 if len(speeds) > 1 else 0)
        ) / 2000
    elif kind == "speed_from_energy":
        value = 3.6 * bisect(lambda v: m["m"] * v * v / 2 - m["kj"] * 1000, 0.0, 1e4)
    elif kind == "potential":
        value = sum(m["m"] * g for _ in range(m["h"])) / 1000  # one metre at a time
    elif kind in ("pump", "pump_time"):
        electrical = m["litres"] * g * m["h"] / (m["eff"] / 100)
        value = electrical / 1000 if kind == "pump" else electrical / m["watts"]
    elif kind == "warm_water":
        value = sum(frac(m["m"]) * 4186 for _ in range(m["t"][0], m["t"][1])) / 1000
    elif kind == "melt_warm":
        kg = frac(m["m"])
        value = (kg * 2100 * m["t_ice"] + kg * 334_000 + kg * 4186 * m["t_end"]) / 1000
    elif kind == "kettle":
        kg, t0 = frac(m["m"]), m["t0"]
        heat = sum(kg * 4186 for _ in range(t0, 100)) + m["boil_off"] / 1000 * 2_260_000
        value = heat / (m["watts"] * m["eff"] / 100)
    else:
        value = _balance(m)
    check_numeric(row, value)


def _prove_mix_choice(row: dict[str, Any]) -> None:
    check_value_options(row, _balance(row["meta"]))


def _prove_most(row: dict[str, Any]) -> None:
    m = row["meta"]
    joules = {
        "car": m["car"][0] * (m["car"][1] / 3.6) ** 2 / 2,
        "load": m["load"][0] * 9.81 * m["load"][1],
        "water": m["water"][0] * 4186 * m["water"][1],
        "battery": m["battery"][0] * m["battery"][1] * 3600,
    }
    best = max(joules, key=joules.__getitem__)
    check_choice(row, row["choices"][STORES.index(best)])


PROVE = {
    **{
        k: _prove_energy
        for k in (
            "kinetic",
            "kinetic_gain",
            "speed_from_energy",
            "potential",
            "pump",
            "pump_time",
            "warm_water",
            "melt_warm",
            "kettle",
            "mix_water",
            "mix_metal",
            "mix_ice",
        )
    },
    "mix_choice": _prove_mix_choice,
    "most_energy": _prove_most,
}
