"""Text helpers of the shortcut audit: normalisation, words, the stem and the asked question.

Everything the audit compares goes through :func:`normalise` (NFKC, case-folded, whitespace
collapsed), and phrases match only at word boundaries, so ``"2"`` is not found inside ``"12"``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
#: Words that carry no content in a question; what is left must all appear in a stating sentence.
_STOP = (
    "a an the of to in on at by for from with and or but not no is are was were be been being "
    "do does did has have had will would can could should shall may might must this that these "
    "those it its which who whom whose what when where why how many much there their they them "
    "he she his her you your i we our as than then if so into about each one end reply line "
    "answer give true false correct following statement option options"
)
STOP_WORDS = frozenset(_STOP.split())


def normalise(text: str) -> str:
    """NFKC, case-folded, every run of whitespace one space, stripped."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


#: Tokens that make an item what it is: numbers with their decimal or group marks, words, and
#: every symbol that is not sentence punctuation, a bracket or a quote — so ``10^-18`` is not
#: ``10^18``, ``2-3`` not ``2+3`` and ``-5`` not ``5``, while case, spacing, ``?`` and ``.`` do
#: not count.
_IDENTITY = re.compile(r"\d+(?:[.,]\d+)*|\w+|[^\w\s.,;:!?'\"()\[\]{}«»“”‘’`]")


def identity_text(text: str) -> str:
    """``text`` as :data:`_IDENTITY` tokens of its normalised form (U+2212 read as ``-``)."""
    return " ".join(_IDENTITY.findall(normalise(text).replace("\u2212", "-")))


def words(text: str) -> set[str]:
    """The set of word tokens (``\\w+``) of the normalised text."""
    return set(_WORD.findall(normalise(text)))


def has_phrase(text: str, phrase: str) -> bool:
    """True when ``phrase`` occurs in ``text`` at word boundaries, both normalised."""
    needle = normalise(phrase)
    if not needle:
        return False
    return re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", normalise(text)) is not None


def prompt_text(row: dict[str, Any]) -> str:
    """What the model reads: ``prompt``, or every message's content joined by newlines."""
    if row.get("prompt") is not None:
        return str(row["prompt"])
    return "\n".join(str(m.get("content", "")) for m in row.get("messages") or [])


def labels(row: dict[str, Any]) -> list[str]:
    """Option letters of an mc row: A, B, C, ... one per choice."""
    return [chr(ord("A") + i) for i in range(len(row.get("choices") or []))]


def stem(row: dict[str, Any]) -> str:
    """The prompt without an mc row's option list: every ``A. text`` (or ``A) text``,
    ``A: text``) is cut wherever it stands, on its own line or inline after the question."""
    text = prompt_text(row)
    for label, choice in zip(labels(row), row.get("choices") or [], strict=True):
        pattern = rf"(?<!\w){label}[.):] *{re.escape(choice)}(?=\s|$)"
        text = re.sub(pattern, "", text)
    return text


def sentences(text: str) -> list[str]:
    """Sentences and lines of ``text`` (split after . ! ? and at line breaks), non-empty."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def question(text: str) -> tuple[str, set[str]] | None:
    """The last sentence ending in ``?`` and its content words (stop words removed), or None."""
    asked = [s for s in sentences(text) if s.endswith("?")]
    if not asked:
        return None
    content = {w for w in words(asked[-1]) if w not in STOP_WORDS}
    return asked[-1], content


#: Words a stating sentence may hold beyond the question's content words and the answer.
MAX_EXTRA_WORDS = 2


def states(sentence: str, content: set[str], phrase: str) -> bool:
    """Does ``sentence`` state ``phrase`` as the answer to a question with ``content`` words?

    It must name the phrase, hold every content word, and add at most ``MAX_EXTRA_WORDS`` other
    non-stop words: "Nico drinks milk." states Nico for "Who drinks milk?", while a preamble that
    lists every name and drink, or "The person who drinks tea keeps the dog.", does not.
    """
    if not content or not has_phrase(sentence, phrase):
        return False
    have = words(sentence)
    extra = have - STOP_WORDS - content - words(phrase)
    return content <= have and len(extra) <= MAX_EXTRA_WORDS


def stated(text: str, phrases: list[str]) -> list[bool]:
    """For each phrase: does a sentence of ``text`` other than the question state it?"""
    found = question(text)
    if found is None:
        return [False] * len(phrases)
    asked, content = found
    others = [s for s in sentences(text) if s != asked]
    return [any(states(s, content, p) for s in others) for p in phrases]
