"""Answer extraction: each of the four spec-001 steps, and their order."""

from __future__ import annotations

import pytest

from stages.scoring.extract import (
    answer_line,
    code_view,
    extract_answer,
    strip_fences,
    strip_reasoning,
    tidy,
)


def test_think_block_dropped_with_tags() -> None:
    assert strip_reasoning("<think>it is 41</think>42") == "42"


def test_every_think_block_dropped() -> None:
    assert strip_reasoning("<think>a</think>x <think>b</think>y") == "x y"


def test_unterminated_leading_think_drops_everything() -> None:
    assert strip_reasoning("  \n<think>still thinking... Answer: 3") == ""


def test_unterminated_think_after_text_is_kept() -> None:
    assert strip_reasoning("Answer: 3 <think>oops") == "Answer: 3 <think>oops"


def test_unterminated_block_left_after_a_closed_one_is_leading() -> None:
    assert strip_reasoning("<think>a</think>\n<think>b") == ""


def test_fence_markers_dropped_content_kept() -> None:
    assert strip_fences("Here:\n```python\nx = 1\n```\nDone") == "Here:\nx = 1\nDone"


def test_tilde_fence_and_inline_fence() -> None:
    assert strip_fences("~~~\n7\n~~~") == "7\n"
    assert strip_fences("```42```") == "42"


def test_answer_line_takes_last_match() -> None:
    text = "Answer: 1\nthinking again\nFinal Answer - 2\nanswer:3"
    assert answer_line(text) == "3"


def test_answer_line_case_and_separators() -> None:
    assert answer_line("  FINAL ANSWER : Paris") == "Paris"
    assert answer_line("answer-7") == "7"


def test_answer_line_does_not_cross_lines() -> None:
    assert answer_line("Answer:\n42") is None
    assert answer_line("The answer: 5") is None  # the line must start with the keyword


def test_answer_line_must_have_content() -> None:
    assert answer_line("Answer:") is None


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('  "Paris"  ', "Paris"),
        ("“Paris”", "Paris"),
        ("'Paris.'", "Paris"),
        ("Paris!", "Paris"),
        ("Paris..", "Paris."),
        ('"Paris".', '"Paris"'),  # the period is not a quote: quotes first, then one period
        ("'Paris\"", "'Paris\""),  # quotes that do not match stay
        ("3.", "3"),
        ("", ""),
    ],
)
def test_tidy(raw: str, expected: str) -> None:
    assert tidy(raw) == expected


def test_order_think_before_answer_line() -> None:
    assert extract_answer("<think>Answer: 1</think>Answer: 2") == "2"


def test_order_fences_before_answer_line() -> None:
    assert extract_answer("```\nAnswer: 9\n```") == "9"


def test_order_answer_line_before_tidy() -> None:
    assert extract_answer('Let me see.\nAnswer: "B".\n') == '"B"'
    assert extract_answer("Let me see.\nAnswer: 'B'") == "B"


def test_without_answer_line_whole_text_is_tidied() -> None:
    assert extract_answer("  Tokyo.\n") == "Tokyo"


def test_empty_and_only_reasoning() -> None:
    assert extract_answer("") == ""
    assert extract_answer("<think>no end") == ""


def test_code_view_keeps_answer_lines() -> None:
    text = "<think>x</think>```js\nanswer: 1,\n```"
    assert code_view(text) == "answer: 1,\n"
