"""eval-knowledge-v3: rows regenerate byte for byte, every proof passes, every answer is
re-derived a third way (v2's independent checks for the open forms: Aufbau positions, the
``calendar`` module, ``Decimal`` unit chains, a canonical-numeral regex; the same tools for the
rebuilt choice forms), and the v2 defects are gone: no square or cubic unit but the metre
(know2-0104 asked for square gigagrams), in the public rows and in every fresh instance the
``knowledge`` workload sends; choice rows whose middle, longest or most shared option is no
better than a guess."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import tests.gen.test_eval_knowledge_v2 as v2_checks
from stages.datasets.fresh import make_fresh
from stages.datasets.load import load_dataset
from stages.params import workload
from tests.gen._checks import (
    REPO,
    assert_regenerates_in_process,
    committed_rows,
    load_generator,
    mc_gold,
)

ROWS = committed_rows("eval-knowledge-v3")
OLD = committed_rows("eval-knowledge-v2")
GEN = load_generator("eval-knowledge-v3")
MC = [r for r in ROWS if r["scorer"] == "mc"]
POWERED = re.compile(r"\b(square|cubic) ([a-z]+?)s\b")
#: lengths squared or cubed by the unit conversions, which v3 keeps from v2 (square miles)
CONVERSION_LENGTHS = {"mile", "kilometre"}


def test_regenerates_byte_identically_in_process() -> None:
    assert_regenerates_in_process(GEN, "eval-knowledge-v3")


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_proof_passes(row: dict[str, Any]) -> None:
    GEN.prove(row)


def _powered_units(rows: list[dict[str, Any]]) -> set[str]:
    return {unit for r in rows for _, unit in POWERED.findall(r["prompt"])}


def test_know2_0104_asked_for_square_grams() -> None:
    (row,) = [r for r in OLD if r["id"] == "know2-0104"]
    assert "square gigagrams" in row["prompt"] and "square teragrams" in row["prompt"]
    assert any(u.endswith("gram") for u in _powered_units(OLD))


def test_only_metres_are_squared_or_cubed() -> None:
    units = _powered_units([r for r in ROWS if r["meta"]["kind"] == "prefix_count"])
    assert units and all(u.endswith("metre") for u in units), units
    assert _powered_units(ROWS) - units <= CONVERSION_LENGTHS
    prefixes = {u.removesuffix("metre") for u in units}
    assert prefixes <= {"kilo", "hecto", "deca", "deci", "centi", "milli", "micro"}


def test_fresh_instances_of_the_knowledge_workload_have_no_meaningless_units(
    tmp_path: Path,
) -> None:
    """Every seed the default ``knowledge`` workload sends (params.yaml ``fresh_seeds``); it runs
    eval-knowledge-v4 now, which keeps v3's items and seed (issue 30)."""
    knowledge = workload("knowledge", REPO / "params.yaml")
    assert knowledge.dataset == "eval-knowledge-v4"
    assert knowledge.fresh_seeds == [101, 102, 103]
    for seed in knowledge.fresh_seeds:
        path = make_fresh("eval-knowledge-v3", seed, root=REPO, base=tmp_path / "fresh")
        rows = load_dataset("eval-knowledge-v3", path.parent).rows
        assert len(rows) == len(ROWS)
        prefix_counts = [r for r in rows if r["meta"]["kind"] == "prefix_count"]
        units = _powered_units(prefix_counts)
        assert units and all(u.endswith("metre") for u in units), (seed, units)
        assert _powered_units(rows) - units <= CONVERSION_LENGTHS, seed
        assert max(Counter(r["answer"] for r in rows if r["scorer"] == "mc").values()) <= 8


def _position(row: dict[str, Any]) -> str:
    meta = row["meta"]
    zs = [v2_checks.Z[c] for c in row["choices"]]
    assert zs == list(range(zs[0], zs[0] + 4))
    (right,) = [
        c
        for c, z in zip(row["choices"], zs, strict=True)
        if v2_checks._aufbau(z)
        == (
            meta["period"],
            meta["group"],
        )
    ]
    return right


def _largest(row: dict[str, Any]) -> str:
    exponents = {"milli": -3, "centi": -2, "deci": -1, "": 0, "deca": 1, "hecto": 2, "kilo": 3}
    unit = row["meta"]["unit"]
    sizes = {
        c: Decimal(c.split()[0]) * Decimal(10) ** exponents[c.split()[1].removesuffix(unit + "s")]
        for c in row["choices"]
    }
    return max(sizes, key=sizes.__getitem__)


