"""eval-multilingual-v2: rows regenerate byte for byte, every proof passes on the committed rows,
every item is re-solved with the parsers and lexicons typed in the v1 test module (independent of
the generator), and the v1 shortcuts are gone: number-recognition options form a 2 x 2 grid in
which the option sharing most words with the others is right no more often than a guess, no
vocabulary prompt names its gold, letters are balanced."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

import tests.gen.test_eval_multilingual_v1 as v1_checks
from tests.gen._checks import assert_regenerates_in_process, committed_rows, load_generator

ROWS = committed_rows("eval-multilingual-v2")
#: the v1 module's independent checks, each a function of one row
CHECKS = {
    "number_words": v1_checks.test_number_words_parse_back,
    "weekdays": v1_checks.test_weekday_and_month_shifts,
    "months": v1_checks.test_weekday_and_month_shifts,
    "number_recognition": v1_checks.test_number_recognition_options,
    "vocabulary": v1_checks.test_vocabulary,
    "word_problems": v1_checks.test_word_problems,
    "word_arithmetic": v1_checks.test_word_arithmetic,
}


GEN = load_generator("eval-multilingual-v2")


def _rows(category: str) -> list[dict[str, Any]]:
    return [r for r in ROWS if r["category"] == category]


def test_regenerates_byte_identically_in_process() -> None:
    assert_regenerates_in_process(GEN, "eval-multilingual-v2")


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_proof_passes(row: dict[str, Any]) -> None:
    GEN.prove(row)


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_resolved_with_the_v1_parsers(row: dict[str, Any]) -> None:
    CHECKS[row["category"]](row)


@pytest.mark.parametrize("row", _rows("number_recognition"), ids=lambda r: r["id"])
def test_recognition_options_are_a_grid_around_no_one(row: dict[str, Any]) -> None:
    values = [v1_checks.PARSERS[row["meta"]["lang"]](c) for c in row["choices"]]
    assert values == sorted(values)
    digits = [f"{v:03d}" for v in values]
    varying = [p for p in range(3) if len({d[p] for d in digits}) > 1]
    assert len(varying) == 2
    assert len({(d[varying[0]], d[varying[1]]) for d in digits}) == 4


def _overlap_pick(row: dict[str, Any]) -> float:
    """Expected correctness of picking the option sharing most words with the other options."""
    bags = [set(re.findall(r"\w+", c.casefold())) for c in row["choices"]]
    scores = [sum(len(b & o) for j, o in enumerate(bags) if j != i) for i, b in enumerate(bags)]
    best = [i for i, s in enumerate(scores) if s == max(scores)]
    return sum("ABCD"[i] == row["answer"] for i in best) / len(best)


def test_most_shared_words_is_no_better_than_a_guess() -> None:
    rows = _rows("number_recognition")
    assert sum(_overlap_pick(r) for r in rows) / len(rows) <= 0.25 + 0.10  # v1: 12 of 20


def test_vocabulary_prompts_never_name_the_gold() -> None:
    for row in _rows("vocabulary"):
        gold = row["choices"]["ABCD".index(row["answer"])]
        stem = row["prompt"].split("\n\n")[0]
        assert not re.search(rf"(?<!\w){re.escape(gold)}(?!\w)", stem, re.IGNORECASE)


def test_month_windows_put_the_target_anywhere() -> None:
    """Hard rows offer four consecutive months; v1 always had the target inside the run."""
    positions: list[int] = []
    for row in _rows("vocabulary"):
        if row["difficulty"] != "hard":
            continue
        months = v1_checks.MONTHS[row["meta"]["lang"]].split()
        taken = {months.index(c) for c in row["choices"]}
        (first,) = [s for s in range(12) if {(s + d) % 12 for d in range(4)} == taken]
        gold = months.index(row["choices"]["ABCD".index(row["answer"])])
        positions.append((gold - first) % 12)
    assert len(positions) == 6 and {0, 3} & set(positions)


def test_letters_balanced_and_no_duplicates() -> None:
    assert Counter(r["answer"] for r in ROWS if r["scorer"] == "mc") == dict.fromkeys("ABCD", 9)
    assert max(Counter(GEN.plan.item_key(r) for r in ROWS).values()) == 1


def test_every_category_language_and_level_once() -> None:
    """126 rows: each (category, language, level) exactly once, so no two rows can repeat."""
    assert Counter(r["scorer"] for r in ROWS) == {"contains": 54, "mc": 36, "numeric": 36}
    cells = Counter((r["category"], r["meta"]["lang"], r["difficulty"]) for r in ROWS)
    assert len(cells) == 126 and set(cells.values()) == {1}
