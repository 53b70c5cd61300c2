"""The two shapes of :mod:`stages.markdown_text` on hostile text (issue 31): one inline line
(``inline``, ``code_span``) and a fenced block (``fenced``, the review sheets' shape), rendered
with markdown-it-py: nothing live, one paragraph or one code block, and the text itself shown."""

from __future__ import annotations

from hypothesis import given, settings

from stages.markdown_text import code_span, fenced, inline
from tests.markdown_check import cells, folded, hostile_text, live, parse, render


@settings(max_examples=300, deadline=None)
@given(text=hostile_text)
def test_inline_and_code_span_read_as_the_text_itself(text: str) -> None:
    table = f"| x |\n|---|\n| {inline(text)} |\n"
    assert live(table) == [] and cells(table) == ["x", folded(text)]
    assert live(f"a {inline(text)} b\n") == []
    assert render(f"a {inline(text)} b\n").count("<p>") == 1  # still one paragraph
    span = render(f"a {code_span(text)} b\n")
    assert live(f"a {code_span(text)} b\n") == [] and span.count("<code>") == 1


@settings(max_examples=300, deadline=None)
@given(text=hostile_text)
def test_a_fenced_block_holds_any_text_whole(text: str) -> None:
    """The review sheets' shape (pass1.md): a label, then the text in a fence longer than any
    backtick run in it: nothing inside closes the block or renders."""
    markdown = f"**Response**\n\n{fenced(text)}\n\nFields to fill: score\n"
    assert live(markdown) == []
    html = render(markdown)
    assert html.count("<pre>") == 1 and html.endswith("<p>Fields to fill: score</p>\n")
    shown = "".join(parse(html.split("<pre>")[1].split("</pre>")[0]).text)
    assert shown == text.replace("\r\n", "\n").replace("\r", "\n") + "\n"
