"""mc scorer: the accepted label forms, choice text, and what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from stages.errors import AtlasError
from stages.scoring import mc

CHOICES = ["Paris", "Lyon", "Marseille", "Nice"]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("B", "B"),
        ("(B)", "B"),
        ("[B]", "B"),
        ("B.", "B"),
        ("B)", "B"),
        ("B) Lyon", "B"),
        ("B. Lyon", "B"),
        ("B: Lyon", "B"),
        ("(B) Lyon", "B"),
        ("**B**", "B"),
        ("Option B", "B"),
        ("b", "B"),
        ("(c)", "C"),
        ("Lyon", "B"),  # the choice text alone
        ("marseille", "C"),
        ("A) Lyon", None),  # the label names A, its text names B: two answers (issue 30)
        ("B) Lyon", "B"),
        ("A cat", None),  # capital + plain space is prose
        ("The answer is B", "B"),  # one committed label in prose (issue 30)
        ("B or C", None),
        ("", None),
    ],
)
def test_read_label(text: str, label: str | None) -> None:
    assert mc.read(text, CHOICES, None, fold=False)[0] == label


def _score(output: str, answer: str = "B") -> mc.Verdict:
    row = {"id": "q1", "answer": answer, "choices": CHOICES}
    return mc.score(row, {"output": output, "error": None}, Path("."))


def test_answer_line_then_label() -> None:
    verdict = _score("Lyon is on the Rhône.\nAnswer: (B) Lyon")
    assert (verdict.correct, verdict.extracted) == (True, "(B) Lyon")


def test_wrong_and_out_of_range_labels() -> None:
    assert _score("Answer: C").correct is False
    verdict = _score("Answer: F")
    assert verdict.correct is False
    assert verdict.why == "'F' names label F, not among 4 choices"


def test_a_sentence_choice_is_matched_by_its_own_text() -> None:
    """Extraction drops the reply's final period; the choice's is dropped too (issue 19)."""
    row = {
        "id": "q2",
        "answer": "C",
        "choices": [
            "All wugs are feps.",
            "No wugs are feps.",
            "Some wugs are feps.",
            "Some feps are wugs.",
        ],
    }
    got = [
        mc.score(row, {"output": text, "error": None}, Path(".")).correct
        for text in (
            "Answer: Some wugs are feps.",
            "Answer: Some wugs are feps",
            'Answer: "Some wugs are feps."',
            "Answer: Some feps are wugs.",
        )
    ]
    assert got == [True, True, True, False]


def test_gold_must_be_a_label_of_the_choices() -> None:
    with pytest.raises(AtlasError, match="q1"):
        _score("Answer: A", answer="E")
