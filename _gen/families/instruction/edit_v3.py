"""Edits of an eval-instruction-v3 example shared by its broken twins and faithful variants
(issue 30): where the first sentence of the body ends, and text added in the row's case."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from families.instruction import compose_v3

Row = dict[str, Any]
#: (kind, candidate texts) offered for one rule, best first.
Offers = list[tuple[str, list[str]]]
#: A sentence's period: before whitespace, a closing JSON quote or the end.
END_RE = re.compile(r"\.(?=[\s\"]|\Z)")


def case_of(row: Row) -> Callable[[str], str]:
    """How the row's case rule writes any text added to the example."""
    return compose_v3.CASES[row["meta"]["facts"]["case"]]


def first_end(text: str) -> int:
    """Where the first sentence of the body ends (its period; titles and starts have none)."""
    match = END_RE.search(text)
    assert match is not None, text
    return match.start()


def insert(row: Row, text: str, phrase: str) -> str:
    """``phrase`` (in the row's case) inside the first sentence, before its period."""
    at = first_end(text)
    return text[:at] + case_of(row)(phrase) + text[at:]
