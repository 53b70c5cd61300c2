"""eval-science-v2: every answer recomputed in floating point from textbook closed forms (the
generator works in exact fractions, its proof by bisection and nodal analysis), with molar masses
read back out of the prompt text, and a check that each prompt carries the constants it needs."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

ROWS_PATH = Path(__file__).resolve().parents[2] / "datasets" / "eval-science-v2" / "rows.jsonl"
ROWS = [json.loads(line) for line in ROWS_PATH.read_text(encoding="utf-8").splitlines()]
G, R, K0 = 9.81, 8.314, 273.15
NEEDS = {  # constants a prompt of each kind must state
    "throw_up": ["g = 9.81"],
    "chase": [],
    "horizontal": ["g = 9.81"],
    "range_choice": ["g = 9.81"],
    "moles": ["R = 8.314", "273.15"],
    "combined": ["273.15"],
    "partial": ["R = 8.314", "273.15", "molar mass"],
    "density": ["R = 8.314", "273.15"],
    "pressure_factor": ["273.15"],
    "pump": ["g = 9.81", "1 kg per litre"],
    "ice_to_water": ["2100", "4186", "334000"],
    "mix_metal": ["4186"],
    "mix_ice": ["4186", "334000"],
    "most_energy": ["g = 9.81", "4186"],
}


def _quadratic_root(a: float, b: float, c: float) -> float:
    """Larger root of a t^2 + b t + c = 0."""
    return (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a)


def _molar(prompt: str, formula: str) -> float:
    table = dict(re.findall(r"([A-Z][a-z]?) = (\d+\.\d+)", prompt))
    return sum(float(table[s]) * int(n or 1) for s, n in re.findall(r"([A-Z][a-z]?)(\d*)", formula))


def _chem(row: dict[str, Any]) -> float | str:
    m, prompt = row["meta"], row["prompt"]
    left, right = m["reaction"].split(" -> ")
    coef = {
        f: int(c or 1)
        for side in (left, right)
        for c, f in (re.match(r"(\d*)(\S+)", t).groups() for t in side.split(" + "))
    }  # type: ignore[union-attr]
    if m["kind"] in ("yield_mass", "amount_needed"):
        given, grams = (
            m["given"][0],
            float(m["given"][1].split("/")[0]) / float((m["given"][1].split("/") + ["1"])[1]),
        )
        mol = grams / _molar(prompt, given) / coef[given]
        if m["kind"] == "yield_mass":
            return mol * coef[m["product"]] * _molar(prompt, m["product"])
        want = mol * coef[m["wanted"]] * (_molar(prompt, m["wanted"]) if m["unit"] == "g" else 1)
        return want
    masses = {
        f: float(x.split("/")[0]) / float((x.split("/") + ["1"])[1]) for f, x in m["masses"].items()
    }
    runs = {f: masses[f] / _molar(prompt, f) / coef[f] for f in masses}
    lim = min(runs, key=runs.__getitem__)
    if m["kind"] == "limiting":
        return lim
    if m["kind"] == "limiting_mass":
        return runs[lim] * coef[m["product"]] * _molar(prompt, m["product"])
    return masses[m["spare"]] - runs[lim] * coef[m["spare"]] * _molar(prompt, m["spare"])


def _value(row: dict[str, Any]) -> float | str:  # noqa: C901 - one branch per kind
    m, kind = row["meta"], row["meta"]["kind"]
    frac = lambda x: float(x.split("/")[0]) / float((x.split("/") + ["1"])[1])  # noqa: E731
    if kind == "uniform_accel":
        return (m["u"] + m["v"]) / 2 * m["t"]
    if kind == "throw_up":
        return _quadratic_root(G / 2, -m["v0"], -m["h"])  # h + v0 t - g t^2 / 2 = 0
    if kind == "chase":
        a = frac(m["a"])
        return _quadratic_root(a / 2, -m["va"], -m["va"] * m["delay"])
    if kind == "horizontal":
        return m["v"] * math.sqrt(2 * m["h"] / G)
    if kind == "range_choice":
        best = max(m["launches"], key=lambda la: la[0] ** 2 * math.sin(math.radians(2 * la[1])))
        return f"{best[0]} m/s at {best[1]} degrees above the horizontal"
    if kind in ("series", "branch_current", "branch_power", "max_power"):
        v, r = frac(m["volts"]), [frac(x) for x in m["r"]]
        if kind == "series":
            return v / (r[0] + r[1]) * 1000
        other = r[2] + r[3] if kind == "branch_power" else r[2]
        par = r[1] * other / (r[1] + other)
        i = v / (r[0] + par)
        if kind == "branch_current":
            return i * r[1] / (r[1] + r[2]) * 1000  # current divider
        if kind == "branch_power":
            i2 = i * other / (r[1] + other)
            return i2 * i2 * r[1] * 1000
        p = {
            "R1": i * i * r[0],
            "R2": (i * r[2] / (r[1] + r[2])) ** 2 * r[1],
            "R3": (i * r[1] / (r[1] + r[2])) ** 2 * r[2],
        }
        return max(p, key=p.__getitem__)
    if kind == "capacitors":
        v, (c1, c2, c3) = frac(m["volts"]), (frac(c) for c in m["c"])
        eq = [c1 + c2, c1 * c2 / (c1 + c2), c1 * (c2 + c3) / (c1 + c2 + c3)][m["layout"]]
        return eq * v * v / 2
    if kind == "moles":
        return m["p_kpa"] * m["v_l"] / (R * (m["t_c"] + K0))
    if kind == "combined":
        return m["p1"] * m["v1"] / m["v2"] * (m["t2"] + K0) / (m["t1"] + K0)
    if kind == "partial":
        return m["mass"][0] / frac(m["molar"][0]) * R * (m["t_c"] + K0) / m["v_l"]
    if kind == "density":
        return m["p_kpa"] * frac(m["molar"]) / (R * (m["t_c"] + K0))
    if kind == "pressure_factor":
        return f"It is multiplied by about {(m['t2'] + K0) / (m['t1'] + K0):.3f}"
    if kind == "kinetic":
        return m["m"] * (m["kmh"] / 3.6) ** 2 / 2000
    if kind == "pump":
        return m["litres"] * G * m["h"] / m["eff"] / 10
    if kind == "ice_to_water":
        return frac(m["m"]) * (2100 * m["t_ice"] + 334_000 + 4186 * m["t_end"]) / 1000
    if kind in ("mix_water", "mix_metal", "mix_ice"):
        (m1, m2), (t1, t2) = (frac(x) for x in m["m"]), m["t"]
        if kind == "mix_water":
            return (m1 * t1 + m2 * t2) / (m1 + m2)
        if kind == "mix_metal":
            return (m1 * 4186 * t1 + m2 * m["c"] * t2) / (m1 * 4186 + m2 * m["c"])
        return (m1 * 4186 * t1 - m2 * 334_000) / ((m1 + m2) * 4186)
    if kind == "most_energy":
        return max(m["values"], key=m["values"].__getitem__)
    return _chem(row)


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_answer_recomputed(row: dict[str, Any]) -> None:
    for constant in NEEDS.get(row["meta"]["kind"], []):
        assert constant in row["prompt"]
    value = _value(row)
    if row["scorer"] == "numeric":
        gold = float(row["answer"])
        assert math.isclose(value, gold, rel_tol=6e-4)
        assert math.isclose(row["meta"]["tolerance"], 0.01 * abs(gold))
        assert "rounded to 3 significant figures" in row["prompt"]
    elif row["scorer"] == "exact":
        assert row["answer"][0] == value
    elif row["meta"]["kind"] == "amount_needed":
        shown = row["choices"][ord(row["answer"]) - 65]
        assert math.isclose(float(shown.split()[0]), float(value), rel_tol=5e-3)
        others = [float(c.split()[0]) for c in row["choices"] if c != shown]
        assert all(not math.isclose(o, float(value), rel_tol=2e-2) for o in others)
    else:
        assert row["choices"][ord(row["answer"]) - 65] == value


def test_suite_shape() -> None:
    assert len(ROWS) >= 100
    assert {r["scorer"] for r in ROWS} == {"mc", "exact", "numeric"}
    assert {r["difficulty"] for r in ROWS} == {"easy", "medium", "hard"}
    assert len({r["prompt"] for r in ROWS}) == len(ROWS)
