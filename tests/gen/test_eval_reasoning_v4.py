"""eval-reasoning-v4: every row's family proof re-run on the committed bytes, every row's probes
judged by its own scorer, and each defect issue 19 lists for eval-reasoning-v3 replayed on the
old rows (by their ids) and shown gone in the new ones. Both datasets share one layout
(``common.suite``), so reason3-NNNN and reason4-NNNN are the same (family, level, form) cell.

Byte-identical regeneration of the files is tests/gen/test_determinism.py's job; here the rows,
probes included, are also regenerated in process.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from tests.gen._checks import (
    Successor,
    assert_echoes_gone,
    assert_letters_balanced,
    assert_option_verdicts_single_out_gold,
    assert_regenerates_in_process,
    assert_same_cells,
    gold_text,
    pooled_learned,
    pooled_rows,
    probe_failures,
    verdict,
)

V4 = Successor("eval-reasoning-v4", "eval-reasoning-v3")
ROWS, BY_ID, OLD, GEN, new = V4.rows, V4.by_id, V4.old, V4.gen, V4.new

CENTROID = ("reason3-0026", "reason3-0032", "reason3-0128", "reason3-0134", "reason3-0140")
SYLLOGISM_EXAMPLE = "reason3-0058"
ROUTE = "reason3-0126"
ECHOED = ["reason3-0116"]


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_family_proof_holds_on_committed_row(row: dict[str, Any]) -> None:
    GEN.prove(row)


def test_rows_and_probes_regenerate_byte_identically_in_process() -> None:
    assert_regenerates_in_process(GEN, "eval-reasoning-v4")


def test_layout_as_v3() -> None:
    assert_letters_balanced(ROWS, overall=18, per_category=3)
    assert_same_cells(ROWS, list(OLD.values()))


def test_every_probe_is_judged_as_the_generator_says() -> None:
    assert probe_failures(ROWS) == []


def test_option_verdicts_are_the_family_proofs_and_single_out_the_gold() -> None:
    assert_option_verdicts_single_out_gold(GEN, ROWS)


def test_echoed_prompts_score_nowhere() -> None:
    """v3's ECHOED rows scored their own prompt under the flexible reading's old last-number
    rule; the committed-answer reading (issue 30) reads no number from those sentences."""
    assert_echoes_gone(list(OLD.values()), ROWS, [])


# ---- complete finishing order: the gold is not the options' centroid ----
def _agreement(row: dict[str, Any]) -> list[int]:
    options = [tuple(c.split(", ")) for c in row["choices"]]
    return [
        sum(sum(a == b for a, b in zip(o, p, strict=True)) for p in options if p is not o)
        for o in options
    ]


def _centroid_hit(row: dict[str, Any]) -> float:
    agree = _agreement(row)
    top = [i for i, v in enumerate(agree) if v == max(agree)]
    return (ord(row["answer"]) - 65 in top) / len(top)


def _complete_order_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if r["scorer"] == "mc" and "complete finishing order" in r["prompt"]]


def test_v3_gold_is_the_centroid_of_its_finishing_orders() -> None:
    for old_id in CENTROID:
        agree = _agreement(OLD[old_id])
        gold = ord(OLD[old_id]["answer"]) - 65
        assert agree[gold] == max(agree) and agree.count(max(agree)) == 1, old_id
    assert sum(_centroid_hit(r) for r in _complete_order_rows(list(OLD.values()))) == 5


def test_v4_centroid_guesser_is_at_chance() -> None:
    rows = _complete_order_rows(ROWS)
    assert {new(i)["id"] for i in CENTROID} <= {r["id"] for r in rows} and len(rows) == 6
    assert sum(_centroid_hit(r) for r in rows) < 2  # chance: 1.5 of 6 (v3: 5)
    for row in rows:  # neither the place, neighbour nor first/last agreement singles out the gold
        options = [tuple(c.split(", ")) for c in row["choices"]]
        assert GEN.order_v4.orders.edge(options, ord(row["answer"]) - 65) <= 0.5, row["id"]


# ---- spellings: statement labels, arrows and dashes ----
def _label_spellings(row: dict[str, Any]) -> list[str]:
    numbers = row["answer"][0].split(", ")
    labels = [f"({n})" for n in numbers]
    return [f"Answer: {', '.join(labels)}", f"Answer: {' '.join(labels)}", ", ".join(labels)]


def test_statement_labels_accepted_in_v3_by_the_list_reading_and_in_v4() -> None:
    """v3 listed no bracketed spelling; the exact scorer's list reading (issue 30) accepts the
    labels on v3's rows too; v4 lists them as accepted answers."""
    old = [r for r in OLD.values() if r["category"] == "syllogism" and r["scorer"] == "exact"]
    assert len(old) == 12 and SYLLOGISM_EXAMPLE in {r["id"] for r in old}
    for row in old:
        assert all(verdict(row, s) == (True, True) for s in _label_spellings(row)), row["id"]
    typed = [r for r in ROWS if r["category"] == "syllogism" and r["scorer"] == "exact"]
    assert len(typed) == 12
    for row in typed:
        assert all(verdict(row, s) == (True, True) for s in _label_spellings(row)), row["id"]


def _route_spellings(row: dict[str, Any]) -> list[str]:
    towns = gold_text(row).split("-")
    return [f"Answer: {j.join(towns)}" for j in (" → ", "→", " – ", "–", " — ")]


def test_routes_with_arrows_and_dashes_accepted_in_v3_by_the_list_reading_and_in_v4() -> None:
    assert all(verdict(OLD[ROUTE], s) == (True, True) for s in _route_spellings(OLD[ROUTE]))
    typed = [r for r in ROWS if r["category"] == "shortest_path" and r["scorer"] == "exact"]
    assert len(typed) == 6 and new(ROUTE) in typed
    for row in typed:
        assert all(verdict(row, s) == (True, True) for s in _route_spellings(row)), row["id"]


def test_open_ordering_who_rows_never_share_a_gold() -> None:
    """A guesser answering the commonest gold of the other "who finished k-th" rows finds
    nothing."""
    golds = [gold_text(r) for r in ROWS if r["category"] == "ordering" and r["scorer"] == "exact"]
    assert len(golds) == 6 and len(set(golds)) == 6, golds


# ---- "in which place": the asked place is drawn per row, not planned per cell ----
def _is_place_row(row: dict[str, Any]) -> bool:
    return row["category"] == "ordering" and "In which place" in row["prompt"]


def test_pooled_instances_ask_different_places_in_each_cell() -> None:
    """As first published, each (form, level) cell asked one planned place, the same in every
    fresh instance, so the pooled audit predicted it (ordering numeric 0.42 vs chance 0.17:
    the place tracked the race's size, the prompt's first number). Now every row draws it."""
    places: dict[str, set[int]] = defaultdict(set)
    for row in pooled_rows(GEN, "eval-reasoning-v4", _is_place_row):
        places[row["id"]].add(row["meta"]["place"])
    assert len(places) == 9  # 6 numeric and 3 mc rows, each in four instances
    assert all(len(seen) > 1 for seen in places.values()), places


def test_pooled_place_numbers_leave_the_learned_baseline_at_chance() -> None:
    got = pooled_learned(
        GEN, "eval-reasoning-v4", lambda r: _is_place_row(r) and r["scorer"] == "numeric"
    )
    assert got.overall.rows == 24
    assert not got.fails and got.overall.margin <= 0.05, got.describe()
