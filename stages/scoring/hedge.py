"""Hedges: an answer that offers several different candidates is wrong (issue 12), under the strict
and the flexible reading alike, whichever candidate the gold is.

What counts as offering another candidate, next to the one a scorer found:
- a *disjunction* joining it to another word or value: ``or``/``either`` and the disjunctions
  of the multilingual suites (French and Portuguese ``ou``, Spanish ``o``/``u``, Italian
  ``o``/``oppure``, German ``oder``, Swahili ``au``/``ama``) as whole words, or a ``/`` or
  ``|`` between words — "lundi ou dix", "42 or 43", "A/B";
- a *list*: a ``,`` ``;`` ``/`` or ``|`` separating it from another single word or value that ends
  the answer or is followed by another separator — "dix, onze", "58821; 12345". A longer
  clause after a comma ("dix, c'est la réponse") is prose, not a second candidate.
- several ``\\boxed{…}`` answers with different contents anywhere in the judged text.
A neighbour that is itself an accepted answer (``Nb or niobium`` for gold ``["Nb", "Niobium"]``)
is not a different candidate. Each scorer says where it applies these rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from stages.scoring.flexible import boxed, clean

DISJUNCTION_WORDS = ("or", "either", "ou", "o", "u", "oppure", "oder", "au", "ama")
_DISJ = rf"(?:{'|'.join(DISJUNCTION_WORDS)})"
_TOKEN = r"\w+(?:[-'’.,]\w+)*"
_SEP = r"[,;/|]"
_AFTER_DISJ = re.compile(rf"\s*,?\s*(?:\b{_DISJ}\b|[/|])\s*(?P<t>{_TOKEN})", re.I)
_AFTER_SEP = re.compile(rf"\s*{_SEP}\s*(?P<t>{_TOKEN})\s*(?:$|{_SEP}|[.!?)])", re.I)
_BEFORE_DISJ = re.compile(rf"(?P<t>{_TOKEN})\s*,?\s*(?:\b{_DISJ}\b|[/|])\s*$", re.I)
_BEFORE_SEP = re.compile(rf"(?:^|{_SEP}|[(:])\s*(?P<t>{_TOKEN})\s*{_SEP}\s*$", re.I)
_BETWEEN_VALUES = re.compile(rf"\s*(?:,\s*)?(?:\b{_DISJ}\b|[;|]|,)\s*", re.I)


def neighbours(text: str, start: int, end: int) -> list[str]:
    """The other candidates a hedge offers next to ``text[start:end]`` (see the module rules)."""
    found = []
    after, before = text[end:], text[:start]
    for pattern, part in ((_AFTER_DISJ, after), (_AFTER_SEP, after)):
        match = pattern.match(part)
        if match is not None:
            found.append(match["t"])
    for pattern, part in ((_BEFORE_DISJ, before), (_BEFORE_SEP, before)):
        match = pattern.search(part)
        if match is not None:
            found.append(match["t"])
    return found


def offers_another(text: str, start: int, end: int, accepted: Iterable[str]) -> bool:
    """True when a neighbour of ``text[start:end]`` is a candidate outside ``accepted``
    (compare in the same normal form as ``text``)."""
    allowed = set(accepted)
    return any(other not in allowed for other in neighbours(text, start, end))


def several_boxes(text: str) -> bool:
    """True when ``text`` holds boxed answers with different contents."""
    return "boxed" in text and len({clean(box) for box in boxed(text)}) > 1


def joins_values(between: str) -> bool:
    """True when the text between two numbers makes them alternatives ("42 or 43", "42, 43")."""
    return _BETWEEN_VALUES.fullmatch(between) is not None
