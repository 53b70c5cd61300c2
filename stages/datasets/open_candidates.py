"""What an answer-free reader could reply to an open row (``exact``, ``numeric``, ``contains``):
the candidates of the learned baseline (:mod:`stages.datasets.learned`) and their features.

Candidates, in this order and at most :data:`LIMITS` of each kind: every distinct number the
prompt states (strict grammar); for ``exact`` and ``contains`` rows also its words (whitespace
tokens without edge punctuation, so ``quinta-feira`` stays one) and their two- and three-word
runs within a line; and the accepted answers of the *other* rows of the same category and
scorer (what a reader who saw the rest of the family would try; never the row's own). A
candidate is right when the row's own scorer accepts ``Answer: <candidate>`` (strict).

Features per candidate (:data:`NAMES`): its kind (``number``, ``word``, ``bigram``,
``trigram``, ``family_only`` — a family answer the prompt does not state); ``occurrences``
(log); where it first and last stands (0 = start of the prompt, 1 = end); for numbers
``last_number`` / ``first_number`` (the prompt's last or first number), ``number_rank`` (scaled
rank among the prompt's numbers), ``number_max``, ``number_min`` and ``integer``; ``chars``
(log length); ``in_question`` (it occurs in the last sentence that asks something) and
``capital`` (it starts with a capital letter).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from stages.datasets.audit_text import normalise, prompt_text, question
from stages.datasets.option_features import scaled_ranks
from stages.scoring.exact import gold_strings
from stages.scoring.numbers import Number, ascii_digits, number_spans, parse_number

NAMES = (
    "number", "word", "bigram", "trigram", "family_only", "occurrences", "first_at", "last_at",
    "last_number", "first_number", "number_rank", "number_max", "number_min", "integer",
    "chars", "in_question", "capital",
)  # fmt: skip
LIMITS = {"number": 60, "word": 60, "bigram": 20, "trigram": 10, "family_only": 40}
_EDGE = "\"'`.,;:!?()[]{}«»“”‘’*"


@dataclass
class Candidate:
    """One reply an answer-free reader could give."""

    text: str
    """The reply's value as it would be written after ``Answer:``."""
    key: str
    """What makes two candidates the same (normalised text, or the number's exact value)."""
    kind: str
    """``number``, ``word``, ``bigram``, ``trigram`` or ``family_only``."""
    features: list[float]
    """One value per :data:`NAMES` entry."""


def number_text(value: Number) -> str:
    """A number written as the strict grammar reads it: ``12``, ``-2.5``, ``1/3``."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    den = value.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if den == 1:
        text = f"{float(value):.12f}".rstrip("0")
        return text if Fraction(text) == value else f"{value.numerator}/{value.denominator}"
    return f"{value.numerator}/{value.denominator}"


def key_of(text: str) -> str:
    """A candidate's identity: ``n:`` and the exact number when it reads as one, else ``t:``
    and the normalised text."""
    value = parse_number(text)
    return "t:" + normalise(text) if value is None else "n:" + number_text(value)


def _runs(text: str) -> dict[str, list[tuple[str, int]]]:
    found: dict[str, list[tuple[str, int]]] = {"word": [], "bigram": [], "trigram": []}
    offset = 0
    for line in text.split("\n"):
        tokens = []
        for match in re.finditer(r"\S+", line):
            word = match.group().strip(_EDGE)
            if word:
                tokens.append((word, offset + match.start()))
        for n, kind in ((1, "word"), (2, "bigram"), (3, "trigram")):
            for i in range(len(tokens) - n + 1):
                words = [t for t, _ in tokens[i : i + n]]
                found[kind].append((" ".join(words), tokens[i][1]))
        offset += len(line) + 1
    return found


def _at(positions: list[int], length: int) -> tuple[float, float]:
    return positions[0] / length, positions[-1] / length


def candidates(row: dict[str, Any], family: list[str]) -> list[Candidate]:
    """The row's candidates (module rules); ``family`` holds the other rows' answers."""
    text = prompt_text(row)
    length = max(1, len(ascii_digits(text)))
    asked = question(text)
    asked_text = normalise(asked[0]) if asked else ""
    out: list[Candidate] = []
    seen: set[str] = set()
    spans = number_spans(text)
    values = sorted({v for v, _, _ in spans})
    ranks = dict(zip(values, scaled_ranks([float(v) for v in values]), strict=True)) if values \
        else {}  # fmt: skip
    by_value: dict[Number, list[int]] = {}
    for value, start, _ in spans:
        by_value.setdefault(value, []).append(start)
    last_value = spans[-1][0] if spans else None
    first_value = spans[0][0] if spans else None
    for value, starts in list(by_value.items())[: LIMITS["number"]]:
        shown = number_text(value)
        first, last = _at(starts, length)
        features = [1.0, 0, 0, 0, 0, math.log1p(len(starts)), first, last,
                    float(value == last_value), float(value == first_value), ranks[value],
                    float(value == values[-1]), float(value == values[0]),
                    float(Fraction(value).denominator == 1), math.log1p(len(shown)),
                    float(shown in asked_text), 0.0]  # fmt: skip
        out.append(Candidate(shown, "n:" + shown, "number", features))
        seen.add("n:" + shown)
    if row["scorer"] != "numeric":
        for kind, found in _runs(text).items():
            places: dict[str, list[int]] = {}
            spelled: dict[str, str] = {}
            for words, start in found:
                key = key_of(words)
                if key in seen:
                    continue
                places.setdefault(key, []).append(start)
                spelled.setdefault(key, words)
            for key, starts in list(places.items())[: LIMITS[kind]]:
                first, last = _at(starts, len(text) or 1)
                one_hot = [float(kind == k) for k in ("number", "word", "bigram", "trigram")]
                features = [*one_hot, 0.0, math.log1p(len(starts)), first, last, 0, 0, 0, 0, 0,
                            0, math.log1p(len(key)), float(key[2:] in asked_text),
                            float(spelled[key][:1].isupper())]  # fmt: skip
                out.append(Candidate(spelled[key], key, kind, features))
                seen.add(key)
    for answer in family[: LIMITS["family_only"]]:
        key = key_of(answer)
        if key in seen:
            continue
        seen.add(key)
        features = [0, 0, 0, 0, 1.0, 0, 1, 1, 0, 0, 0, 0, 0, 0, math.log1p(len(key)), 0, 0]
        out.append(Candidate(answer, key, "family_only", [float(f) for f in features]))
    return out


def family_answers(rows: list[dict[str, Any]]) -> list[list[str]]:
    """For each row, the first accepted answer of every other row of its category and scorer
    (distinct, in row order; another row's answer may equal this row's)."""
    groups: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for i, row in enumerate(rows):
        groups.setdefault((row["category"], row["scorer"]), []).append(
            (i, gold_strings(row["answer"])[0])
        )
    out = []
    for i, row in enumerate(rows):
        others = [a for j, a in groups[(row["category"], row["scorer"])] if j != i]
        out.append(list(dict.fromkeys(others)))
    return out
