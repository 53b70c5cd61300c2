"""Inter-rater agreement (spec 000 "reviewer agreement", spec 002 "Fleiss' κ, 2-of-3 majority").

Pure Python on purpose: the statistics run in the pipeline, where statsmodels, scikit-learn and
the krippendorff package (dev extras) are not installed; tests/review compares every figure here
with those implementations. A statistic that is 0/0 on a table (every rating in one category, no
pairable item, ...) comes back as ``value=None`` with the reason, never as a crash or a number.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

from stages.errors import AtlasError

METHODS = (
    "cohen", "cohen-linear", "cohen-quadratic", "fleiss", "krippendorff-nominal",
    "krippendorff-ordinal",
)  # fmt: skip
ORDINAL_METHODS = ("cohen-linear", "cohen-quadratic", "krippendorff-ordinal")


@dataclass(frozen=True)
class Rating:
    """One cell of a long table: ``rater`` gave ``label`` to ``item`` (for ``field``)."""

    item: str
    rater: str
    label: str
    field: str = ""


@dataclass(frozen=True)
class Agreement:
    """A statistic over a table; ``value`` is None exactly when it is undefined (see ``reason``)."""

    method: str
    value: float | None
    reason: str | None
    items: int
    raters: int
    labels: tuple[str, ...]
    observed: float | None
    excluded_items: int

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["labels"] = list(self.labels)
        return data


def _result(method: str, labels: Sequence[str], **kw: Any) -> Agreement:
    base: dict[str, Any] = dict(value=None, reason=None, items=0, raters=0, observed=None)
    base.update(excluded_items=0)
    base.update(kw)
    return Agreement(method=method, labels=tuple(labels), **base)


def _by_item(ratings: Iterable[Rating]) -> dict[str, dict[str, str]]:
    table: dict[str, dict[str, str]] = defaultdict(dict)
    for r in ratings:
        table[r.item][r.rater] = r.label
    return dict(sorted(table.items()))


def _single_category(values: Iterable[str]) -> str:
    seen = sorted(set(values))
    return f"every rating is {seen[0]!r}" if len(seen) == 1 else "ratings vary"


def cohen(
    ratings: Sequence[Rating], labels: Sequence[str], weights: str | None = None
) -> Agreement:
    """Cohen's κ for two raters over items both rated; ``weights="quadratic"`` (``"linear"``)
    weighs a disagreement by the squared (absolute) distance of the two labels' positions in
    ``labels`` (the full rubric, so unseen labels still count toward the distance)."""
    method = f"cohen-{weights}" if weights else "cohen"
    raters = sorted({r.rater for r in ratings})
    if len(raters) != 2:
        return _result(
            method,
            labels,
            raters=len(raters),
            reason=f"Cohen's κ compares exactly two raters; the table has {len(raters)}",
        )
    table = _by_item(ratings)
    pairs = [(v[raters[0]], v[raters[1]]) for v in table.values() if len(v) == 2]
    excluded = len(table) - len(pairs)
    if not pairs:
        return _result(
            method,
            labels,
            raters=2,
            excluded_items=excluded,
            reason="no item is rated by both raters",
        )
    index = {label: i for i, label in enumerate(labels)}
    k, n = len(labels), len(pairs)
    observed = [[0.0] * k for _ in range(k)]
    for a, b in pairs:
        observed[index[a]][index[b]] += 1
    rows = [sum(observed[i]) for i in range(k)]
    cols = [sum(observed[i][j] for i in range(k)) for j in range(k)]

    def weight(i: int, j: int) -> float:
        if weights == "quadratic":
            return float((i - j) ** 2)
        return float(abs(i - j)) if weights == "linear" else float(i != j)

    disagree = sum(weight(i, j) * observed[i][j] for i in range(k) for j in range(k))
    chance = sum(weight(i, j) * rows[i] * cols[j] / n for i in range(k) for j in range(k))
    share = sum(observed[i][i] for i in range(k)) / n
    common = dict(raters=2, items=n, excluded_items=excluded, observed=share)
    if chance == 0:
        values = [v for pair in pairs for v in pair]
        reason = f"{_single_category(values)}: agreement expected by chance is already perfect"
        return _result(method, labels, reason=reason + " (κ is 0/0)", **common)
    return _result(method, labels, value=1.0 - disagree / chance, **common)


def fleiss(ratings: Sequence[Rating], labels: Sequence[str]) -> Agreement:
    """Fleiss' κ; every item needs the same number (at least two) of ratings."""
    table = _by_item(ratings)
    raters = len({r.rater for r in ratings})
    sizes = sorted({len(v) for v in table.values()})
    if not table:
        return _result("fleiss", labels, reason="the table is empty")
    if len(sizes) != 1 or sizes[0] < 2:
        found = " and ".join(str(s) for s in sizes)
        return _result(
            "fleiss",
            labels,
            raters=raters,
            items=len(table),
            reason=f"Fleiss' κ needs the same number (≥ 2) of ratings per item; found {found}",
        )
    m, n_items = sizes[0], len(table)
    counts = [Counter(v.values()) for v in table.values()]
    per_item = [(sum(c[x] ** 2 for x in labels) - m) / (m * (m - 1)) for c in counts]
    observed = sum(per_item) / n_items
    shares = [sum(c[x] for c in counts) / (n_items * m) for x in labels]
    chance = sum(p * p for p in shares)
    common = dict(raters=raters, items=n_items, observed=observed)
    if chance == 1:
        values = [x for v in table.values() for x in v.values()]
        reason = f"{_single_category(values)}: agreement expected by chance is 1 (κ is 0/0)"
        return _result("fleiss", labels, reason=reason, **common)
    return _result("fleiss", labels, value=(observed - chance) / (1 - chance), **common)


