"""Scorer strength per row (issue 19): probes and derived near misses, alternatives, echoes and
flexible against strict, each on hand-made rows with a planted defect and on clean ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stages.datasets.near_misses import derived, echoes
from stages.datasets.strength import strength
from stages.scoring import registry
from stages.scoring.verdict import FlexibleVerdict, Verdict, binary
from tests.datasets import planted

HERE = Path(".")


def _substring(row: dict[str, Any], response: dict[str, Any], path: Path) -> Verdict:
    """A lenient contains (the multi2-0001 defect): right when an accepted answer occurs in the
    reply anywhere, even inside a longer answer."""
    text = (response.get("output") or "").casefold()
    ok = any(str(g).casefold() in text for g in row["answer"])
    return binary("contains", ok, None, "substring", FlexibleVerdict(ok, None))


def test_a_lenient_contains_is_caught_by_the_family_answers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The real contains reads "trente et un" as another row's answer of the category, from the
    # dataset's own rows (issue 30) ...
    rows = planted.number_words("contains")
    assert strength(rows, planted.write(tmp_path / "eval-words-v1", rows)).problems() == []
    # ... a substring scorer takes it for "trente", and the family answers catch that.
    monkeypatch.setitem(registry.SCORERS, "contains", _substring)
    found = strength(planted.number_words("contains"), HERE)
    assert found.derived.failures[0] == (
        "words-000: derived near miss 'Answer: trente et un': strict True, flexible True"
    )
    assert (found.derived.tried - found.derived.held, found.derived.tried) == (4, 24)
    exact = planted.number_words("exact")
    clean = strength(exact, planted.write(tmp_path / "eval-exact-v1", exact))
    assert clean.problems() == [] and clean.derived.held == clean.derived.tried == 24


def test_probes_near_misses_and_alternatives_are_proved() -> None:
    row = planted.open_row("syl-1", "syllogism", "Which statements hold?", ["1, 2, 5"], "exact")
    row["probes"] = {
        "near_misses": ["Answer: 1, 2", "Answer: 1, 2, 5, 6"],
        "alternatives": ["Answer: (1), (2), (5)", "Answer: 1,2,5"],
    }
    found = strength([row], HERE)
    assert (found.near_misses.tried, found.near_misses.held) == (2, 2)
    # exact's list reading (issue 30) accepts the labelled and the unspaced spellings
    assert found.alternatives.failures == [] and found.alternatives.held == 2
    row["probes"]["alternatives"].append("Answer: 1 | 2 | 5")  # no list separator it knows
    assert strength([row], HERE).alternatives.failures == [
        "syl-1: alternative 'Answer: 1 | 2 | 5': strict False, flexible False"
    ]


def test_derived_replies_per_scorer() -> None:
    mc = planted.mc("m-1", "f", "Which?", ["red", "blue", "green"], 1)
    assert derived(mc, []) == (
        ["Answer: A", "Answer: C", "Answer: red", "Answer: green"],
        ["Answer: B", "Answer: blue"],
    )
    numeric = planted.open_row("n-1", "f", "How many?", "5/2", "numeric")
    assert derived(numeric, []) == (
        ["Answer: 3.5", "Answer: 1.5", "Answer: 25", "Answer: 0.25", "Answer: -2.5"],
        ["Answer: 2.5", "Answer: 5/2"],
    )
    numeric["meta"] = {"tolerance": 1.5}  # gold +-1 is inside the tolerance: left out
    assert derived(numeric, [])[0] == [
        "Answer: 25", "Answer: 0.25", "Answer: -2.5", "Answer: 5.5", "Answer: -0.5",
    ]  # fmt: skip
    exact = planted.open_row("e-1", "f", "Which year?", "1999", "exact")
    assert derived(exact, ["1998", "2005", "1999", "1899"]) == (
        ["Answer: 1998", "Answer: 1899", "Answer: 2005", "Answer: 2000"],
        ["Answer: 1999"],
    )


def test_echoes_once_twice_and_filled() -> None:
    row = planted.clean_numeric(1, seed=2)[0]
    kinds = [kind for kind, _ in echoes(row)]
    assert row["prompt"].startswith("Add 27 and 31, then multiply the sum by 3.")
    assert kinds == ["echo", "echo twice", "echo filled: 27", "echo filled: 31",
                     "echo filled: 3"]  # fmt: skip
    filled = dict(echoes(row))["echo filled: 31"]
    assert filled == row["prompt"].replace("<number>", "31")


def test_an_echo_that_scores_is_caught() -> None:
    found = strength(planted.echoing_rows(), HERE)
    assert found.echoes.failures == [
        "echo-001: echo 'Hoje é quinta-feira. Que dia da semana será daqui a 42 dias…': "
        "strict True, flexible True",
        "echo-001: echo twice 'Hoje é quinta-feira. Que dia da semana será daqui a 42 dias…': "
        "strict True, flexible True",
        "echo-001: echo filled: 42 'Hoje é quinta-feira. Que dia da semana será daqui a 42 "
        "dias…': strict True, flexible True",
    ]  # echo-002's sentence holds four numbers: the flexible reading commits to none (issue 30)
    # a filled echo the flexible reading takes is counted, not failed: 1/8 is stated
    assert found.copies == ["echo-002: echo filled: 1/8"]
    clean = strength(planted.clean_numeric(24, seed=2), HERE)
    assert clean.problems() == [] and clean.echoes.tried == clean.echoes.held == 119


def _lenient(row: dict[str, Any], response: dict[str, Any], path: Path) -> Verdict:
    """A broken scorer: right whenever the reply mentions the gold letter anywhere; its
    flexible reading is stricter than its strict one."""
    ok = row["answer"] in (response.get("output") or "")
    return binary("mc", ok, None, "lenient", FlexibleVerdict(False, None))


def test_a_scorer_that_accepts_wrong_replies_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.SCORERS, "mc", _lenient)
    row = planted.mc("m-1", "f", "Which colour is the sky?", ["Red", "Blue", "Grey"], 1)
    found = strength([row], HERE)
    # "Answer: Blue" holds B; so does every echo, whose option list reads "B. Blue"
    assert "m-1: derived near miss 'Answer: Blue': strict True, flexible False" not in (
        found.derived.failures
    )
    assert found.echoes.held == 0 and found.echoes.tried == 8
    assert found.flexible.failures[0] == "m-1: gold 'Answer: B': strict True, flexible False"
    assert (found.gold.tried, found.gold.held) == (2, 2)


def test_an_accepted_answer_no_reply_can_reach_is_caught() -> None:
    # Extraction strips one trailing period from the reply, so "Answer: All wugs are feps."
    # reads "All wugs are feps", which equals no accepted answer of this exact row.
    row = planted.open_row("w-1", "syllogism", "What follows?", ["All wugs are feps."], "exact")
    found = strength([row], HERE)
    assert found.gold.failures == [
        "w-1: gold 'Answer: All wugs are feps.': strict False, flexible False"
    ]
    row["answer"] = ["All wugs are feps", "All wugs are feps."]
    assert strength([row], HERE).gold.failures == []
