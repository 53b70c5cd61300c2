"""The result every row scorer returns (docs/scoring.md#one-output-one-verdict; spec 001, "Answer
extraction and scorers": one item is correct or it is not, except the secondary chrF++ metric)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class FlexibleVerdict:
    """The flexible reading of the same output (:mod:`stages.scoring.flexible`)."""

    correct: bool | None
    """Right or wrong under the flexible extraction (None for non-binary scorers)."""
    extracted: str | None
    """The candidate the flexible reading compared."""


@dataclass(frozen=True)
class Verdict:
    """How one response was judged against one row."""

    scorer: str
    """Name of the scorer that decided (the row's own ``scorer``)."""
    correct: bool | None
    """True/False for binary scorers; None only for non-binary ones (chrf, review)."""
    score: float
    """1.0/0.0 for binary scorers; drop: EM (0/1); chrf: sentence chrF++ on 0-100."""
    extracted: str | None
    """The extracted answer the scorer compared (None when there was nothing to extract)."""
    why: str
    """One line saying what decided the verdict."""
    extras: dict[str, Any] = field(default_factory=dict)
    """Scorer-specific figures: drop {"em", "f1"}, chrf {"chrf", "signature"}, ..."""
    flexible: FlexibleVerdict | None = None
    """The flexible reading; None where a scorer has none (its strict verdict stands for both:
    code_exec, tool_call, instruction, splice, chrf, review)."""


def binary(
    scorer: str,
    correct: bool,
    extracted: str | None,
    why: str,
    flexible: FlexibleVerdict | None = None,
    **extras: Any,
) -> Verdict:
    """A right/wrong verdict whose score is 1.0 or 0.0."""
    return Verdict(scorer, correct, 1.0 if correct else 0.0, extracted, why, extras, flexible)


def clip(text: str, limit: int = 80) -> str:
    """Shorten ``text`` for a one-line ``why`` (repr-quoted, newlines escaped)."""
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(shown)
