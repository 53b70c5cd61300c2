"""eval-math-v5: rows regenerate byte for byte, every proof passes, every probe is judged as the
generator says, the modular choice rows are solved a third way (the extended Euclidean
algorithm), and issue 30's shortcut is replayed: eval-math-v3 offered the gold x and its mirror
m - x together in 5 of its 6 modular choice rows; v5 offers no mirror pair and no other shape
that points at the gold, on the committed rows and pooled with fresh instances. Same layout and
seed as v3, so math3-NNNN and math5-NNNN are the same cell and only the six modular choice rows
differ."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

from stages.datasets.regen import FRESH_SEED_ENV
from tests.gen._checks import (
    Successor,
    assert_option_verdicts_single_out_gold,
    assert_regenerates_in_process,
    assert_same_cells,
    echo_hits,
    load_generator,
    mc_gold,
    pooled_rows,
    probe_failures,
)

V5 = Successor("eval-math-v5", "eval-math-v3")
ROWS, OLD, GEN, new = V5.rows, V5.old, V5.gen, V5.new
OLD_GEN = load_generator("eval-math-v3")
MIRRORED = ["math3-0020", "math3-0026", "math3-0032", "math3-0074", "math3-0080"]


def _modular(row: dict[str, Any]) -> bool:
    return row["scorer"] == "mc" and row["meta"]["kind"] == "congruence_options"


MODULAR = [r for r in ROWS if _modular(r)]


def test_regenerates_byte_identically_in_process() -> None:
    assert_regenerates_in_process(GEN, "eval-math-v5")


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_proof_passes(row: dict[str, Any]) -> None:
    GEN.prove(row)


def test_layout_as_v3_and_only_the_modular_choice_rows_changed() -> None:
    assert_same_cells(ROWS, list(OLD.values()))
    assert Counter(r["answer"] for r in ROWS if r["scorer"] == "mc") == dict.fromkeys("ABCD", 9)
    changed = [r["id"] for r in OLD.values() if _differs(r, new(r["id"]))]
    assert changed == [f"math3-{n:04d}" for n in (20, 26, 32, 74, 80, 86)]
    assert all(_modular(OLD[i]) and new(i)["answer"] == OLD[i]["answer"] for i in changed)


def _differs(old: dict[str, Any], row: dict[str, Any]) -> bool:
    return {k: v for k, v in old.items() if k != "id"} != {
        k: v for k, v in row.items() if k != "id"
    }


def test_every_probe_is_judged_as_the_generator_says() -> None:
    assert probe_failures(ROWS) == []
    assert echo_hits(ROWS) == []


def test_option_verdicts_single_out_the_gold() -> None:
    assert_option_verdicts_single_out_gold(GEN, [r for r in ROWS if r["scorer"] == "mc"])


def _euclid(a: int, b: int, m: int) -> int:
    """The x in 1..m-1 with a*x = b (mod m), by the extended Euclidean algorithm."""
    r0, r1, s0, s1 = m, a % m, 0, 1
    while r1:
        q = r0 // r1
        r0, r1, s0, s1 = r1, r0 - q * r1, s1, s0 - q * s1
    assert r0 == 1  # a is a unit
    return s0 * b % m


@pytest.mark.parametrize("row", MODULAR, ids=[r["id"] for r in MODULAR])
def test_modular_answers_by_euclid(row: dict[str, Any]) -> None:
    m = row["meta"]
    assert int(mc_gold(row)) == _euclid(m["a"], m["b"], m["modulus"])


# ---- issue 30: the mirror pair and other shapes ------------------------------------------------
def _values(row: dict[str, Any]) -> tuple[list[int], int, int]:
    values = [int(c) for c in row["choices"]]
    return values, values["ABCD".index(row["answer"])], row["meta"]["modulus"]


def _mirror_reader(row: dict[str, Any]) -> float:
    """Expected accuracy of a reader who picks among the options that have their mirror m - x
    among the options (among all four when none has)."""
    values, gold, m = _values(row)
    paired = [x for x in values if (m - x) in values] or values
    return (gold in paired) / len(paired)


def _halfway(row: dict[str, Any]) -> list[int]:
    """The options halfway (modulo m) between two other options."""
    values, _, m = _values(row)
    return [
        x
        for x in values
        if any((2 * x - y - z) % m == 0 for y in values for z in values if len({x, y, z}) == 3)
    ]


def test_v3_offers_the_mirror_pair_and_v5_never() -> None:
    old = [r for r in OLD.values() if _modular(r)]
    assert [r["id"] for r in old if _mirror_reader(r) == 0.5] == MIRRORED
    assert (len(old), sum(map(_mirror_reader, old))) == (6, 2.75)  # chance 1.5
    assert [_halfway(r) for r in old] == [[], [], [88], [], [31], [255]]  # gold in -0032, -0086
    assert [int(c) for c in OLD["math3-0026"]["choices"]] == [1, 18, 27, 54]  # 54 = a = m - 1
    assert (len(MODULAR), sum(map(_mirror_reader, MODULAR))) == (6, 1.5)
    assert [_halfway(r) for r in MODULAR] == [[]] * 6


def test_v5_option_sets_have_no_tell_and_share_the_golds_common_factor() -> None:
    tells = GEN.choice_v5.tells
    old = [tells(_values(r)[0], r["meta"]) for r in OLD.values() if _modular(r)]
    assert old == [
        ["mirror pair"],
        ["mirror pair", "stated number"],
        ["mirror pair", "halfway option", "common factor"],
        ["mirror pair", "stated number"],
        ["mirror pair", "halfway option"],
        ["halfway option", "common factor"],
    ]
    for row in MODULAR:
        values, gold, m = _values(row)
        assert tells(values, row["meta"]) == [], row["id"]
        assert {math.gcd(v, m) for v in values} == {math.gcd(row["meta"]["b"], m)}, row["id"]
        assert 1 not in values and m - 1 not in values and row["meta"]["a"] not in values


def test_pooled_with_fresh_instances_no_mirror_pair() -> None:
    """Committed rows and the audit's three fresh instances: 24 modular choice rows each."""
    old = pooled_rows(OLD_GEN, "eval-math-v3", _modular)
    rows = pooled_rows(GEN, "eval-math-v5", _modular)
    assert (len(old), sum(map(_mirror_reader, old))) == (24, 9.5)  # chance 6
    assert sum(bool(_halfway(r)) for r in old) == 9
    assert (len(rows), sum(map(_mirror_reader, rows))) == (24, 6.0)
    assert [r["id"] for r in rows if _halfway(r) or GEN.choice_v5.tells(*_tell_args(r))] == []


def _tell_args(row: dict[str, Any]) -> tuple[list[int], dict[str, Any]]:
    return _values(row)[0], row["meta"]


def test_over_twenty_more_fresh_seeds_every_rank_and_no_tell(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """120 modular choice rows of seeds 2001-2020: none with a tell and the mirror reader at
    chance (v3's generator over the same seeds: 106 rows with a tell, the mirror reader 50.6 of
    120); the gold's rank among the ascending options is the letter plan's, as in v3."""
    cells = [i for i, r in enumerate(ROWS) if _modular(r)]
    got = []
    for gen in (OLD_GEN, GEN):
        rows = []
        for seed in range(2001, 2021):
            monkeypatch.setenv(FRESH_SEED_ENV, str(seed))
            rows += [gen.generate(gen.lib.row_rng(gen.SEED, i), i) for i in cells]
        tells = sum(bool(GEN.choice_v5.tells(*_tell_args(r))) for r in rows)
        ranks = Counter(r["answer"] for r in rows)
        got.append((len(rows), round(sum(map(_mirror_reader, rows)), 2), tells, ranks))
    ranks = {"A": 33, "B": 28, "C": 31, "D": 28}
    assert got == [(120, 50.58, 106, ranks), (120, 30.0, 0, ranks)]