def _longest(row: dict[str, Any]) -> str:
    names = {"inches": "inch", "feet": "foot", "yards": "yard", "metres": "metre"}
    names |= {"kilometres": "kilometre", "miles": "mile", "nautical miles": "nautical mile"}
    sizes = {}
    for c in row["choices"]:
        amount, unit = c.split(" ", 1)
        sizes[c] = Decimal(amount) * v2_checks._metres(1, names[unit])
    return max(sizes, key=sizes.__getitem__)


def _choice_answer(row: dict[str, Any]) -> str:
    meta, kind = row["meta"], row["meta"]["kind"]
    if kind == "position_window":
        return _position(row)
    if kind == "leap_window":
        (right,) = [c for c in row["choices"] if calendar.isleap(int(c))]
        return right
    if kind == "date_window":
        start = dt.date.fromisoformat(meta["date"])
        days = [(v2_checks._date(c) - start).days for c in row["choices"]]
        assert days == list(range(days[0], days[0] + 4))  # four consecutive dates
        return str(row["choices"][days.index(meta["days"])])
    if kind == "longest_near":
        return _longest(row)
    if kind == "largest_near":
        return _largest(row)
    (right,) = [c for c in row["choices"] if v2_checks._roman(c) == meta["number"]]
    return right


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_answer_rederived(row: dict[str, Any]) -> None:
    if row["scorer"] == "mc":
        assert mc_gold(row) == _choice_answer(row)
        assert row["probes"]["option_ok"] == [c == mc_gold(row) for c in row["choices"]]
        return
    expected = v2_checks._expected(row)
    if row["scorer"] == "exact":
        accepted = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
        assert expected in accepted
    else:
        assert Decimal(row["answer"]) == Decimal(expected)


def _first_best(row: dict[str, Any], key: Any) -> bool:
    scores = [key(row, i) for i in range(4)]
    return "ABCD"[scores.index(max(scores))] == row["answer"]


def _middles(row: dict[str, Any]) -> list[int]:
    """The options with a neighbouring date on either side among the options."""
    days = [v2_checks._date(c).toordinal() for c in row["choices"]]
    return [i for i, d in enumerate(days) if d - 1 in days and d + 1 in days]


def test_the_middle_date_is_no_longer_the_gold() -> None:
    """v2's date rows offered the date n days on and the two leap-day slips either side, so the
    gold always sat between two options; in v3's windows of four consecutive dates the gold's
    place is planned, so a reader who picks one of the two middle dates is right one time in
    four on average (here 1 of the 4 golds is a middle date: 0.125)."""
    old = [r for r in OLD if r["scorer"] == "mc" and r["meta"]["kind"] == "date_after"]
    assert len(old) == 4 and all("ABCD".index(r["answer"]) in _middles(r) for r in old)
    new = [r for r in MC if r["meta"]["kind"] == "date_window"]
    assert all(len(_middles(r)) == 2 for r in new)
    expected = sum(("ABCD".index(r["answer"]) in _middles(r)) / 2 for r in new) / len(new)
    assert (len(new), expected) == (4, 0.125)


def _overlap(row: dict[str, Any], i: int) -> int:
    words = [set(re.findall(r"\w+", c.casefold())) for c in row["choices"]]
    return sum(len(words[i] & w) for j, w in enumerate(words) if j != i)


def _length(row: dict[str, Any], i: int) -> int:
    return len(row["choices"][i])


def test_option_form_does_not_find_the_gold() -> None:
    """Longest, shortest and most-shared options, first of ties, over the 30 choice rows
    (chance 7.5)."""
    counts = {
        "longest": sum(_first_best(r, _length) for r in MC),
        "shortest": sum(_first_best(r, lambda r, i: -_length(r, i)) for r in MC),
        "overlap": sum(_first_best(r, _overlap) for r in MC),
    }
    assert counts == {"longest": 8, "shortest": 4, "overlap": 7}
    assert Counter(r["answer"] for r in MC) == {"A": 7, "B": 8, "C": 8, "D": 7}


def test_integer_answers_are_scored_exactly() -> None:
    numeric = [r for r in ROWS if r["scorer"] == "numeric"]
    for row in numeric:
        tolerance = row["meta"]["tolerance"]
        assert tolerance == (0.01 if row["meta"]["kind"] == "convert" else 0), row["id"]
        assert Fraction(row["answer"]).denominator == 1 or tolerance


def test_suite_shape() -> None:
    assert len(ROWS) == len(OLD) == 120
    assert Counter(r["scorer"] for r in ROWS) == Counter(r["scorer"] for r in OLD)
    assert Counter((r["category"], r["difficulty"]) for r in ROWS) == Counter(
        (r["category"], r["difficulty"]) for r in OLD
    )
    assert len({r["prompt"] for r in ROWS}) == len(ROWS)
