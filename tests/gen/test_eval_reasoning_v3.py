"""eval-reasoning-v3: every row's family proof re-run on the committed bytes (each family searches
again its own way), finishing orders and knights-and-knaves solved once more here, and the issue-13
faults of eval-reasoning-v1 and -v2 asserted directly: gold letters balanced exactly, no clue that
states the asked fact, wrong grid statements of the same kind as the right one.

Byte-identical regeneration is tests/gen/test_determinism.py's job (it covers every generator).
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from tests.gen._checks import assert_letters_balanced, committed_rows, load_generator

ROWS = committed_rows("eval-reasoning-v3")
MC = [r for r in ROWS if r["scorer"] == "mc"]


GEN = load_generator("eval-reasoning-v3")


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_family_proof_holds_on_committed_row(row: dict[str, Any]) -> None:
    GEN.prove(row)


def test_gold_letters_balanced_exactly_in_every_category() -> None:
    assert_letters_balanced(ROWS, overall=18, per_category=3)


def test_no_grid_clue_states_the_asked_fact() -> None:
    """v1 rows 0030 and 0044: "Nico drinks milk." next to "Who drinks milk?"."""
    for row in (r for r in ROWS if r["category"] == "logic_grid"):
        fact = row["meta"]["fact"]
        for clue in row["meta"]["clues"]:
            if fact[0] == "same":
                assert not (clue[0] == "same" and sorted(clue[1:]) == sorted(fact[1:])), row["id"]
            else:
                assert not (clue[0] == "at" and clue[1] == fact[1]), row["id"]


def _place_ok(clue: list[Any], order: tuple[str, ...]) -> bool:
    pos = {name: i + 1 for i, name in enumerate(order)}
    kind, a = clue[0], pos[clue[1]]
    if kind in ("pos", "not_pos"):
        return (a == clue[2] + 1) == (kind == "pos")
    if kind == "parity":
        return a % 2 == clue[2]
    b = pos[clue[2]]
    return {
        "ahead": a < b,
        "right_ahead": a + 1 == b,
        "apart": abs(a - b) > 1,
        "gap": abs(a - b) - 1 == (clue[3] if kind == "gap" else None),
    }[kind]


@pytest.mark.parametrize("row", [r for r in ROWS if r["category"] == "ordering"])
def test_order_unique_and_not_given_by_one_clue(row: dict[str, Any]) -> None:
    """v1 rows 0071 and 0092: "Mira finished second." next to "Who finished second?"."""
    m = row["meta"]
    orders = list(itertools.permutations(m["runners"]))
    fits = [o for o in orders if all(_place_ok(c, o) for c in m["clues"])]
    assert fits == [tuple(m["solution"])]
    place = m["place"] - 1
    for clue in m["clues"]:
        assert len({o[place] for o in orders if _place_ok(clue, o)}) > 1, (row["id"], clue)


@pytest.mark.parametrize("row", [r for r in ROWS if r["category"] == "knights_knaves"])
def test_knights_unique_assignment(row: dict[str, Any]) -> None:
    m = row["meta"]
    people = m["people"]

    def said(statement: list[Any], knights: frozenset[str]) -> bool:
        kind, *args = statement
        if kind == "count":
            return len(knights) == args[0]
        x = args[0] in knights
        if kind in ("knight", "knave"):
            return x == (kind == "knight")
        y = args[1] in knights
        table = {"same": x == y, "differ": x != y, "some_knave": not (x and y)}
        return table.get(kind, (y or not x) if kind == "if_then" else (x or y))

    worlds = [
        frozenset(c) for r in range(len(people) + 1) for c in itertools.combinations(people, r)
    ]
    fits = [w for w in worlds if all((s in w) == said(st, w) for s, st in m["speeches"])]
    assert len(fits) == 1
    assert {p for p, kind in m["solution"].items() if kind == "knight"} == set(fits[0])


def test_grid_statement_options_share_person_and_attribute() -> None:
    """v2 mixed attributes in one option list, so the odd one out stood out."""
    for row in MC:
        if row["category"] != "logic_grid" or not row["choices"][0].endswith("."):
            continue
        heads = {" ".join(c.split()[:2]) for c in row["choices"]}
        assert len(heads) == 1, row["id"]


def test_no_near_duplicate_prompts() -> None:
    def key(row: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
        text = row["prompt"].split("\n\nA. ")[0] if row["scorer"] == "mc" else row["prompt"]
        return " ".join(re.findall(r"\w+", text.casefold())), tuple(sorted(row.get("choices", [])))

    assert len({key(r) for r in ROWS}) == len(ROWS)


def test_option_length_rules_stay_near_chance() -> None:
    for sign in (1, -1):
        hits = 0.0
        for row in MC:
            lengths = [sign * len(c) for c in row["choices"]]
            best = [i for i, v in enumerate(lengths) if v == max(lengths)]
            hits += sum("ABCD"[i] == row["answer"] for i in best) / len(best)
        assert hits / len(MC) <= 0.35, sign
