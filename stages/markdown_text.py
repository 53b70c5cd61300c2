"""Outside text in the project's Markdown files, inert in any CommonMark renderer (issue 31).

report.md, compare.md and the review sheets quote text the project does not control: model
outputs and what is extracted from them, dataset prompts and gold answers, what a server says
about itself. Pasted as it is, a CommonMark renderer (GitHub, an editor's preview, a docs site)
turns ``<script>`` or ``<img onerror=…>`` into live HTML, ``[x](javascript:…)`` into a link, and a
stray backtick or pipe breaks the table it sits in.

Two shapes, both plain CommonMark, so that every renderer reads them the same way:

* :func:`inline` for one line of text (a table cell, a note): whitespace folded to single spaces
  and every character that can start markup backslash-escaped. CommonMark renders a
  backslash-escaped ASCII punctuation character as that character, literally, so no tag, link,
  image, autolink, entity, code span or emphasis can begin inside the text, and an escaped ``|``
  stays inside its GFM table cell.
* :func:`fenced` for a block kept as written (a review sheet's prompt and response): a code
  fence longer than any backtick run in the text, so nothing inside can close it; the contents
  of a code block are never markup.

:func:`code_span` is the inline counterpart of :func:`fenced`, for short literals shown as code.
"""

from __future__ import annotations

import re
from typing import Any

ACTIVE = "\\`*[]<&|~"
"""Characters that can open Markdown or HTML inside a line: escapes, code spans, emphasis and
strikethrough, links and images (``![`` needs its ``[``), raw HTML and autolinks, entities, table
pipes. ``_`` is escaped only where it could open or close emphasis (:data:`_EDGE_UNDERSCORE`);
``>``, ``#``, ``-`` and ``1.`` matter only at the start of a line, and none starts one here."""

_ESCAPE = {ord(c): "\\" + c for c in ACTIVE}
_EDGE_UNDERSCORE = re.compile(r"_(?![^\W_])|(?<![^\W_])_")
"""An ``_`` not between two letters or digits: ``ttft_s`` stays as it is (an underscore inside
a word never delimits emphasis in CommonMark), ``_x_`` is escaped."""


def inline(value: Any) -> str:
    """``value`` as one line of literal Markdown text (see the module docstring)."""
    text = " ".join(str(value).split()).translate(_ESCAPE)
    return _EDGE_UNDERSCORE.sub(r"\\_", text)


def _longest_run(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


def fenced(text: str) -> str:
    """``text`` as a fenced code block whose fence is longer than any backtick run inside it."""
    fence = "`" * max(3, _longest_run(text) + 1)
    return f"{fence}\n{text}\n{fence}"


def code_span(value: Any) -> str:
    """``value`` on one line as a code span: delimiters longer than any backtick run inside,
    padded with a space so that a leading or trailing backtick stays content."""
    text = " ".join(str(value).split())
    if not text:
        return "` `"  # an empty span is no code span at all: show one space
    ticks = "`" * (_longest_run(text) + 1)
    return f"{ticks} {text} {ticks}" if "`" in text else f"{ticks}{text}{ticks}"
