"""pass@k and pass^k of sampled runs (issue 18).

With n sampled answers to an item of which c are right:

* pass@k — the chance that at least one of k answers is right — is estimated without bias by
  1 - C(n - c, k) / C(n, k) (M. Chen et al., "Evaluating Large Language Models Trained on Code",
  2021, eq. 1);
* pass^k — the chance that all k answers are right, the reliability figure of S. Yao et al.,
  "tau-bench", 2024 — by C(c, k) / C(n, k).

Both are averaged over items, and their intervals are over items (the item is the unit that was
sampled; items sharing a cluster count as one cluster): Wilson on the effective sample size, as
for accuracy (:mod:`stages.scoring.interval`). k runs from 2 to the number of repeats every item
has (k = 1 is accuracy itself).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Any

from stages.scoring.interval import share_estimate

DIGITS = 6


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k of one item with ``c`` right out of ``n`` samples (k <= n)."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass@{k} needs 0 <= c <= n and 1 <= k <= n (c={c}, n={n})")
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Unbiased pass^k (all k right) of one item with ``c`` right out of ``n`` samples."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass^{k} needs 0 <= c <= n and 1 <= k <= n (c={c}, n={n})")
    return math.comb(c, k) / math.comb(n, k)


ESTIMATORS = {"pass@": pass_at_k, "pass^": pass_hat_k}


def item_counts(
    outcomes: Iterable[tuple[Hashable, Hashable, bool]],
) -> dict[Hashable, tuple[int, int, Hashable]]:
    """(item, cluster, right) per sample -> {item: (samples, right, cluster)}."""
    counts: dict[Hashable, tuple[int, int, Hashable]] = {}
    for item, cluster, right in outcomes:
        n, c, _ = counts.get(item, (0, 0, cluster))
        counts[item] = (n + 1, c + int(right), cluster)
    return counts


def passk_block(outcomes: Iterable[tuple[Hashable, Hashable, bool]]) -> dict[str, Any] | None:
    """``{"pass@k": {value, low, high}, "pass^k": {...}}`` for k = 2..min samples per item, or
    None when some item has a single sample."""
    counts = item_counts(outcomes)
    k_max = min((n for n, _, _ in counts.values()), default=0)
    if k_max < 2:
        return None
    clusters = [cluster for _, _, cluster in counts.values()]
    out: dict[str, Any] = {"items": len(counts), "samples_per_item": k_max}
    for k in range(2, k_max + 1):
        for prefix, estimator in ESTIMATORS.items():
            values = [estimator(n, c, k) for n, c, _ in counts.values()]
            estimate = share_estimate(values, clusters)
            out[f"{prefix}{k}"] = {
                "value": round(estimate.value, DIGITS),
                "low": round(estimate.low, DIGITS),
                "high": round(estimate.high, DIGITS),
            }
    return out
