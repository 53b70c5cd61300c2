"""eval-math-v4: rows regenerate byte for byte, every proof passes, the layout is eval-math-v1's,
every row's probes are judged as the generator says, and the echo defect issue 19 lists for
eval-math-v1 (math-0006, math-0012, math-0066: the prompt's last number is the gold, so the
flexible reading takes the prompt sent back as right) is replayed on the v1 rows with the audit's
own echo check and shown gone in every v4 row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stages.datasets.strength import strength
from tests.gen._checks import (
    REPO,
    Successor,
    assert_echoes_gone,
    assert_regenerates_in_process,
    probe_failures,
    verdict,
)

V4 = Successor("eval-math-v4", "eval-math-v1")
ROWS, OLD, GEN, new = V4.rows, list(V4.old.values()), V4.gen, V4.new
ECHOED = ["math-0006", "math-0012", "math-0066"]


def _audit_echoes(dataset_id: str, rows: list[dict[str, Any]]) -> tuple[int, int, list[str]]:
    """(tried, wrong, ids of rows an echo scored on) by the audit's scorer-strength check."""
    echoes = strength(rows, Path(REPO / "datasets" / dataset_id)).echoes
    return echoes.tried, echoes.held, sorted({f.split(":")[0] for f in echoes.failures})


def test_rows_and_probes_regenerate_byte_identically_in_process() -> None:
    assert_regenerates_in_process(GEN, "eval-math-v4")


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_proof_passes(row: dict[str, Any]) -> None:
    GEN.prove(row)


def test_layout_and_size_are_v1s() -> None:
    assert len(ROWS) == len(OLD) == 180
    assert [(r["category"], r["difficulty"]) for r in ROWS] == [
        (r["category"], r["difficulty"]) for r in OLD
    ]
    assert all(r["scorer"] == "numeric" for r in ROWS)


def test_v1_echo_defects_no_longer_score_and_are_gone_in_v4() -> None:
    """v1's prompts that end with their gold scored their own echo under the flexible reading's
    old last-number rule; since issue 30 it reads the last sentence's committed number, and
    those sentences hold several numbers (the defect stays in the data: the next test)."""
    assert_echoes_gone(OLD, ROWS, [])
    for old_id in ECHOED:
        old = V4.old[old_id]
        assert verdict(old, old["prompt"]) == (False, False)
        assert verdict(new(old_id), new(old_id)["prompt"]) == (False, False)
    assert _audit_echoes("eval-math-v1", OLD) == (884, 884, [])
    assert _audit_echoes("eval-math-v4", ROWS) == (888, 888, [])


def test_no_prompt_states_a_number_its_row_accepts() -> None:
    """The generator's guard, stricter than the echo: it also catches v1's math-0132, whose gold
    stands mid-prompt (the audit counts its filled answer line as a copy); no v4 row fails it."""
    states = GEN.probes.states_gold
    stated = [r["id"] for r in OLD if states(r["prompt"], r["answer"], r["meta"])]
    assert stated == [*ECHOED, "math-0132"]
    assert [r["id"] for r in ROWS if states(r["prompt"], r["answer"], r["meta"])] == []


def test_every_probe_is_judged_as_the_generator_says() -> None:
    assert probe_failures(ROWS) == []


def test_careless_slips_are_the_expected_values() -> None:
    """Brackets dropped, precedence ignored, fractions added across (hand-checked); a slip that
    lands on the gold (16 here, left to right) is dropped from the probes."""
    assert GEN._careless("(10 - 4) * 3 - 2") == [GEN.Fraction(-4), GEN.Fraction(16)]
    row = {"id": "t", "scorer": "numeric", "answer": "16", "meta": {"tolerance": 0}}
    row["meta"]["expression"] = "(10 - 4) * 3 - 2"
    assert GEN.probes.open_row(row, GEN.slips(row)[0])["near_misses"] == [
        "Answer: -4",
        "Answer: 15",
        "Answer: 17",
    ]
    assert GEN._careless("5 + 4 * 3") == [GEN.Fraction(27)]
    assert GEN._across("1/2 + 1/3") == [GEN.Fraction(2, 5)]
    assert GEN._across("1/2 * 1/3 - 1/4") == []
