"""chrf scorer: values equal sacrebleu's CHRF(word_order=2) computed directly on the raw strings,
with and without final punctuation (issue 12: extraction steps 1–3 only, references untouched)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sacrebleu.metrics import CHRF

from stages.scoring import chrf
from stages.scoring.metrics import ScoredRecord, chrf_block


def _direct(hypothesis: str, refs: list[str]) -> float:
    return float(CHRF(word_order=2).sentence_score(hypothesis, refs).score)


def _score(output: str, answer: object) -> float:
    return chrf.score({"answer": answer}, {"output": output, "error": None}, Path()).score


def test_issue_example_matches_sacrebleu_exactly() -> None:
    value = _score("The cat is on the mat.", "The cat sat on the mat.")
    assert round(value, 2) == 67.49  # sacrebleu 2.x; stripping both periods gave 64.37
    assert value == _direct("The cat is on the mat.", ["The cat sat on the mat."])
    assert round(_direct("The cat is on the mat", ["The cat sat on the mat"]), 2) == 64.37


@pytest.mark.parametrize(
    ("output", "hypothesis", "refs"),
    [
        ("Answer: The cat sat on the mat.", "The cat sat on the mat.", ["The cat is on the mat."]),
        ("The cat sat on the mat", "The cat sat on the mat", ["The cat is on the mat."]),
        ("The cat sat on the mat.", "The cat sat on the mat.", ["The cat is on the mat"]),
        ('Answer: "Il pleut !"', '"Il pleut !"', ["Il pleut !", "Il tombe de la pluie."]),
        ("<think>x</think>\n```\nLe chat dort.\n```", "Le chat dort.", ["Le chat dort."]),
    ],
)
def test_sentence_score_equals_sacrebleu(output: str, hypothesis: str, refs: list[str]) -> None:
    verdict = chrf.score({"answer": refs}, {"output": output, "error": None}, Path())
    assert verdict.extracted == hypothesis
    assert verdict.score == verdict.extras["chrf"] == _direct(hypothesis, refs)
    assert verdict.correct is None


def test_identical_translation_scores_100_with_or_without_period() -> None:
    assert _score("Il pleut.", "Il pleut.") == 100.0
    assert _score("Il pleut", "Il pleut") == 100.0
    assert _score("Il pleut", "Il pleut.") < 100.0  # the missing period is a real difference


def test_signature_names_chrf_plus_plus() -> None:
    verdict = chrf.score({"answer": "Oui."}, {"output": "Non", "error": None}, Path())
    signature = verdict.extras["signature"]
    assert "nc:6" in signature and "nw:2" in signature


def test_corpus_score_equals_sacrebleu_with_variable_references() -> None:
    items = [
        ("Il pleut.", ["Il pleut.", "Il tombe de la pluie."]),
        ("Le chat dort", ["Le chat dort."]),
    ]
    value, signature = chrf.corpus_chrf(items)
    metric = CHRF(word_order=2)
    expected = metric.corpus_score(
        ["Il pleut.", "Le chat dort"],
        [["Il pleut.", "Le chat dort."], ["Il tombe de la pluie.", None]],  # type: ignore[list-item]
    )
    assert value == float(expected.score)
    assert signature == str(metric.get_signature())
    assert "nrefs:var" in signature


def test_metrics_corpus_block_uses_untouched_references() -> None:
    outputs = ["Answer: The cat sat on the mat.", "It is raining"]
    golds = ["The cat is on the mat.", "It is raining."]
    records = [
        ScoredRecord(
            id=f"t{i}",
            repeat=0,
            scorer="chrf",
            correct=None,
            score=_score(out, gold),
            extracted=chrf.hypothesis(out),
            why="",
            extras={},
            failed=None,
            gold=gold,
        )  # fmt: skip
        for i, (out, gold) in enumerate(zip(outputs, golds, strict=True))
    ]
    block = chrf_block(records)
    assert block is not None
    expected = CHRF(word_order=2).corpus_score(
        ["The cat sat on the mat.", "It is raining"], [golds]
    )
    assert block["chrf_corpus"] == round(float(expected.score), 6)
