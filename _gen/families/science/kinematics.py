"""eval-science-v3 kinematics: uniform acceleration, falls and throws, chases, braking, average
speed, and two choice forms (longest launch, shortest stop).

Traps: km/h that must become m/s, an irrelevant mass, the arithmetic mean of two speeds, the time
to the top of a throw instead of to the ground. Choice forms: the winning launch is, at the
higher levels, neither the fastest nor the one closest to 45 degrees; the car that stops first
is, at the higher levels, not the slowest. Proofs integrate or bisect instead of using the
generators' closed forms.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

from common import mc_plan as plan

from families.science.base import (
    G_NOTE,
    G,
    Item,
    bisect,
    check_choice,
    check_numeric,
    frac,
    num,
    numeric,
    sqrt,
)

FORMS = (
    ("uniform_accel", "numeric"),
    ("fall", "numeric"),
    ("chase", "numeric"),
    ("horizontal", "numeric"),
    ("braking", "numeric"),
    ("average_speed", "numeric"),
    ("range_choice", "mc"),
    ("stopping_choice", "mc"),
)
KMH = Fraction(1000, 3600)


def uniform_accel(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    if level == 0:
        u, v, t = rng.randint(0, 10), rng.randint(15, 35), rng.randint(4, 15)
        mass = rng.randint(900, 2000)
        q = (
            f"A car of mass {mass} kg speeds up uniformly from {u} m/s to {v} m/s in {t} s. How "
            f"far does it travel during that time?"
        )
        meta: dict[str, Any] = {"kind": "uniform_accel", "u": u, "v": v, "t": t}
        return numeric(q, "metres", Fraction(u + v, 2) * t, meta, [v * t, Fraction(v, 2) * t])
    if level == 1:
        u, a, s = rng.randint(0, 12), Fraction(rng.randint(5, 40), 10), rng.randint(20, 200)
        v = sqrt(u * u + 2 * a * s)
        q = (
            f"A cyclist moving at {u} m/s accelerates uniformly at {num(a)} m/s^2 over a "
            f"distance of {s} m. How fast is the cyclist moving at the end of that distance?"
        )
        meta = {"kind": "final_speed", "u": u, "a": str(a), "s": s}
        return numeric(q, "metres per second", v, meta, [u + a * s, sqrt(2 * a * s)])
    u_kmh, v_kmh, t = rng.randint(10, 50), rng.randint(60, 130), rng.randint(5, 20)
    s = Fraction(u_kmh + v_kmh, 2) * KMH * t
    q = (
        f"A train speeds up uniformly from {u_kmh} km/h to {v_kmh} km/h in {t} s. How far does "
        f"it travel during that time?"
    )
    meta = {"kind": "uniform_accel_kmh", "u_kmh": u_kmh, "v_kmh": v_kmh, "t": t}
    return numeric(q, "metres", s, meta, [Fraction(u_kmh + v_kmh, 2) * t, v_kmh * KMH * t])


def fall(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    h, v0 = rng.randint(5, 80), rng.randint(5, 25)
    if level == 0:
        q = (
            f"A stone is dropped from rest from a bridge {h} m above the water. {G_NOTE} How long "
            "does it take to reach the water?"
        )
        meta: dict[str, Any] = {"kind": "drop_time", "h": h}
        return numeric(q, "seconds", sqrt(2 * h / G), meta, [sqrt(h / G), 2 * h / G])
    if level == 1:
        t_hit = (v0 + sqrt(v0 * v0 + 2 * G * h)) / float(G)
        q = (
            f"A stone is thrown straight up at {v0} m/s from the edge of a cliff {h} m above the "
            f"ground and falls past the edge to the ground below. {G_NOTE} How long after the "
            f"throw does it hit the ground?"
        )
        meta = {"kind": "throw_up_time", "v0": v0, "h": h}
        return numeric(q, "seconds", t_hit, meta, [2 * v0 / float(G), sqrt(2 * h / G)])
    top = h + Fraction(v0 * v0) / (2 * G)
    q = (
        f"A ball is thrown straight up at {v0} m/s from a balcony {h} m above the street. "
        f"{G_NOTE} What is the greatest height above the street that the ball reaches?"
    )
    meta = {"kind": "throw_up_top", "v0": v0, "h": h}
    return numeric(q, "metres", top, meta, [Fraction(v0 * v0) / (2 * G), h + v0 * v0 / G])


def chase(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    va = rng.randint(8, 30)
    delay = (0, rng.randint(2, 6), rng.randint(6, 12))[level]
    a = Fraction(rng.randint(10, 40), 10)
    t_meet = (float(va) + sqrt(va * va + 2 * a * va * delay)) / float(a)
    later = "At that moment the motorbike" if delay == 0 else f"{delay} s later the motorbike"
    q = (
        f"A van passes a parked motorbike at a steady {va} m/s. {later} sets off from rest after "
        f"it with a constant acceleration of {num(a)} m/s^2. How long after setting off does the "
        f"motorbike draw level with the van?"
    )
    meta = {"kind": "chase", "va": va, "delay": delay, "a": str(a)}
    traps = [t_meet + delay, va / float(a)] if delay else [va / float(a), 3 * va / float(a)]
    return numeric(q, "seconds", t_meet, meta, traps)


def horizontal(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    v, h = rng.randint(5, 30), rng.randint(10, 120)
    start = f"A ball is thrown horizontally at {v} m/s from the top of a tower {h} m tall. {G_NOTE}"
    meta: dict[str, Any] = {"kind": "", "v": v, "h": h}
    if level == 0:
        q = f"{start} How far from the foot of the tower does it land?"
        meta["kind"] = "horizontal_reach"
        return numeric(q, "metres", v * sqrt(2 * h / G), meta, [v * sqrt(h / G), v * v / float(G)])
    if level == 1:
        q = f"{start} How long is the ball in the air?"
        meta["kind"] = "horizontal_time"
        return numeric(q, "seconds", sqrt(2 * h / G), meta, [Fraction(h, v), sqrt(h / G)])
    q = f"{start} How fast is the ball moving just before it lands?"
    meta["kind"] = "horizontal_impact"
    impact = sqrt(v * v + 2 * G * h)
    return numeric(q, "metres per second", impact, meta, [v + sqrt(2 * G * h), sqrt(2 * G * h)])


def braking(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    kmh, decel = rng.randint(30, 130), Fraction(rng.randint(40, 90), 10)
    react = Fraction(rng.randint(5, 15), 10)
    v = kmh * KMH
    if level == 0:
        q = (
            f"A car travelling at {kmh} km/h brakes with a constant deceleration of {num(decel)} "
            f"m/s^2. How far does it travel from the moment the brakes act until it stops?"
        )
        meta: dict[str, Any] = {"kind": "braking_distance", "kmh": kmh, "decel": str(decel)}
        return numeric(
            q, "metres", v * v / (2 * decel), meta, [kmh * kmh / (2 * decel), v * v / decel]
        )
    if level == 1:
        q = (
            f"A driver travelling at {kmh} km/h sees a hazard and brakes after a reaction time of "
            f"{num(react)} s; the car then decelerates at {num(decel)} m/s^2. How far does the "
            f"car travel from the moment the hazard appears until it stops?"
        )
        meta = {"kind": "stopping_distance", "kmh": kmh, "decel": str(decel), "react": str(react)}
        whole = v * react + v * v / (2 * decel)
        return numeric(
            q, "metres", whole, meta, [v * v / (2 * decel), kmh * react + v * v / (2 * decel)]
        )
    gap = rng.randint(25, 120)
    top = decel * (-float(react) + sqrt(react * react + 2 * gap / decel))
    q = (
        f"A driver's reaction time is {num(react)} s and the car brakes at {num(decel)} m/s^2. "
        f"What is the highest speed from which the car can stop within {gap} m of the point "
        f"where the driver sees a hazard?"
    )
    meta = {"kind": "max_speed", "gap": gap, "decel": str(decel), "react": str(react)}
    return numeric(q, "km/h", top * 3.6, meta, [sqrt(2 * decel * gap) * 3.6, top])


def average_speed(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    v1, v2_ = rng.randrange(20, 70, 5), rng.randrange(75, 130, 5)
    if level == 0:
        d1, d2 = rng.randint(10, 90), rng.randint(10, 90)
        q = (
            f"A coach covers {d1} km at {v1} km/h and then {d2} km at {v2_} km/h. What is its "
            f"average speed for the whole journey?"
        )
        meta: dict[str, Any] = {"kind": "average_legs", "d": [d1, d2], "v": [v1, v2_]}
        mean = Fraction(d1 + d2) / (Fraction(d1, v1) + Fraction(d2, v2_))
        return numeric(
            q,
            "km/h",
            mean,
            meta,
            [Fraction(v1 + v2_, 2), Fraction(d1 * v1 + d2 * v2_, d1 + d2) if d1 != d2 else v2_],
        )
    if level == 1:
        d = rng.randint(20, 120)
        q = (
            f"A cyclist rides {d} km to a lake at {v1} km/h and comes back the same way at "
            f"{v2_} km/h. What is the average speed for the round trip?"
        )
        meta = {"kind": "average_round", "d": d, "v": [v1, v2_]}
        mean = Fraction(2 * d) / (Fraction(d, v1) + Fraction(d, v2_))
        return numeric(q, "km/h", mean, meta, [Fraction(v1 + v2_, 2), Fraction(d, v1)])
    t1, t2, stop = rng.randint(20, 90), rng.randint(20, 90), rng.randint(10, 40)
    q = (
        f"A van drives for {t1} minutes at {v1} km/h, stops for {stop} minutes, then drives for "
        f"{t2} minutes at {v2_} km/h. What is its average speed over the whole time, stop "
        f"included?"
    )
    meta = {"kind": "average_stop", "t": [t1, stop, t2], "v": [v1, v2_]}
    distance = Fraction(v1 * t1 + v2_ * t2, 60)
    mean = distance / Fraction(t1 + stop + t2, 60)
    return numeric(q, "km/h", mean, meta, [distance / Fraction(t1 + t2, 60), Fraction(v1 + v2_, 2)])


def _range(speed: int, angle: int) -> float:
    return speed * speed * math.sin(math.radians(2 * angle)) / float(G)


ANGLES = (15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75)


def range_choice(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    assert slot is not None
    launches = []
    while len(launches) < 4:
        speed = 20 if level == 0 else rng.randint(12, 30)
        launch = (speed, rng.choice(ANGLES))
        if launch not in launches:
            launches.append(launch)
    ranges = [_range(s, a) for s, a in launches]
    order = sorted(range(4), key=ranges.__getitem__)
    best = order[-1]
    if ranges[best] < ranges[order[-2]] * 1.03:
        return None
    fastest = max(s for s, _ in launches)
    steepest_fit = min(abs(a - 45) for _, a in launches)
    if level >= 1 and launches[best][0] == fastest:
        return None  # the fastest launch would win by a surface rule
    if level == 2 and abs(launches[best][1] - 45) == steepest_fit:
        return None  # so would the angle nearest 45 degrees
    return range_item(rng, launches, order, slot)


def launch_range(launch: tuple[int, int]) -> float:
    """How far a ball launched at ``(speed m/s, angle degrees)`` travels over level ground."""
    return _range(*launch)


def range_item(
    rng: random.Random, launches: list[tuple[int, int]], order: list[int], slot: int
) -> Item:
    """The range-choice item of four launches, ``order`` ranking them shortest range first."""
    texts = [f"{s} m/s at {a} degrees above the horizontal" for s, a in launches]
    distractors = [texts[i] for i in order[:-1]]
    options = plan.place(rng, texts[order[-1]], distractors, slot)
    q = (
        f"Four balls are launched from level ground and land back on it. {G_NOTE} Which launch "
        f"travels the greatest horizontal distance?"
    )
    meta = {"kind": "range_choice", "launches": [list(x) for x in launches]}
    return plan.mc_item(q, options, slot, meta)


def _stop(kmh: int, react: Fraction, decel: Fraction) -> float:
    v = float(kmh * KMH)
    return v * float(react) + v * v / (2 * float(decel))


def stopping_choice(rng: random.Random, level: int, slot: int | None, ordinal: int) -> Item | None:
    assert slot is not None
    cars = []
    for _ in range(4):
        react = Fraction(rng.randint(5, 20), 10) if level else Fraction(0)
        cars.append((rng.randrange(30, 135, 5), react, Fraction(rng.randint(35, 95), 10)))
    if len(set(cars)) < 4:
        return None
    dist = [_stop(*c) for c in cars]
    order = sorted(range(4), key=dist.__getitem__)
    if dist[order[1]] < dist[order[0]] * 1.05:
        return None
    if level >= 1 and cars[order[0]][0] == min(c[0] for c in cars):
        return None  # the slowest car would win by a surface rule

    def text(kmh: int, react: Fraction, decel: Fraction) -> str:
        reaction = f", reaction time {num(react)} s" if level else ""
        return f"{kmh} km/h{reaction}, braking at {num(decel)} m/s^2"

    texts = [text(*c) for c in cars]
    options = plan.place(rng, texts[order[0]], [texts[i] for i in order[1:]], slot)
    timing = (
        "Each starts braking the moment it passes a line."
        if level == 0
        else "Each driver sees the same hazard at the same moment, reacts, then brakes."
    )
    q = (
        f"Four cars each brake to a stop on a straight road. {timing} Which car covers the "
        "shortest distance before stopping?"
    )
    meta = {"kind": "stopping_choice", "cars": [[k, str(r), str(d)] for k, r, d in cars]}
    return plan.mc_item(q, options, slot, meta)


BUILD = {
    "uniform_accel": uniform_accel,
    "fall": fall,
    "chase": chase,
    "horizontal": horizontal,
    "braking": braking,
    "average_speed": average_speed,
    "range_choice": range_choice,
    "stopping_choice": stopping_choice,
}


# ---- proofs: step the motion or bisect, never the closed form above ----------------------------
def _drop(h: float, v_up: float, g: float) -> float:
    """Time for a body at height h moving up at v_up to reach the ground (bisection)."""
    return bisect(lambda t: h + v_up * t - g * t * t / 2, 0.0, 1e3)


def _prove_motion(row: dict[str, Any]) -> None:
    m, g = row["meta"], float(G)
    kind = m["kind"]
    value = {
        "uniform_accel": lambda: sum(
            (m["u"] + (m["v"] - m["u"]) * (i + 0.5) / 1000) * m["t"] / 1000 for i in range(1000)
        ),
        "final_speed": lambda: bisect(
            lambda v: (v * v - m["u"] ** 2) / (2 * frac(m["a"])) - m["s"], 0.0, 1e3
        ),
        "uniform_accel_kmh": lambda: (m["u_kmh"] + m["v_kmh"]) / 3.6 / 2 * m["t"],
        "drop_time": lambda: _drop(m["h"], 0.0, g),
        "throw_up_time": lambda: _drop(m["h"], m["v0"], g),
        "throw_up_top": lambda: m["h"] + m["v0"] * (m["v0"] / g) - g * (m["v0"] / g) ** 2 / 2,
        "chase": lambda: bisect(
            lambda t: frac(m["a"]) * t * t / 2 - m["va"] * (t + m["delay"]), 1e-9, 1e4
        ),
        "horizontal_reach": lambda: m["v"] * _drop(m["h"], 0.0, g),
        "horizontal_time": lambda: _drop(m["h"], 0.0, g),
        "horizontal_impact": lambda: math.hypot(m["v"], g * _drop(m["h"], 0.0, g)),
    }
    check_numeric(row, value[kind]())


def _prove_road(row: dict[str, Any]) -> None:
    m, kind = row["meta"], row["meta"]["kind"]
    if kind in ("braking_distance", "stopping_distance"):
        v, a = m["kmh"] / 3.6, frac(m["decel"])
        react = frac(m.get("react", 0))
        value = v * react + bisect(lambda s: v * v - 2 * a * s, 0.0, 1e4)
    elif kind == "max_speed":
        react, a = frac(m["react"]), frac(m["decel"])
        value = 3.6 * bisect(lambda v: v * react + v * v / (2 * a) - m["gap"], 0.0, 200.0)
    elif kind == "average_legs":
        hours = sum(d / v for d, v in zip(m["d"], m["v"], strict=True))
        value = sum(m["d"]) / hours
    elif kind == "average_round":
        value = 2 * m["d"] / (m["d"] / m["v"][0] + m["d"] / m["v"][1])
    else:
        (t1, stop, t2), (v1, v2_) = m["t"], m["v"]
        value = (v1 * t1 / 60 + v2_ * t2 / 60) / ((t1 + stop + t2) / 60)
    check_numeric(row, value)


def _prove_range(row: dict[str, Any]) -> None:
    g = float(G)

    def flight(speed: float, angle: float) -> float:  # horizontal speed x time aloft (bisected)
        vx, vy = speed * math.cos(math.radians(angle)), speed * math.sin(math.radians(angle))
        return vx * bisect(lambda t: vy * t - g * t * t / 2, vy / g, 1e3)

    launches = row["meta"]["launches"]
    s, a = max(launches, key=lambda la: flight(*la))
    check_choice(row, f"{s} m/s at {a} degrees above the horizontal")


def _prove_stopping(row: dict[str, Any]) -> None:
    def distance(kmh: int, react: str, decel: str) -> float:
        v, a = kmh / 3.6, frac(decel)
        return v * frac(react) + bisect(lambda x: v * v - 2 * a * x, 0.0, 1e4)

    cars = row["meta"]["cars"]
    best = min(cars, key=lambda c: distance(*c))
    assert sorted(distance(*c) for c in cars)[1] > distance(*best) * 1.04, row["id"]
    kmh, react, decel = best
    reaction = f", reaction time {num(Fraction(react))} s" if frac(react) else ""
    check_choice(row, f"{kmh} km/h{reaction}, braking at {num(Fraction(decel))} m/s^2")


PROVE = {
    **{
        k: _prove_motion
        for k in (
            "uniform_accel",
            "final_speed",
            "uniform_accel_kmh",
            "drop_time",
            "throw_up_time",
            "throw_up_top",
            "chase",
            "horizontal_reach",
            "horizontal_time",
            "horizontal_impact",
        )
    },
    **{
        k: _prove_road
        for k in (
            "braking_distance",
            "stopping_distance",
            "max_speed",
            "average_legs",
            "average_round",
            "average_stop",
        )
    },
    "range_choice": _prove_range,
    "stopping_choice": _prove_stopping,
}
