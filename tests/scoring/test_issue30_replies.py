"""Every reply issue 30 quotes, with the verdict a careful reader gives it, on the default
datasets' own rows where the issue names them (each failed on main before the committed-answer
reading: the answer line's last number, a blacklist of separators, the first letter of an mc
reply)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stages.datasets.open_candidates import number_text
from stages.scoring.numeric import accepts, gold_value
from stages.scoring.registry import score_row

DATASETS = Path(__file__).resolve().parents[2] / "datasets"


def _rows(dataset_id: str) -> dict[str, dict[str, Any]]:
    lines = (DATASETS / dataset_id / "rows.jsonl").read_text("utf-8").splitlines()
    return {row["id"]: row for row in map(json.loads, lines)}


MATH = _rows("eval-math-v4")
REASONING = _rows("eval-reasoning-v4")
SCIENCE = _rows("eval-science-v4")
SECURITY = _rows("eval-security-v4")
MULTI = _rows("eval-multilingual-v3")
COMMON = _rows("eval-commonsense-v4")
KNOW = _rows("eval-knowledge-v3")
DIRS = {id(t): DATASETS / n for t, n in (
    (MATH, "eval-math-v4"), (REASONING, "eval-reasoning-v4"), (SCIENCE, "eval-science-v4"),
    (SECURITY, "eval-security-v4"), (MULTI, "eval-multilingual-v3"),
    (COMMON, "eval-commonsense-v4"), (KNOW, "eval-knowledge-v3"),
)}  # fmt: skip


def verdict(table: dict[str, dict[str, Any]], row_id: str, reply: str) -> tuple[bool, bool]:
    """(strict, flexible) of one reply on one row of a default dataset."""
    found = score_row(table[row_id], {"output": reply, "error": None}, DIRS[id(table)])
    assert found.flexible is not None
    return bool(found.correct), bool(found.flexible.correct)


def synthetic(answer: str, reply: str) -> tuple[bool, bool]:
    row = {"id": "t", "scorer": "numeric", "answer": answer, "meta": {}}
    found = score_row(row, {"output": reply, "error": None}, Path("."))
    assert found.flexible is not None
    return bool(found.correct), bool(found.flexible.correct)


NUMERIC = [
    (table, row["id"])
    for table in (MATH, REASONING, SCIENCE, SECURITY, MULTI, COMMON, KNOW)
    for row in table.values()
    if row["scorer"] == "numeric"
]
HEDGES = [
    "Answer: {w} and {g}", "Answer: {w} (or {g})", "Answer: between {w} and {g}",
    "Answer: {w} to {g}", "Answer: {w} (not {g})", "Answer: it is not {g}",
    "Answer: {w}, maybe {g}", "Answer: {w} or perhaps {g}",
]  # fmt: skip


def test_numeric_replies_that_commit_to_a_wrong_value_are_wrong_on_every_numeric_row() -> None:
    credited = []
    for table, row_id in NUMERIC:
        gold, row = table[row_id]["answer"], table[row_id]
        value = gold_value(row)
        wrong = number_text(value + 1 if not accepts(row, value + 1, value)[0] else value * 2 + 3)
        for shape in HEDGES:
            reply = shape.format(w=wrong, g=gold)
            if any(verdict(table, row_id, reply)):
                credited.append((row_id, reply))
    assert len(NUMERIC) == 416 and credited == []


@pytest.mark.parametrize(
    ("answer", "reply"),
    [("4", "Answer: 3-4"), ("38", "Answer: 36 37 38")],
)
def test_ranges_and_runs_are_wrong(answer: str, reply: str) -> None:
    assert verdict(REASONING, "reason4-0038" if answer == "4" else "reason4-0078", reply) == (
        False, False,
    )  # fmt: skip
    assert synthetic(answer, reply) == (False, False)


@pytest.mark.parametrize(
    "reply",
    [
        "Answer: mardi et jeudi", "Answer: mardi (ou jeudi)", "Answer: ce n'est pas mardi",
        "Answer: it is not mardi", "Answer: mardi [jeudi?]", "Answer: jeudi (pas mardi)",
    ],
)  # fmt: skip
def test_weekday_hedges_are_wrong(reply: str) -> None:
    assert MULTI["multi3-0002"]["answer"] == ["mardi"]
    assert verdict(MULTI, "multi3-0002", reply) == (False, False)


def test_every_weekday_or_month_name_is_credited_on_no_row() -> None:
    from stages.scoring.vocabulary import calendar_list

    rows = [r for r in MULTI.values() if r["scorer"] == "contains"]
    credited = 0
    for row in rows:
        kind = "weekday" if row["category"] == "weekdays" else "month"
        names = calendar_list(kind, row["meta"]["lang"])
        for reply in (" ".join(names), "\n".join(names), "Answer: " + " ".join(names)):
            credited += any(verdict(MULTI, row["id"], reply))
    assert (len(rows), credited) == (36, 0)


MC_ROWS = [
    (table, row["id"])
    for table in (REASONING, SCIENCE, SECURITY)
    for row in table.values()
    if row["scorer"] == "mc"
]


@pytest.mark.parametrize(
    "reply", ["Answer: A.B.C.D", "Answer: D.C.B.A", "Answer: A.B", "Answer: A. B C D"]
)
def test_several_labels_are_credited_on_no_mc_row(reply: str) -> None:
    credited = [rid for table, rid in MC_ROWS if any(verdict(table, rid, reply))]
    assert (len(MC_ROWS), credited) == (168, [])


def test_a_label_followed_by_a_plausible_other_is_wrong() -> None:
    rows = [(t, rid) for t, rid in MC_ROWS if t[rid]["answer"] == "C"]
    assert all(verdict(t, rid, "Answer: C: but D is also plausible") == (False, False)
               for t, rid in rows)  # fmt: skip
    assert all(verdict(t, rid, "Answer: C (not D)") == (True, True) for t, rid in rows)


@pytest.mark.parametrize(
    ("answer", "reply"),
    [
        ("38", "Answer: 38 km (17 + 21)"), ("11", "Answer: 11 (counting day 0)"),
        ("472", "Answer: 472 (an increase of 72)"), ("9", "Answer: 9 (mod 30)"),
        ("22", "Answer: 22 (9 + 11 + 2)"), ("1900", "Answer: 1.90 × 10^3"),
        ("4630000", "Answer: 4 630 000"),
    ],
)  # fmt: skip
def test_working_after_the_value_and_number_notations_are_right(answer: str, reply: str) -> None:
    assert synthetic(answer, reply) == (True, True)


def test_lists_with_any_separator_are_right() -> None:
    knights = [r for r in REASONING.values()
               if r["category"] == "knights_knaves" and r["scorer"] == "exact"
               and len(r["answer"][0].split(", ")) == 3]  # fmt: skip
    assert knights
    for row in knights:
        x, y, z = row["answer"][0].split(", ")
        assert verdict(REASONING, row["id"], f"Answer: {x}, {y} and {z}") == (True, True)
    orders = [r for r in SECURITY.values()
              if r["meta"]["kind"] == "ir_order" and r["scorer"] == "exact"]  # fmt: skip
    for row in orders:
        letters = row["answer"][0].split(", ")
        assert verdict(SECURITY, row["id"], "Answer: " + " > ".join(letters)) == (True, True)
    ranks = [r for r in SCIENCE.values() if r["scorer"] == "exact" and "R1" in r["answer"][0]]
    assert ranks
    for row in ranks:
        labels = row["answer"][0].split(", ")
        assert verdict(SCIENCE, row["id"], "Answer: " + ">".join(labels)) == (True, True)


@pytest.mark.parametrize(
    ("table", "row_id", "reply"),
    [
        (REASONING, "reason4-0131", "Answer: B (27)"),
        (COMMON, "cs4-0076", "Answer: A - fossil"),
        (MULTI, "multi3-0068", "Answer: C (novembro)"),
        (COMMON, "cs4-0126", "Answer: cotton wool"),
        (COMMON, "cs4-0126", "Answer: C) The cotton wool"),
    ],
)
def test_mc_labels_with_their_text_are_right(
    table: dict[str, dict[str, Any]], row_id: str, reply: str
) -> None:
    assert verdict(table, row_id, reply) == (True, True)


def test_unicode_minus_and_accents() -> None:
    row = {"id": "e", "scorer": "exact", "answer": "-205", "meta": {}}
    found = score_row(row, {"output": "Answer: −205", "error": None}, Path("."))
    assert found.correct is True
    mc = {"id": "m", "scorer": "mc", "answer": "B", "choices": ["-3 °C", "-5 °C", "2 °C"]}
    assert score_row(mc, {"output": "Answer: −5 °C", "error": None}, Path(".")).correct is True
    accent = {"id": "a", "scorer": "mc", "answer": "A", "choices": ["sábado", "domingo"]}
    found = score_row(accent, {"output": "Answer: sabado", "error": None}, Path("."))
    assert (found.correct, found.flexible and found.flexible.correct) == (False, True)


def test_german_quotes_are_stripped() -> None:
    row = {"id": "g", "scorer": "exact", "answer": "Sonntag", "meta": {"lang": "de"}}
    found = score_row(row, {"output": "Answer: „Sonntag“", "error": None}, Path("."))
    assert found.correct is True


def test_stated_rounding_is_the_tolerance() -> None:
    row = next(r for r in SCIENCE.values() if r["scorer"] == "numeric")
    gold = float(row["answer"])  # sci4-0001: 240.0, asked to 3 significant figures
    assert (row["id"], gold) == ("sci4-0001", 240.0)
    science = {**row, "answer": "632.4"}
    got = {v: synthetic_row(science, f"Answer: {v}") for v in ("626", "632", "632.4", "637")}
    assert got == {"626": False, "632": True, "632.4": True, "637": False}
    assert [verdict(KNOW, "know3-0103", f"Answer: {v}")[0] for v in ("453.10", "453.11", "453.12")
            ] == [False, True, False]  # fmt: skip


def synthetic_row(row: dict[str, Any], reply: str) -> bool:
    return bool(score_row(row, {"output": reply, "error": None}, Path(".")).correct)
