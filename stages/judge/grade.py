"""Reading a grade out of a judge's answer: the last grade token, never a default (issue 21).

A *grade token* is a label of the rubric's score field standing alone in the text: not part of a
longer number, a decimal, a fraction or a range ("3.5", "3/4", "0-4" and "0 to 4" are no grade
tokens), so "on a scale of 0 to 4 this is a 3" reads as 3. When the answer uses the format the
prompt asks for (``Grade: N``), the last such line decides, and a value there outside the allowed
set makes the grade unparsed rather than falling back on another number. Otherwise the last grade
token of the allowed set in the answer is the grade. Anything else is unparsed: ``None``, counted
as such, never replaced by a default grade.
"""

from __future__ import annotations

import re

_MARKED = re.compile(r"\bgrade\s*[:=]\s*\**\s*([^\s*.,;)]+)", re.IGNORECASE)
# A number that is not glued to a digit, a decimal point, a slash or a dash on either side, and
# that is not one end of "N to M".
_TOKEN = re.compile(r"(?<![\d.,/\-–])(\d+)(?![\d/\-–]|[.,]\d)")
_RANGE = re.compile(r"\b\d+\s+to\s+\d+\b", re.IGNORECASE)


def extract_grade(text: str, allowed: list[str]) -> str | None:
    """The grade ``text`` gives among ``allowed`` (labels as text), or None (unparsed)."""
    marked = _MARKED.findall(text)
    if marked:
        value = marked[-1].strip()
        return value if value in allowed else None
    cleaned = _RANGE.sub(" ", text)
    tokens = [t for t in _TOKEN.findall(cleaned) if t in allowed]
    return tokens[-1] if tokens else None
