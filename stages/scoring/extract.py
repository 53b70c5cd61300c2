"""Answer extraction, in the order spec 001 ("Answer extraction and scorers") fixes.

1. Drop every ``<think>…</think>`` block (tags included). If what is left starts, after
   whitespace, with an opening ``<think>`` that is never closed, everything from it on is
   reasoning and is dropped too (an unterminated *leading* block). A stray ``<think>`` later
   in the text is ordinary text. Tags are matched case-sensitively, as models emit them.
2. Drop markdown code fences, keeping what they enclose: a line made of three or more
   backticks or tildes plus an optional info string (```` ```python ````) is removed whole; any
   remaining run of three or more backticks (an inline ```` ```42``` ````) is removed.
3. If any line matches ``^\\s*(?:final answer|answer)\\s*[:\\-]\\s*(.+)$`` (case-insensitive),
   only the capture of the *last* such line is kept. Matching is per line: the pattern never
   reaches across a newline (``\\s`` is restricted to non-newline whitespace).
4. Strip surrounding whitespace; then one pair of matching surrounding quotes
   (``"…"``, ``'…'``, ```…```, ``“…”``, ``‘…’``, ``«…»``, German ``„…“``, ``‚…‘``, ``»…«``, CJK
   ``「…」``); then a single trailing ``.`` or ``!``;
   whitespace uncovered by steps 4b/4c is stripped as well.

The instruction scorer bypasses all of this (it judges the raw text), the splice scorer
applies steps 1–2 only (:func:`code_view`: a line starting ``answer:`` inside code is code) and
the chrf scorer steps 1–3 (:func:`answer_text`: a translation keeps its final punctuation).
A second, more lenient reading for the flexible accuracy lives in :mod:`stages.scoring.flexible`.
"""

from __future__ import annotations

import re

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.S)
_THINK_OPEN = "<think>"
_FENCE_LINE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[^\n`]*$\n?", re.M)
_BACKTICK_RUN = re.compile(r"`{3,}")
# Spec pattern with \s narrowed to [^\S\n] so that, applied to the whole text in MULTILINE mode,
# it behaves exactly like the spec's pattern applied to each line on its own.
_ANSWER_LINE = re.compile(
    r"^[^\S\n]*(?:final answer|answer)[^\S\n]*[:\-][^\S\n]*(.+)$", re.I | re.M
)
_QUOTE_PAIRS = {
    '"': '"',
    "'": "'",
    "`": "`",
    "“": "”",
    "‘": "’",
    "«": "»",
    "„": "“",
    "‚": "‘",
    "»": "«",
    "「": "」",
    "『": "』",
}  # German „…“ and ‚…‘ included (issue 30), as their prompts write them


def strip_reasoning(text: str) -> str:
    """Step 1: remove ``<think>`` blocks, including an unterminated leading one."""
    if _THINK_OPEN not in text:
        return text
    text = _THINK_BLOCK.sub("", text)
    if text.lstrip().startswith(_THINK_OPEN):
        return ""
    return text


def think_left_open(text: str) -> bool:
    """Whether step 1 found an unterminated *leading* ``<think>`` block: after the closed blocks
    are dropped, what is left starts (after whitespace) with an opening tag."""
    return _THINK_OPEN in text and _THINK_BLOCK.sub("", text).lstrip().startswith(_THINK_OPEN)


def strip_fences(text: str) -> str:
    """Step 2: remove markdown fence markers (and info strings), keep the fenced content."""
    if "```" not in text and "~~~" not in text:
        return text
    text = _FENCE_LINE.sub("", text)
    return _BACKTICK_RUN.sub("", text) if "```" in text else text


def answer_line(text: str) -> str | None:
    """Step 3: the capture of the last ``Answer:`` / ``Final answer:`` line, or None."""
    last = None
    for match in _ANSWER_LINE.finditer(text):
        last = match
    return None if last is None else last.group(1)


def tidy(text: str) -> str:
    """Step 4: strip whitespace, one pair of matching quotes, one trailing '.' or '!'."""
    text = text.strip()
    if len(text) >= 2 and _QUOTE_PAIRS.get(text[0]) == text[-1]:
        text = text[1:-1].strip()
    if text and text[-1] in ".!":
        text = text[:-1].rstrip()
    return text


def code_view(text: str) -> str:
    """Steps 1–2 only: the text a long-generation (source file) scorer should look at."""
    return strip_fences(strip_reasoning(text))


def answer_text(text: str) -> str:
    """Steps 1–3: the last answer line's capture, else the whole text (chrf stops here)."""
    text = code_view(text)
    line = answer_line(text)
    return text if line is None else line


def extract_answer(text: str) -> str:
    """All four steps: the answer string that exact/contains/numeric/mc/drop compare."""
    return tidy(answer_text(text))


def extract_with_line(text: str) -> tuple[str, bool]:
    """All four steps, and whether step 3 found an answer line (strict ``numeric`` reads a number
    out of prose only inside one)."""
    text = code_view(text)
    line = answer_line(text)
    return tidy(text if line is None else line), line is not None
