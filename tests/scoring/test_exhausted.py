""" "Exhausted while thinking" (issue 33, :mod:`stages.scoring.exhausted`): the rule on answer
shapes built by hypothesis, each with the outcome its construction implies, and the named cases
of the issue."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stages.scoring.exhausted import (
    BOTH,
    LENGTH,
    OPEN_THINK,
    exhaustion,
    record_exhaustion,
)

SPACE = st.text(alphabet=" \t\n\r\u00a0\u2003", max_size=4)
#: Reasoning and answers never hold "<": no tag can appear that the shape did not put there.
THOUGHT = st.text(alphabet=st.characters(blacklist_characters="<", codec="utf-8"), max_size=20)
WORDS = THOUGHT.filter(lambda t: t.strip() != "")
FINISH = st.sampled_from(["stop", "length", None, "tool_calls", "content_filter"])


@dataclass(frozen=True)
class Shape:
    """One answer built from parts, with what each part implies."""

    output: str
    answered: bool
    """Some answer text is left once the thinking is removed."""
    left_open: bool
    """The leading think block was never closed."""


@st.composite
def shapes(draw: st.DrawFn) -> Shape:
    text = draw(SPACE)
    for _ in range(draw(st.integers(0, 2))):  # closed blocks, each followed by whitespace
        text += f"<think>{draw(THOUGHT)}</think>{draw(SPACE)}"
    ending = draw(st.sampled_from(["open", "nothing", "answer", "answer_then_stray_tag"]))
    if ending == "open":  # the budget ran out inside the thinking: nothing after it counts
        return Shape(text + "<think>" + draw(THOUGHT), answered=False, left_open=True)
    if ending == "nothing":
        return Shape(text + draw(SPACE), answered=False, left_open=False)
    answer = draw(WORDS) + draw(SPACE)
    if ending == "answer_then_stray_tag":  # a later <think> is text, the answer came first
        answer += "<think>" + draw(THOUGHT)
    return Shape(text + answer, answered=True, left_open=False)


@settings(max_examples=400, deadline=None)
@given(shape=shapes(), finish=FINISH, tool_calls=st.booleans())
def test_exhausted_exactly_when_no_answer_and_length_or_open_block(
    shape: Shape, finish: str | None, tool_calls: bool
) -> None:
    expected = None
    if not tool_calls and not shape.answered:
        by_length = finish == "length"
        expected = (
            BOTH
            if by_length and shape.left_open
            else LENGTH
            if by_length
            else OPEN_THINK
            if shape.left_open
            else None
        )
    assert exhaustion(shape.output, finish, tool_calls) == expected


@settings(max_examples=200, deadline=None)
@given(shape=shapes(), finish=FINISH)
def test_a_failed_request_is_never_exhausted(shape: Shape, finish: str | None) -> None:
    record = {"output": shape.output, "finish_reason": finish, "tool_calls": None}
    assert record_exhaustion({**record, "error": {"kind": "timeout", "message": "x"}}) is None
    assert record_exhaustion({**record, "error": None}) == exhaustion(shape.output, finish)


@pytest.mark.parametrize(
    ("output", "finish", "expected"),
    [
        ("<think>Let me count the apples: 3 + 4", "length", BOTH),  # cut inside the thinking
        ("<think>Let me count the apples: 3 + 4", "stop", OPEN_THINK),  # relabelled stop
        ("<think>3 + 4 = 7</think>", "length", LENGTH),  # closed, then the budget ended
        ("<think>3 + 4 = 7</think>\n\n", "stop", None),  # closed, then it chose to stop: wrong
        ("", "length", LENGTH),  # reasoning sent in its own channel, no content at all
        (" \n\t", "length", LENGTH),
        ("", "stop", None),  # an empty answer that stopped is a wrong answer
        ("<think>3 + 4</think>The answer is", "length", None),  # truncated, but it said text
        ("The answer is 7 <think>unclosed", "stop", None),  # a later tag is ordinary text
        ("Answer: 7", "length", None),  # SmolLM2's runs: cut off after giving text
        ("<THINK>upper case is not a tag", "length", None),
    ],
)
def test_named_shapes(output: str, finish: str, expected: str | None) -> None:
    assert exhaustion(output, finish) == expected


def test_a_tool_call_is_an_answer() -> None:
    record = {"output": "", "finish_reason": "length", "error": None}
    assert record_exhaustion({**record, "tool_calls": [{"type": "function"}]}) is None
    assert record_exhaustion({**record, "tool_calls": []}) == LENGTH
    assert record_exhaustion(None) is None
