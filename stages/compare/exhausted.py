"""The ``exhausted`` row of a comparison (issue 33): how often each revision's answers ran out
while thinking (``exhausted: true`` in a verdict line, :mod:`stages.scoring.exhausted`), paired
item by item like accuracy.

* The row pairs the records both revisions answered: a pair with a failed request on either side
  is left out (a failure says nothing about whether the answer would have run out).
* It exists only where some paired record ran out at A or at B, so a comparison of runs that
  never did has the table it had before. Verdict lines written before issue 33 carry no field and
  read as "did not run out": re-score such a revision (``atlas score`` needs no server) before
  comparing a thinking model across it.
* Its statistics are the accuracy row's, on the binary outcome "ran out": McNemar's exact test or
  the Rao-Scott score test, Tango's interval (:func:`stages.compare.measures.binary`), one more
  row in the table's family of primary rows. A, B and Δ are shares that ran out, so a *rise* is
  the regression: "B worse" when B runs out significantly more often. Its flips are the records
  that stopped running out (−, at A only) and those that started (+, at B only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from stages.compare.display import interval_text
from stages.compare.measures import Pair
from stages.compare.row import Row

MEASURE = "exhausted"
#: Measures whose rise is a regression (the verdict rule reads their Δ the other way round).
LOWER_IS_BETTER = frozenset({MEASURE})
SHOWN_ITEMS = 5


def exhausted_pairs(pairs: Sequence[Pair]) -> list[Pair]:
    """The pairs of the row, each record's ``correct`` standing for "ran out"; [] when no
    answered record ran out at either revision."""
    answered = [(x, y) for x, y in pairs if x.failed is None and y.failed is None]
    if not any(x.exhausted or y.exhausted for x, y in answered):
        return []
    return [(replace(x, correct=x.exhausted), replace(y, correct=y.exhausted)) for x, y in answered]


def _items(labels: list[str]) -> str:
    shown = ", ".join(labels[:SHOWN_ITEMS])
    more = f" and {len(labels) - SHOWN_ITEMS} more" if len(labels) > SHOWN_ITEMS else ""
    return shown + more


def sentence(row: Row) -> str | None:
    """The note that names the difference: which revision runs out more often, on how many
    records, with Δ, its interval and the verdict; None for another row or no paired record."""
    if row.measure != MEASURE or row.a is None or row.b is None or row.delta is None:
        return None
    at_a, at_b = round(row.a * row.n), round(row.b * row.n)
    name = row.workload if row.level is None else f"{row.workload} @{row.level}"
    trend = (
        "B runs out more often"
        if at_b > at_a
        else "B runs out less often"
        if at_b < at_a
        else "both run out as often"
    )
    text = (
        f"{name}: ran out while thinking on {at_a} of {row.n} answered records at A and {at_b} at "
        f"B: {trend} (Δ {100 * row.delta:+.1f} points, 95% CI {interval_text(row)}; "
        f"{row.verdict})"
    )
    if row.right_to_wrong:
        text += f"; at A only: {_items(row.right_to_wrong)}"
    if row.wrong_to_right:
        text += f"; at B only: {_items(row.wrong_to_right)}"
    return text
