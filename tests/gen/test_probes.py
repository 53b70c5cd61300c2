"""The probes of the issue-19 datasets, proved against the rows' own scorers here as the audit
does in ``atlas check``: every near miss scores wrong (strict and flexible), every alternative
scores right, every mc row judges each of its options, and no prompt scores when sent back
(once, twice, or with its answer line filled by a number it states). Also the helpers of
``_gen/common/probes.py`` on hand-made rows."""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from typing import Any

import pytest

from stages.scoring.registry import score_row
from tests.gen._checks import REPO, committed_rows

sys.path.insert(0, str(REPO / "_gen"))
from common import probes  # noqa: E402

DATASETS = ["eval-math-v3", "eval-vision-v2", "eval-multilingual-v3", "eval-knowledge-v3"]
DATASETS += ["eval-science-v4", "eval-math-v5"]
ROWS = [(d, r) for d in DATASETS for r in committed_rows(d)]


def _verdict(dataset: str, row: dict[str, Any], output: str) -> tuple[bool, bool]:
    v = score_row(row, {"output": output, "error": None}, REPO / "datasets" / dataset)
    flexible = v.flexible.correct if v.flexible is not None else v.correct
    return bool(v.correct), bool(flexible)


@pytest.mark.parametrize(("dataset", "row"), ROWS, ids=[r["id"] for _, r in ROWS])
def test_near_misses_fail_and_alternatives_pass(dataset: str, row: dict[str, Any]) -> None:
    found = row["probes"]
    assert found["near_misses"], row["id"]
    for reply in found["near_misses"]:
        assert _verdict(dataset, row, reply) == (False, False), reply
    for reply in found.get("alternatives", []):
        assert _verdict(dataset, row, reply) == (True, True), reply
    if row["scorer"] == "mc":
        assert len(found["option_ok"]) == len(row["choices"])
        assert row["answer"] in found["alternatives"]  # the bare letter


@pytest.mark.parametrize(("dataset", "row"), ROWS, ids=[r["id"] for _, r in ROWS])
def test_the_prompt_sent_back_scores_wrong(dataset: str, row: dict[str, Any]) -> None:
    prompt = row["prompt"]
    echoes = [prompt, f"{prompt}\n\n{prompt}"]
    if row["scorer"] != "mc":
        stated = set(re.findall(r"-?\d+(?:[.,/]\d+)?", prompt))
        echoes += [f"{prompt}\nAnswer: {n}" for n in sorted(stated)]
    for echo in echoes:
        assert _verdict(dataset, row, echo) == (False, False), echo[-80:]


def _row(**fields: Any) -> dict[str, Any]:
    return {"id": "t-1", "scorer": "numeric", "meta": {}, **fields}


def test_number_text_writes_what_the_strict_grammar_reads() -> None:
    assert [probes.number_text(v) for v in (Fraction(7), Fraction(-5, 2), Fraction(7, 36))] == [
        "7",
        "-2.5",
        "7/36",
    ]
    assert probes.number_text(Fraction(1, 8)) == "0.125"


def _slips(wrong: list[Any], spellings: list[str] | None = None) -> probes.Slips:
    return lambda row: (wrong, spellings or [])


def _no_proof(row: dict[str, Any]) -> None:
    raise AssertionError("open rows are never proved option by option")


def test_numeric_near_misses_outside_the_tolerance_only() -> None:
    row = probes.with_probes(
        _row(answer="240.0", meta={"tolerance": 2.4}),
        _no_proof,
        _slips([241, 243, Fraction(781, 2), "390.0"], ["240 K"]),
    )
    assert row["probes"] == {
        "near_misses": ["Answer: 243", "Answer: 390.5", "Answer: 390.0"],
        "alternatives": ["240.0", "Answer: 240 K"],
    }
    exact = probes.with_probes(
        _row(answer="1296400", meta={"tolerance": 0}), _no_proof, _slips([1296401])
    )
    assert exact["probes"]["near_misses"] == ["Answer: 1296401"]
    with pytest.raises(AssertionError, match="at least one near miss"):  # 1e-6 relative accepts it
        probes.with_probes(_row(answer="1296400"), _no_proof, _slips([1296401]))


def test_off_by_one_keeps_counts_non_negative_unless_told() -> None:
    assert probes.off_by_one(0) == [1]
    assert probes.off_by_one("3") == [2, 4]
    assert probes.off_by_one(0, low=None) == [-1, 1]


def test_echo_safe_reads_the_last_number_as_stated() -> None:
    row = _row(prompt="A crate holds 1,250 kg.", answer="1250")
    assert not probes.echo_safe(row)  # the comma group is one number, 1250
    assert probes.echo_safe({**row, "prompt": "1,250 kg is 1.25 t."})
    assert probes.echo_safe({**row, "scorer": "exact"})


def test_exact_integer_sets_a_zero_tolerance_unless_one_is_stated() -> None:
    assert probes.exact_integer(_row(answer="42"))["meta"] == {"tolerance": 0}
    assert probes.exact_integer(_row(answer="7/36"))["meta"] == {}
    assert probes.exact_integer(_row(answer="42", meta={"tolerance": 2}))["meta"] == {
        "tolerance": 2
    }


def test_states_gold_reads_the_numbers_a_prompt_states() -> None:
    assert probes.stated_numbers("3 bars, 1,250 m and -2.5 or 7/36") == [
        3,
        1250,
        Fraction(-5, 2),
        Fraction(7, 36),
    ]
    assert probes.states_gold("The bars are numbered 1 to 5.", 5, {"tolerance": 2})
    assert probes.states_gold("The bars are numbered 1 to 4.", 5, {"tolerance": 2})
    assert not probes.states_gold("The bars are numbered 1 to 4.", 10, {"tolerance": 2})


def test_a_reply_cannot_be_both_wrong_and_right() -> None:
    with pytest.raises(AssertionError, match="both wrong and right"):
        probes.attach(
            _row(answer="3"), {"near_misses": ["Answer: 3"], "alternatives": ["Answer: 3"]}
        )
    row = probes.with_probes(
        _row(scorer="exact", answer=["dix", "10"]), _no_proof, _slips(["Dix ", "onze", "onze"])
    )
    assert row["probes"] == {
        "near_misses": ["Answer: onze"],
        "alternatives": ["dix", "Answer: 10"],
    }


def test_option_verdicts_come_from_the_proof_with_each_letter_put_in() -> None:
    row = _row(scorer="mc", answer="B", choices=["3", "4", "5"])

    def prove(r: dict[str, Any]) -> None:
        assert r["choices"]["ABC".index(r["answer"])] == "4"

    assert probes.verdicts({**row, "answer": "A"}, prove) == [False, True, False]
    assert probes.mc(row, prove) == {
        "near_misses": ["Answer: A", "Answer: C", "Answer: 3", "Answer: 5"],
        "alternatives": ["Answer: (B)", "Answer: 4", "B"],
        "option_ok": [False, True, False],
    }
    with pytest.raises(AssertionError, match="the rule accepts"):
        probes.mc({**row, "answer": "A"}, prove)
