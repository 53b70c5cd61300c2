"""Numbers as candidates of the committed-answer grammar (issue 30;
:mod:`stages.scoring.commitment`), one grammar under both readings.

What is a number: the flexible grammar of :mod:`stages.scoring.flexible_numbers` (sign, ``1,000``
groups, decimals, ``1e-3``, fractions, mixed numbers ``3 1/3``, vulgar fractions, ``%``,
scientific notation ``1.90 × 10^3``, thin-space groups, Unicode digits and minus), and groups of
three digits after a plain space (``4 630 000``: the SI style; ``36 37 38`` stays three numbers).
Not a candidate: a digit glued to a letter (``CO2``, ``R4``, ``cm³``) or a unit's exponent after
``^`` (``m/s^2``). A number raised to a power (``2^10``) is an *expression*: a candidate that
equals no gold, so the prompt's own expression sent back never scores.

Number words: numbers written in words in the row's language (English when it has none) are
candidates too, read by the maintained ``text2num`` (``alpha2digit``: French, Spanish, German,
Italian, Portuguese, English; Swahili has no reader and its words are not candidates), so
``33 (trente-quatre)`` offers two answers. The strict reading still wants the value in digits:
:func:`reading` returns the committed value with and without number words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from text_to_num import alpha2digit

from stages.scoring.commitment import Candidate, Commitment, commit, last_sentence
from stages.scoring.flexible_numbers import NUMBER, match_value, prepare
from stages.scoring.lexicon import word_classes
from stages.scoring.numbers import Number

WORD_LANGUAGES = frozenset({"en", "fr", "es", "de", "it", "pt"})
_ANYWHERE = re.compile(rf"(?<![\w.^]){NUMBER}")
_POWER = re.compile(r"[^\S\n]*\^[^\S\n]*[-+]?\d+")
_SPACE_GROUPS = re.compile(r"(?<![\d.,])([1-9]\d{0,2})((?:[ ]\d{3})+)(?![\d]|[^\S\n]*/)")


@dataclass(frozen=True)
class NumberReading:
    """What an answer text commits to, as a number."""

    value: Number | None
    """The committed value (number words read), or None."""
    in_digits: bool
    """The committed value is written in digits (the strict reading's requirement)."""
    text: str
    """The text as read (number words as digits)."""
    why: str
    """Why it commits to no number (empty when it does)."""


def _group_spaces(text: str) -> str:
    return _SPACE_GROUPS.sub(lambda m: m[1] + m[2].replace(" ", ","), text)


def candidates(text: str) -> list[Candidate]:
    """Every number candidate of ``text`` (already prepared), in order."""
    found = []
    for match in _ANYWHERE.finditer(text):
        power = _POWER.match(text, match.end())
        if power is not None:
            written = text[match.start() : power.end()]
            found.append(Candidate(match.start(), power.end(), ("expression", written)))
            continue
        value = match_value(match)
        if value is not None:
            found.append(Candidate(match.start(), match.end(), value))
    return found


@lru_cache(maxsize=4096)
def _with_words(text: str, lang: str) -> str:
    try:
        return str(alpha2digit(text, lang))
    except Exception:  # the reader refuses odd input (it is a parser of prose): keep the text
        return text


def _commit(text: str, lang: str | None, whole: bool) -> tuple[str, Commitment]:
    prepared = _group_spaces(prepare(text))
    found = candidates(prepared)
    words = word_classes(lang)
    if whole and found:
        span = last_sentence(prepared, found, words)
        if span is None:
            return prepared, Commitment(None, "", "offers several answers, one a sentence")
        prepared = prepared[span[0] : span[1]]
        found = candidates(prepared)
    return prepared, commit(prepared, found, words)


def reading(text: str, lang: str | None, whole: bool = False) -> NumberReading:
    """What ``text`` commits to as a number (module rules); ``whole``: a reply without an
    answer line, judged on its last sentence holding a number
    (:func:`stages.scoring.commitment.last_sentence`)."""
    words = lang if lang in WORD_LANGUAGES else ("en" if lang is None else None)
    digits_text, digits = _commit(text, lang, whole)
    if words is None:
        converted, found = digits_text, digits
    else:
        converted, found = _commit(_with_words(text, words), lang, whole)
    if found.candidate is None:
        return NumberReading(None, False, converted, found.why)
    value = found.key
    if not isinstance(value, int | float) and not hasattr(value, "denominator"):
        return NumberReading(None, False, converted, "commits to an expression, not a value")
    in_digits = digits.key == value
    return NumberReading(value, in_digits, converted, "")  # type: ignore[arg-type]
