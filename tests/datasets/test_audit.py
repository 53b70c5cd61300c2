"""The shortcut audit: every fixed baseline on hand-made rows whose answers are known, leaks,
duplicates, the interval, and the check failing a new dataset that has all three defects. The
learned baseline, scorer strength, mutation and uniqueness audits have their own test files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from statsmodels.stats.proportion import proportion_confint

from stages.cli import main
from stages.datasets.audit import audit_dataset, audit_rows, wilson
from stages.datasets.baselines import panel
from stages.datasets.registry import publish


def mc(row_id: str, question: str, choices: list[str], answer: str, **extra: Any) -> dict[str, Any]:
    listed = "\n".join(f"{chr(65 + i)}. {c}" for i, c in enumerate(choices))
    prompt = f"{question}\n\n{listed}\n\nGive the letter as 'Answer: <letter>'."
    row = {"id": row_id, "category": "c", "difficulty": "easy", "prompt": prompt}
    row.update(choices=choices, answer=answer, scorer="mc", meta={})
    row.update(extra)
    return row


def open_row(
    row_id: str, prompt: str, answer: Any, scorer: str = "exact", **extra: Any
) -> dict[str, Any]:
    row = {"id": row_id, "category": "c", "difficulty": "easy", "prompt": prompt}
    row.update(answer=answer, scorer=scorer, meta={})
    row.update(extra)
    return row


def test_constant_letters_score_their_share_and_open_rows_score_zero() -> None:
    rows = [
        mc("a", "Pick one?", ["x", "y", "z"], "A"),
        mc("b", "Pick two?", ["x", "y", "z", "w"], "A"),
        mc("c", "Pick three?", ["x", "y", "z", "w"], "D"),
        open_row("d", "Name a colour?", "red"),
    ]
    scores = panel(rows)
    assert scores["letter_A"] == [1.0, 1.0, 0.0, 0.0]
    assert scores["letter_D"] == [0.0, 0.0, 1.0, 0.0]  # D does not exist on row a: wrong
    result = audit_rows("eval-x-v1", rows, Path("."), published=False)
    # Each format on its own rows: the mc rows' chance is 1/k, never diluted by the open row.
    mc_format = result.formats["mc"]
    assert mc_format.rows == 3 and mc_format.learned is not None
    assert mc_format.learned.overall.chance == pytest.approx((1 / 3 + 1 / 4 + 1 / 4) / 3)
    assert mc_format.baselines["letter_A"] == pytest.approx(2 / 3)
    assert result.formats["exact"].rows == 1
    assert result.gold_letters == {"A": 2, "D": 1}


def test_longest_shortest_and_ties_split_evenly() -> None:
    rows = [
        mc("a", "Which?", ["a long option", "short", "mid one"], "A"),
        mc("b", "Which?", ["aa", "bb", "c"], "B"),  # longest ties between A and B -> 1/2
    ]
    scores = panel(rows)
    assert scores["longest"] == [1.0, 0.5]
    assert scores["shortest"] == [0.0, 0.0]


def test_overlap_with_other_options_and_with_the_prompt() -> None:
    row = mc(
        "a",
        "The blue car is parked where?",
        ["red car park", "blue car park", "blue bus stop", "green field"],
        "B",
    )
    scores = panel([row])
    # B shares {car, park} with A and {blue} with C: 3, the most.
    assert scores["overlap_options"] == [1.0]
    # B shares {blue, car} with the stem; A only {car}; C only {blue}.
    assert scores["overlap_prompt"] == [1.0]


def test_most_frequent_gold_is_leave_one_out_per_category() -> None:
    rows = [
        open_row("a", "Deploy or wait?", "deploy"),
        open_row("b", "Deploy or wait, again?", "deploy"),
        open_row("c", "Deploy or wait, once more?", "deploy"),
        open_row("d", "Deploy or wait, last?", "wait"),
        open_row("e", "Numbers?", 2.0, scorer="numeric", category="n"),
        open_row("f", "More numbers?", 2, scorer="numeric", category="n"),
        open_row("g", "Alone?", "solo", category="alone"),
    ]
    scores = panel(rows)["most_frequent_gold"]
    # a-c see two other "deploy" rows; d sees three "deploy" and is wrong. The numeric pair
    # agree within tolerance; the single-row category has nothing to learn from.
    assert scores == [1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0]


def test_most_frequent_gold_on_mc_picks_the_option_text_most_often_right() -> None:
    rows = [
        mc("a", "Q1?", ["Postpone", "Deploy the patch"], "B"),
        mc("b", "Q2?", ["Deploy the patch", "Ignore it"], "A"),
        mc("c", "Q3?", ["Ignore it", "Deploy the patch", "Postpone"], "B"),
        mc("d", "Q4?", ["Wait", "Stop"], "A"),  # no option was ever gold elsewhere: 1/2
    ]
    assert panel(rows)["most_frequent_gold"] == [1.0, 1.0, 1.0, 0.5]


def test_verbatim_finds_the_stated_fact_and_the_only_named_option() -> None:
    grid = (
        "Bram, Nico and Yuki each have one pet (cat, dog, parrot) and one drink (tea, milk, cocoa).\n"
        "- Nico drinks milk.\n- The person who drinks tea keeps the dog.\n\nWho drinks milk?"
    )
    stated = mc("a", grid, ["Yuki", "Bram", "Nico"], "C")
    named = mc("b", "Sam said hello to Ana.\nWho did Sam greet?", ["Ana", "Eve", "Kim"], "A")
    unnamed = mc("c", "Who wins?", ["Ana", "Eve", "Kim"], "B")
    open_stated = open_row("d", "Mira finished second.\nWho finished second?", "Mira")
    open_listed = open_row("e", grid, "Nico", category="other")  # only listed: not stated
    scores = panel([stated, named, unnamed, open_stated, open_listed])["verbatim"]
    assert scores == [1.0, 1.0, pytest.approx(1 / 3), 1.0, 1.0]
    result = audit_rows("eval-x-v1", [stated, named, unnamed, open_stated], Path("."), False)
    assert sorted(result.leaks) == ["a", "b", "d"]


def test_a_gold_number_that_the_prompt_happens_to_hold_is_not_a_leak() -> None:
    row = mc("a", "Jo scored 8, Al 2, Cy 10.\nHow many did Jo and Al score?", ["10", "6"], "A")
    assert audit_rows("eval-x-v1", [row], Path("."), False).leaks == {}


def test_code_rows_leak_when_the_example_is_a_hidden_test() -> None:
    tests = "assert f('') == ''\nassert f('xyz') == 'abc'"
    row = open_row("a", "Write f.\n\nFor example, f('xyz') returns 'abc'.", "f", "code_exec")
    row["tests"] = tests
    clean = dict(row, id="b", prompt="Write f.\n\nFor example, f('ab') returns 'de'.")
    result = audit_rows("eval-x-v1", [row, clean], Path("."), False)
    assert result.leaks == {"a": "hidden_test:2"}
    assert result.audited == 0 and result.formats == {}


def test_duplicates_ignore_case_spacing_punctuation_and_option_order() -> None:
    rows = [
        mc("a", "Which is heavier?", ["iron", "wood", "air"], "A"),
        mc("b", "which is   HEAVIER", ["air", "iron", "wood"], "B"),
        mc("c", "Which is heavier?", ["iron", "wood", "stone"], "A"),
        open_row("d", "Spell cat.", "cat"),
        open_row("e", "spell CAT", "cat"),
        open_row("f", "Look at the image. Count.", 1, "numeric", image="images/1.png"),
        open_row("g", "Look at the image. Count.", 2, "numeric", image="images/2.png"),
    ]
    result = audit_rows("eval-x-v1", rows, Path("."), published=False)
    assert result.duplicates == {"b": "a", "e": "d"}


def test_interval_is_the_wilson_interval_of_statsmodels() -> None:
    low, high = wilson(0.3, 40)
    want = proportion_confint(12, 40, alpha=0.05, method="wilson")
    assert (low, high) == pytest.approx(want, abs=1e-9)


def _write(path: Path, rows: list[dict[str, Any]], external: bool = False) -> None:
    path.mkdir(parents=True)
    body = "".join(json.dumps(r) + "\n" for r in rows)
    (path / "rows.jsonl").write_text(body, encoding="utf-8")
    source = {"file": "x.csv", "sha256": "0" * 64, "origin": "t", "revision": "1", "licence": "MIT"}
    card = {
        "id": path.name,
        "kind": "eval",
        "description": "planted defects",
        "licence": "MIT",
        "generator": None if external else {"path": f"_gen/{path.name}.py", "seed": 1},
        "external": external,
        "source": source if external else None,
        "token_heuristic": "ceil(chars/4)",
        "default_scorer": "mc",
        "rows": len(rows),
        "files": {},
        "created": "2026-01-01",
    }
    (path / "dataset.json").write_text(json.dumps(card), encoding="utf-8")


def _planted() -> list[dict[str, Any]]:
    rows = [mc(f"p-{i:02d}", f"Question number {i}?", ["w", "x", "y", "z"], "A") for i in range(20)]
    rows.append(mc("p-20", "Ana waved at Bo.\nWho waved at Bo?", ["Cy", "Ana", "Di"], "B"))
    rows.append(mc("p-21", "question number 3", ["z", "y", "x", "w"], "D"))
    return rows


def test_audit_dataset_reads_a_directory_and_names_every_defect(tmp_path: Path) -> None:
    _write(tmp_path / "eval-planted-v1", _planted())
    result = audit_dataset(tmp_path / "eval-planted-v1")
    assert result.status == "fail" and not result.published
    mc_format = result.formats["mc"]
    # "w" is gold in 21 rows (A in 20, D in the shuffled duplicate): the text beats the letter;
    # on p-20 no option was gold elsewhere, so it guesses (1/3).
    assert mc_format.best == "most_frequent_gold"
    assert mc_format.baselines["most_frequent_gold"] == pytest.approx((21 + 1 / 3) / 22)
    assert mc_format.baselines["letter_A"] == pytest.approx(20 / 22)
    learned = mc_format.learned
    assert learned is not None and learned.fails
    assert learned.overall.chance == pytest.approx((21 / 4 + 1 / 3) / 22)
    assert learned.overall.accuracy == pytest.approx((21 + 1 / 3) / 22)  # the text prior
    assert result.leaks == {"p-20": "gold_option_named:B"}
    assert result.duplicates == {"p-21": "p-03"}
    problems = "\n".join(result.problems())
    assert "mc: learned baseline 0.970 vs chance 0.254 (+71.6 pt, 95 % CI 0.80-1.00" in problems


def test_check_fails_a_new_dataset_with_a_leak_a_duplicate_and_a_letter_skew(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(Path("datasets/eval-planted-v1"), _planted())
    assert main(["check", "--no-regen"]) == 2
    captured = capsys.readouterr()
    assert "audit: eval-planted-v1: mc: learned baseline 0.970 vs chance 0.254" in captured.err
    assert (
        "audit: eval-planted-v1: p-20: leak: the prompt states or alone names the gold option B"
        in captured.err
    )
    assert "audit: eval-planted-v1: p-21: duplicate of p-03" in captured.err
    assert "eval-planted-v1" in captured.out and "fail" in captured.out  # the printed table
    audit = json.loads(Path("metrics/audit.json").read_text())
    assert audit["failed"] == ["eval-planted-v1"]
    # published (as in the real corpus); its echoes of math-0006, -0012 and -0066 scored under
    # the flexible reading's old last-number rule, and no longer do (issue 30): reported clean
    assert audit["datasets"]["eval-math-v1"]["status"] == "reported"
    assert audit["flawed"] == []
    block = audit["datasets"]["eval-planted-v1"]
    assert block["leaks"] == {"p-20": "gold_option_named:B"}
    assert block["gold_letters"] == {"A": 20, "B": 1, "D": 1}
    assert block["formats"]["mc"]["learned"]["margin"] == 0.7159


def test_an_imported_dataset_is_reported_never_failed(tmp_path: Path) -> None:
    _write(tmp_path / "eval-planted-v1", _planted(), external=True)
    result = audit_dataset(tmp_path / "eval-planted-v1")
    assert result.status == "flawed" and result.problems() != []


def test_a_published_dataset_is_reported_never_failed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(Path("datasets/eval-planted-v1"), _planted())
    publish("eval-planted-v1")
    assert audit_dataset(Path("datasets/eval-planted-v1")).status == "flawed"


def test_dataset_audit_command_on_a_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path / "eval-planted-v1", _planted())
    assert main(["dataset", "audit", str(tmp_path / "eval-planted-v1")]) == 2
    out = capsys.readouterr().out
    assert "panel best most_frequent_gold 0.970 (letter_A 0.909," in out
    assert "duplicate p-21 of p-03" in out


def test_a_minus_sign_or_an_operator_makes_another_item() -> None:
    # A fresh instance of eval-knowledge-v2 asked for the prefixes of 10^18 and of 10^-18: two
    # items, which the key once collided by dropping every symbol.
    rows = [
        open_row("a", "Which SI prefix stands for a factor of 10^18? Give the prefix name.", "exa"),
        open_row("b", "Which SI prefix stands for a factor of 10^-18? Give the prefix name.", "atto"),
        open_row("c", "Compute 2 + 3.", 5, "numeric"),
        open_row("d", "Compute 2 - 3.", -1, "numeric"),
        open_row("e", "Compute 2 * 3.", 6, "numeric"),
        open_row("f", "Is 5 > 3?", "yes"),
        open_row("g", "Is 5 < 3?", "no"),
        open_row("h", "Compute −5 + 1.", -4, "numeric"),
        open_row("i", "Compute 5 + 1.", 6, "numeric"),
        open_row("j", "compute   2 + 3", 5, "numeric"),  # case, spacing, '.': the same item as c
    ]
    assert audit_rows("eval-x-v1", rows, Path("."), published=False).duplicates == {"j": "c"}
