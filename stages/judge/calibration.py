"""Calibration of a judge against human final labels, and the gate its figures must pass.

On the items of a study that people reviewed, the judge's grade of each response is set against
the humans' final label of the same response (:mod:`stages.review.resolved`):

* **weighted κ, quadratic weights** (Cohen 1968) is the figure the gate reads. Quadratic because
  the track score is a mean of grades: a judge two grades off moves that mean twice as far as one
  grade off, and with quadratic weights a disagreement costs the square of its distance, which
  makes κ the agreement measure that matches the squared error of a mean score (it equals the
  intraclass correlation under its assumptions, Fleiss and Cohen 1973). The same weights serve
  reviewer agreement in the Kouman report, so human-human and judge-human figures compare.
  Linear-weighted κ and exact agreement are printed beside it, never gated on.
* **confusion matrix**, humans in rows, the judge in columns, unparsed grades in their own column;
* **bias**: mean of judge grade minus human label, per track and per group (direction).

Items whose humans disagree and were not adjudicated have no final label and are left out
(counted); an unparsed judge grade cannot enter κ, so it is counted against ``max_unparsed_share``
instead of being dropped silently. The gate: κ at least ``min_kappa`` on at least ``min_items``
items with at most ``max_unparsed_share`` unparsed; otherwise the judge's figures are withheld and
every reason is given.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from stages.review.agreement import Rating, cohen

UNPARSED = "unparsed"


@dataclass(frozen=True)
class Pair:
    """One response both graded by the judge and labelled by the humans."""

    item: str
    group: str | None
    human: str | None
    """The humans' final label; None: unresolved."""
    judge: str | None
    """The judge's grade; None: unparsed (or the request failed)."""


@dataclass(frozen=True)
class Gate:
    """The thresholds of ``judge:`` in params.yaml."""

    min_kappa: float
    min_items: int
    max_unparsed_share: float


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def kappa(pairs: Sequence[Pair], labels: list[str], weights: str | None) -> dict[str, Any]:
    """Cohen's κ between human and judge over pairs with both labels (``value`` None: undefined)."""
    ratings = [
        Rating(p.item, rater, label)
        for p in pairs
        if p.human is not None and p.judge is not None
        for rater, label in (("human", p.human), ("judge", p.judge))
    ]
    if not ratings:
        return {"value": None, "reason": "no item has both a human label and a judge grade",
                "items": 0}  # fmt: skip
    result = cohen(ratings, labels, weights=weights)
    return {"value": _r(result.value), "reason": result.reason, "items": result.items}


def confusion(pairs: Sequence[Pair], labels: list[str]) -> dict[str, dict[str, int]]:
    """Counts by human label (rows) and judge grade (columns, ``unparsed`` last)."""
    counts = Counter((p.human, p.judge or UNPARSED) for p in pairs if p.human is not None)
    return {h: {j: counts[(h, j)] for j in [*labels, UNPARSED]} for h in labels}


def bias(pairs: Sequence[Pair]) -> dict[str, Any]:
    """Mean of (judge - human) overall and per group, over pairs with both."""
    both = [p for p in pairs if p.human is not None and p.judge is not None]

    def mean(chosen: list[Pair]) -> dict[str, Any]:
        diffs = [float(p.judge or 0) - float(p.human or 0) for p in chosen]
        return {"mean": _r(sum(diffs) / len(diffs)) if diffs else None, "items": len(diffs)}

    groups: dict[str, list[Pair]] = defaultdict(list)
    for p in both:
        if p.group is not None:
            groups[p.group].append(p)
    return {**mean(both), "groups": {g: mean(ps) for g, ps in sorted(groups.items())}}


def calibrate(pairs: Sequence[Pair], labels: list[str], gate: Gate) -> dict[str, Any]:
    """The calibration block of one track: agreement, confusion, bias and the gate's decision."""
    resolved = [p for p in pairs if p.human is not None]
    unparsed = sum(p.judge is None for p in resolved)
    quadratic = kappa(resolved, labels, "quadratic")
    both = [p for p in resolved if p.judge is not None]
    exact = sum(p.judge == p.human for p in both)
    share = unparsed / len(resolved) if resolved else None
    reasons = []
    if len(resolved) < gate.min_items:
        reasons.append(
            f"{len(resolved)} item(s) with a human final label < min_items {gate.min_items}"
        )
    if share is not None and share > gate.max_unparsed_share:
        reasons.append(
            f"{unparsed} of {len(resolved)} grades unparsed ({share:.0%}) > max_unparsed_share "
            f"{gate.max_unparsed_share:.0%}"
        )
    if quadratic["value"] is None:
        reasons.append(f"weighted κ undefined: {quadratic['reason']}")
    elif quadratic["value"] < gate.min_kappa:
        reasons.append(f"weighted κ {quadratic['value']:.3f} < min_kappa {gate.min_kappa:g}")
    return {
        "items": len(pairs),
        "resolved": len(resolved),
        "unresolved": len(pairs) - len(resolved),
        "unparsed": unparsed,
        "kappa_quadratic": quadratic,
        "kappa_linear": kappa(resolved, labels, "linear"),
        "exact_agreement": _r(exact / len(both)) if both else None,
        "confusion": confusion(resolved, labels),
        "bias": bias(resolved),
        "gate": {
            "min_kappa": gate.min_kappa,
            "min_items": gate.min_items,
            "max_unparsed_share": gate.max_unparsed_share,
        },
        "status": "withheld" if reasons else "calibrated",
        "reason": "; ".join(reasons) if reasons else None,
    }
