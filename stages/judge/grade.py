"""Reading a grade out of a judge's answer: the last grade token, never a default (issue 21).

A *grade token* is a label of the rubric's score field standing alone in the text: not part of a
word or a longer number ("a4b", "GPT4", "x2"), a decimal, a fraction or a range ("3.5", "3/4",
"0-4" and "0 to 4" are no grade tokens), so "on a scale of 0 to 4 this is a 3" reads as 3. When
the answer uses the format the prompt asks for (``Grade: N``), the last such line decides, and a
value there outside the allowed set makes the grade unparsed rather than falling back on another
number. Otherwise the last grade token of the allowed set in the answer is the grade. Anything
else is unparsed: ``None``, counted as such, never replaced by a default grade.

**Echoes hold no grade.** A small judge often repeats its prompt: the rubric's grade list
("0: wrong identity, ..."), the item, or the response under review. A line of the answer that
repeats a line of the prompt (the whole line or a piece of it, as a truncated answer leaves it)
is skipped before any grade is read, so a rubric line is never read as the judge's grade and a
response that ends with its own "Grade: 4" cannot grade itself through a judge that echoes it.
A line needs a letter to count as an echo: a bare "2" is the judge's own. The cost is on the safe
side: a judge line identical to a line of the item reads as unparsed.
"""

from __future__ import annotations

import re

RULE = "last-grade-token-2"
"""Name of this reading rule, in every judge score's signature (bump it when the rule changes)."""

_MARKED = re.compile(r"\bgrade\s*[:=]\s*\**\s*([^\s*.,;)]+)", re.IGNORECASE)
# A number not glued to a letter, a digit, a decimal point, a slash or a dash on either side, and
# not one end of "N to M".
_TOKEN = re.compile(r"(?<![\w.,/\-–])(\d+)(?![\w/\-–]|[.,]\d)")
_RANGE = re.compile(r"\b\d+\s+to\s+\d+\b", re.IGNORECASE)
_LETTER = re.compile(r"[^\W\d_]")


def _own_lines(text: str, prompt: str) -> str:
    """``text`` without the lines that repeat a line of ``prompt``."""
    if not prompt:
        return text
    asked = [line.strip() for line in prompt.splitlines() if line.strip()]
    kept = []
    for line in text.splitlines():
        bare = line.strip()
        if _LETTER.search(bare) and any(bare in other for other in asked):
            continue
        kept.append(line)
    return "\n".join(kept)


def extract_grade(text: str, allowed: list[str], prompt: str = "") -> str | None:
    """The grade ``text`` gives among ``allowed`` (labels as text), or None (unparsed).

    ``prompt`` is what the judge was sent; the lines of ``text`` that repeat it are not read.
    """
    text = _own_lines(text, prompt)
    marked = _MARKED.findall(text)
    if marked:
        value = marked[-1].strip()
        return value if value in allowed else None
    cleaned = _RANGE.sub(" ", text)
    tokens = [t for t in _TOKEN.findall(cleaned) if t in allowed]
    return tokens[-1] if tokens else None
