"""chrf scorer: values equal sacrebleu's CHRF(word_order=2) computed directly."""

from __future__ import annotations

from pathlib import Path

from sacrebleu.metrics import CHRF

from stages.scoring import chrf


def _direct(hypothesis: str, refs: list[str]) -> float:
    return float(CHRF(word_order=2).sentence_score(hypothesis, refs).score)


def test_sentence_score_equals_sacrebleu() -> None:
    row = {"answer": ["The cat is on the mat.", "There is a cat on the mat."]}
    verdict = chrf.score(row, {"output": "Answer: The cat sat on the mat.", "error": None}, Path())
    expected = _direct(
        "The cat sat on the mat", ["The cat is on the mat", "There is a cat on the mat"]
    )
    assert verdict.score == expected
    assert verdict.extras["chrf"] == expected
    assert 0.0 < expected < 100.0
    assert verdict.correct is None


def test_identical_translation_scores_100_despite_final_period() -> None:
    verdict = chrf.score({"answer": "Il pleut."}, {"output": "Il pleut.", "error": None}, Path())
    assert verdict.score == 100.0


def test_signature_names_chrf_plus_plus() -> None:
    verdict = chrf.score({"answer": "Oui."}, {"output": "Non", "error": None}, Path())
    signature = verdict.extras["signature"]
    assert "nc:6" in signature and "nw:2" in signature


def test_corpus_score_equals_sacrebleu_with_variable_references() -> None:
    items = [("Il pleut", ["Il pleut", "Il tombe de la pluie"]), ("Le chat dort", ["Le chat dort"])]
    value, signature = chrf.corpus_chrf(items)
    metric = CHRF(word_order=2)
    expected = metric.corpus_score(
        ["Il pleut", "Le chat dort"], [["Il pleut", "Le chat dort"], ["Il tombe de la pluie", None]]
    )
    assert value == float(expected.score)
    assert signature == str(metric.get_signature())
    assert "nrefs:var" in signature
