"""Flexible extraction: a second, documented reading of the same output (issue 12), reported as
``accuracy_flexible`` beside the strict ``accuracy`` (the spec's four steps, which stay primary).
lm-evaluation-harness reports GSM8K as ``strict-match`` and ``flexible-extract``; this does the
same for every suite, so the gap between the two measures format-following, not knowledge.

Which text is the candidate:
1. Extraction steps 1–2 as in strict (``<think>`` blocks and fence markers dropped).
2. The last *answer line*, found after clearing each line of markdown decoration: heading marks
   (``#``), a block-quote ``>``, a list bullet, every ``**``/``__`` and single ``*``/``_`` at the
   ends of the line — so ``**Answer: C**``, ``**Answer:** C``, ``### Answer: C`` and
   ``- Answer: C`` are answer lines. The pattern is the strict one (``Answer:``/``Final answer:``).
3. Else the contents of ``\\boxed{…}`` (balanced braces) — the last box; boxes holding different
   contents are *several candidates* and the item is wrong.
4. Else the whole text, as in strict.

How the candidate is cleaned, then: a LaTeX math segment (``$…$``, ``\\(…\\)``, ``\\[…\\]`` or a
box's contents) holding a command is read by ``math-verify`` (the verifier behind lighteval and
open-r1, :mod:`stages.scoring.latex_value`) and, when it is one rational number, written as that
number (``\\dfrac{7}{20}`` -> ``7/20``, ``3\\frac{1}{3}`` -> ``10/3``); ``\\boxed{x}`` -> ``x``;
math delimiters ``$…$``, ``$$…$$``,
``\\(…\\)``, ``\\[…\\]`` dropped; ``\\text{x}``, ``\\mathrm{x}``, ``\\textbf{x}``, … -> ``x``;
``\\frac{a}{b}`` (also ``\\dfrac``, ``\\tfrac``) -> ``a/b`` (``3\\frac{1}{3}`` -> ``3 1/3``);
``\\times``/``\\cdot`` -> ``×``; ``{,}`` and ``\\,`` between digit groups -> ``,``;
``\\%`` -> ``%``; ``^{3}`` -> ``^3``; markdown emphasis and backticks around the value dropped;
then step 4 (quotes, one trailing ``.``/``!``). Numbers are then read by
:mod:`stages.scoring.flexible_numbers`.

Scorers apply their own rules to the cleaned candidate (each documents its ``flexible`` part),
and the committed-answer grammar (:mod:`stages.scoring.commitment`) holds under both readings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from stages.scoring import latex_value
from stages.scoring.extract import code_view, tidy

_ANSWER = re.compile(r"^\s*(?:final answer|answer)\s*[:\-]\s*(.+)$", re.I)
_DECORATION = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|[-+*]\s+(?=\S))*")
_EMPHASIS = re.compile(r"\*\*|__")
_BOX_OPEN = re.compile(r"\\(?:boxed|fbox)\s*\{")
_DELIMITED = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)
_TEXT_MACRO = re.compile(
    r"\\(?:text|mathrm|textbf|mathbf|textit|mathit|operatorname)\s*\{([^{}]*)\}"
)
_FRAC = re.compile(r"(\d?)\s*\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_SIMPLE = [
    (re.compile(r"\\(?:times|cdot)"), "×"),
    (re.compile(r"(?<=\d)(?:\{,\}|\\,)(?=\d{3}(?!\d))"), ","),
    (re.compile(r"\\[,;:! ]"), " "),
    (re.compile(r"\\%"), "%"),
    (re.compile(r"\\\$"), "$"),
    (re.compile(r"\\(?:left|right)\b"), ""),
    (re.compile(r"\^\{([^{}]*)\}"), r"^\1"),
]


@dataclass(frozen=True)
class Candidate:
    """What the flexible reading found in one output."""

    text: str
    """The cleaned candidate answer."""
    source: str
    """``answer line``, ``boxed`` or ``whole text``."""
    several: bool
    """The output offered several different boxed answers: wrong whatever the scorer."""


def plain_line(line: str) -> str:
    """A line without markdown decoration: headings, quotes, bullets, emphasis markers."""
    line = _EMPHASIS.sub("", _DECORATION.sub("", line, count=1))
    return line.strip().strip("*_").strip()


def boxed(text: str) -> list[str]:
    """The contents of every ``\\boxed{…}`` in ``text`` (braces balanced; an unclosed one ends
    the text)."""
    found = []
    for match in _BOX_OPEN.finditer(text):
        depth, index = 1, match.end()
        while index < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[index], 0)
            index += 1
        found.append(text[match.end() : index - 1 if depth == 0 else index])
    return found


def _unbox(text: str) -> str:
    for _ in range(3):  # a box inside a box inside a box is already unusual
        inner = boxed(text)
        if not inner:
            break
        match = _BOX_OPEN.search(text)
        assert match is not None
        end = match.end() + len(inner[0]) + 1
        text = text[: match.start()] + inner[0] + text[end:]
    return text


def _latex_numbers(text: str) -> str:
    """Math segments and box contents that math-verify reads as one number, as that number."""
    if "\\" not in text:
        return text

    def plain(match: re.Match[str]) -> str:
        inner = next(g for g in match.groups() if g is not None)
        value = latex_value.read(inner)
        return match.group() if value is None else value

    text = _DELIMITED.sub(plain, text)
    for inner in boxed(text):
        value = latex_value.read(inner)
        if value is not None:
            text = text.replace(inner, value, 1)
    return text


def clean(text: str) -> str:
    """The candidate with LaTeX and markdown wrappers removed, then extraction step 4."""
    text = _unbox(_latex_numbers(text.strip()))
    text = _DELIMITED.sub(lambda m: next(g for g in m.groups() if g is not None), text)
    text = _TEXT_MACRO.sub(r"\1", text)
    text = _FRAC.sub(lambda m: (f"{m[1]} " if m[1] else "") + f"{m[2]}/{m[3]}", text)
    for pattern, replacement in _SIMPLE:
        text = pattern.sub(replacement, text)
    text = tidy(_EMPHASIS.sub("", text)).strip("*_`").strip()  # "`Uranus`." is Uranus
    return tidy(text)


def several_boxes(text: str) -> bool:
    """True when ``text`` holds boxed answers with different contents (wrong, whatever the
    scorer: two answers)."""
    return "boxed" in text and len({clean(box) for box in boxed(text)}) > 1


def candidate(output: str) -> Candidate:
    """The flexible reading of ``output`` (see the module docstring for the order)."""
    text = code_view(output)
    capture = None
    for line in text.split("\n"):
        match = _ANSWER.match(plain_line(line))
        if match is not None:
            capture = match.group(1)
    if capture is not None:
        return Candidate(clean(capture), "answer line", False)
    boxes = [clean(box) for box in boxed(text)]
    if boxes:
        return Candidate(boxes[-1], "boxed", len(set(boxes)) > 1)
    return Candidate(clean(text), "whole text", False)