def krippendorff(ratings: Sequence[Rating], labels: Sequence[str], level: str) -> Agreement:
    """Krippendorff's α, ``level`` ``nominal`` or ``ordinal`` (order = order of ``labels``);
    items with a single rating are not pairable and are left out, as the method prescribes."""
    method = f"krippendorff-{level}"
    table = _by_item(ratings)
    raters = len({r.rater for r in ratings})
    units = [list(v.values()) for v in table.values() if len(v) >= 2]
    excluded = len(table) - len(units)
    if not units:
        return _result(
            method,
            labels,
            raters=raters,
            excluded_items=excluded,
            reason="no item has two or more ratings, so nothing is pairable",
        )
    index = {label: i for i, label in enumerate(labels)}
    k = len(labels)
    coincidence = [[0.0] * k for _ in range(k)]
    for values in units:
        for a, b in combinations(values, 2):
            i, j = index[a], index[b]
            coincidence[i][j] += 1 / (len(values) - 1)
            coincidence[j][i] += 1 / (len(values) - 1)
    totals = [sum(row) for row in coincidence]
    n = sum(totals)

    def delta(c: int, d: int) -> float:
        if level == "nominal":
            return float(c != d)
        low, high = min(c, d), max(c, d)
        return (sum(totals[low : high + 1]) - (totals[c] + totals[d]) / 2) ** 2

    observed_d = sum(coincidence[c][d] * delta(c, d) for c in range(k) for d in range(k))
    expected_d = sum(totals[c] * totals[d] * delta(c, d) for c in range(k) for d in range(k))
    share = sum(coincidence[c][c] for c in range(k)) / n
    common = dict(raters=raters, items=len(units), excluded_items=excluded, observed=share)
    if expected_d == 0:
        values = [x for v in units for x in v]
        reason = f"{_single_category(values)}: no disagreement is expected by chance (α is 0/0)"
        return _result(method, labels, reason=reason, **common)
    return _result(method, labels, value=1.0 - (n - 1) * observed_d / expected_d, **common)


def compute(method: str, ratings: Sequence[Rating], labels: Sequence[str]) -> Agreement:
    """Dispatch on a method name of :data:`METHODS`; every rating must use one of ``labels``."""
    unknown = sorted({r.label for r in ratings} - set(labels))
    if unknown:
        raise AtlasError(f"labels {unknown} are rated but not in the label set {list(labels)}")
    if method == "cohen":
        return cohen(ratings, labels)
    if method in ("cohen-linear", "cohen-quadratic"):
        return cohen(ratings, labels, weights=method.removeprefix("cohen-"))
    if method == "fleiss":
        return fleiss(ratings, labels)
    if method.startswith("krippendorff-"):
        return krippendorff(ratings, labels, method.removeprefix("krippendorff-"))
    raise AtlasError(f"unknown agreement method {method!r} (one of {', '.join(METHODS)})")


@dataclass(frozen=True)
class Majority:
    """The 2-of-3 (more-than-half) majority label of one item and field, or None."""

    item: str
    field: str
    label: str | None
    votes: dict[str, int]


def majority(ratings: Iterable[Rating]) -> list[Majority]:
    """Per item and field, the label given by more than half of its raters (2 of 3, 2 of 2);
    ``label`` is None when no label has a majority (e.g. three different labels)."""
    grouped: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for r in ratings:
        grouped[(r.item, r.field)][r.label] += 1
    out = []
    for (item, field), votes in sorted(grouped.items()):
        total = sum(votes.values())
        winner = [label for label, c in votes.items() if 2 * c > total]
        out.append(
            Majority(item, field, winner[0] if winner else None, dict(sorted(votes.items())))
        )
    return out
