"""Final labels: how each field of an item is resolved from its reviewers' labels.

The final label is the reviewers' common label when they agree; else the adjudicator's label
(``adjudication.pass<N>.json``, its own committed file); else the label more than half of the
reviewers gave (2 of 3); else unresolved, listed in ``disagreements.json`` for the adjudicator
and left out of every rate (the count of unresolved items is reported). ``atlas review import``
(:mod:`stages.review.outcome`) resolves the passes; :mod:`stages.review.summary` turns the
result into metrics.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from stages.review.agreement import Rating
from stages.review.keys import Key
from stages.review.study import Study


@dataclass(frozen=True)
class FieldOutcome:
    """Every reviewer's label for one field of one item, and the final label."""

    labels: dict[str, str]
    final: str | None
    how: str  # consensus | adjudicated | majority | unresolved


def resolve(labels: dict[str, str], adjudicated: str | None) -> FieldOutcome:
    """The final label of one field (module rule)."""
    votes = Counter(labels.values())
    if len(votes) == 1:
        return FieldOutcome(labels, next(iter(votes)), "consensus")
    if adjudicated is not None:
        return FieldOutcome(labels, adjudicated, "adjudicated")
    top, count = votes.most_common(1)[0]
    if 2 * count > len(labels):
        return FieldOutcome(labels, top, "majority")
    return FieldOutcome(labels, None, "unresolved")


@dataclass
class StudyOutcome:
    """Resolved labels of every pass imported so far."""

    study: Study
    key: Key
    passes: dict[int, dict[str, dict[str, FieldOutcome]]] = field(default_factory=dict)
    ratings: dict[int, list[Rating]] = field(default_factory=dict)
    demo_verdicts: bool = False

    def field_name(self, blind: str, pass_no: int, name: str) -> str:
        prefix = f"pass{pass_no}" if self.study.audit else self.key.items[blind].track
        return f"{prefix}.{name}"

    def unresolved(self) -> int:
        """How many fields of all passes have no final label yet."""
        return sum(
            f.how == "unresolved"
            for resolved in self.passes.values()
            for fields in resolved.values()
            for f in fields.values()
        )
