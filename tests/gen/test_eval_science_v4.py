"""eval-science-v4: rows regenerate byte for byte, every family proof passes, every answer is
recomputed from v3's textbook closed forms (tests/gen/test_eval_science_v3.py), and the
assumption v3 left unstated in sci3-0065 (the kettle's full efficiency) and in its siblings (the
ideal gas of the Boyle's-law rows, the ideal wires of the terminal-voltage row) is stated in
every row that relies on it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import tests.gen.test_eval_science_v3 as v3_checks
from tests.gen._checks import assert_regenerates_in_process, committed_rows, load_generator

ROWS = committed_rows("eval-science-v4")
OLD = committed_rows("eval-science-v3")
GEN = load_generator("eval-science-v4")
#: kind -> what a row of it must state, beside the constants (efficiency, ideal gas, wires)
IDEAL_GAS = ("Treat the gases as ideal", "Treat the air as an ideal gas")
WIRES = ("the wires have no resistance", "The wires have no resistance")


def _states(row: dict[str, Any]) -> bool:
    """Whether the row states the assumptions its answer relies on."""
    kind, prompt = row["meta"]["kind"], row["prompt"]
    if kind == "kettle":
        eff = row["meta"]["eff"]
        text = "All of its electrical energy" if eff == 100 else f"{eff}% of its electrical"
        return text in prompt
    if row["category"] == "gas_laws":
        return any(s in prompt for s in IDEAL_GAS)
    if row["category"] == "circuits" and kind not in ("capacitors", "fuse"):
        return any(s in prompt for s in WIRES)
    return True


def test_regenerates_byte_identically_in_process() -> None:
    assert_regenerates_in_process(GEN, "eval-science-v4")


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_family_proof_passes(row: dict[str, Any]) -> None:
    GEN.prove(row)


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_answer_recomputed_from_closed_forms(row: dict[str, Any]) -> None:
    v3_checks.test_answer_recomputed_from_closed_forms(row)


def test_v3_left_assumptions_unstated_that_v4_states() -> None:
    """sci3-0065 (the issue's row) and its siblings of the same omission, found by rule."""
    unstated = {r["id"]: r["meta"]["kind"] for r in OLD if not _states(r)}
    assert unstated["sci3-0065"] == "kettle" and "100 degrees C. Use" in OLD[64]["prompt"]
    assert unstated == {
        "sci3-0065": "kettle",
        "sci3-0012": "terminal",
        "sci3-0063": "boyle",
        "sci3-0068": "bubble",
        "sci3-0073": "bubble_warm",
    }
    assert [r["id"] for r in ROWS if not _states(r)] == []
    (kettle,) = [r for r in ROWS if r["id"] == "sci4-0065"]
    assert kettle["meta"]["kind"] == "kettle" and kettle["meta"]["eff"] == 100
    assert "to 100 degrees C. All of its electrical energy reaches the water." in kettle["prompt"]


def test_no_numeric_prompt_states_its_answer() -> None:
    stated = [
        r["id"]
        for r in ROWS
        if r["scorer"] == "numeric" and GEN.probes.states_gold(r["prompt"], r["answer"], r["meta"])
    ]
    assert stated == []


def test_layout_is_v3s() -> None:
    """Row for row the same family, level and question kind as v3 (so sci4-0065 is a kettle)."""
    assert [(r["category"], r["difficulty"], r["meta"]["kind"]) for r in ROWS] == [
        (r["category"], r["difficulty"], r["meta"]["kind"]) for r in OLD
    ]
    assert Counter(r["answer"] for r in ROWS if r["scorer"] == "mc") == dict.fromkeys("ABCD", 9)
