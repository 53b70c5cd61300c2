"""pass@k and pass^k rows of a comparison of sampled runs (issue 18): per item, the unbiased
estimates (:mod:`stages.scoring.passk`) at A and at B over the repeats both revisions have,
paired by item and clustered like the item; k = the repeats every item has (k >= 2)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from stages.compare import measures
from stages.compare.measures import Measured, Pair
from stages.scoring.passk import ESTIMATORS


def passk_rows(pairs: Sequence[Pair]) -> list[tuple[str, Measured]]:
    """``[("pass@k", row figures), ("pass^k", ...)]``, or [] when an item has a single repeat."""
    items: dict[Hashable, list[Pair]] = {}
    for x, y in pairs:
        items.setdefault(x.item, []).append((x, y))
    k = min((len(group) for group in items.values()), default=0)
    if k < 2:
        return []
    clusters = [group[0][1].cluster_key for group in items.values()]
    out = []
    for prefix, estimator in ESTIMATORS.items():
        values = []
        for group in items.values():
            n = len(group)
            right_a = sum(bool(x.correct) for x, _ in group)
            right_b = sum(bool(y.correct) for _, y in group)
            values.append((estimator(n, right_a, k), estimator(n, right_b, k)))
        out.append((f"{prefix}{k}", measures.mean_row(values, clusters, len(items), (0.0, 1.0))))
    return out
