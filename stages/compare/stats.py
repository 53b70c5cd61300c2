"""Paired statistics of two revisions scored on the same items (issue 10).

* Standard error of the mean paired difference d_i = B_i - A_i, clustered by the items' cluster
  key (CR1, :mod:`stages.scoring.clustered`), with a CLT 95 % interval — the paired, clustered
  analysis of E. Miller, "Adding Error Bars to Evals" (2024).
* McNemar's exact test for binary items: under "no difference" each discordant pair is equally
  likely to go either way, so the smaller of the two discordant counts is Binomial(b + c, 1/2);
  the two-sided p doubles its lower tail (capped at 1). statsmodels' ``mcnemar(exact=True)``
  computes the same.
* Holm's step-down adjustment across the rows of one family (statsmodels ``multipletests``,
  ``method="holm"``).
* Minimum detectable effect at 80 % power for a two-sided 5 % test:
  (z_{0.975} + z_{0.80}) * sigma_0 / sqrt(n), where sigma_0^2 is the variance of d when the
  revisions do not differ — for binary items the share of discordant pairs, for graded items the
  sample variance of d. This is the normal-approximation formula of Miller's power section; it
  neglects the far rejection tail (under 1e-6 of power at these effect sizes).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

ALPHA = 0.05
POWER = 0.80


def mcnemar_exact(right_to_wrong: int, wrong_to_right: int) -> float:
    """Two-sided exact McNemar p from the two discordant counts (1.0 when there are none)."""
    if right_to_wrong < 0 or wrong_to_right < 0:
        raise ValueError("discordant counts are never negative")
    n = right_to_wrong + wrong_to_right
    low = min(right_to_wrong, wrong_to_right)
    tail = math.fsum(math.comb(n, k) for k in range(low + 1)) / 2.0**n
    return min(1.0, 2.0 * tail)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given (monotone, capped at 1)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[index]))
        adjusted[index] = running
    return adjusted


def z_quantile(p: float) -> float:
    return NormalDist().inv_cdf(p)


def minimum_detectable_effect(
    n: int, null_variance: float, alpha: float = ALPHA, power: float = POWER
) -> float | None:
    """Smallest true mean difference a two-sided level-``alpha`` test detects with ``power``,
    for ``n`` pairs whose difference has variance ``null_variance`` when there is no effect.

    None when it is undefined: no pairs, or no variation at all (no discordant pair).
    """
    if n < 1 or null_variance <= 0:
        return None
    multiplier = z_quantile(1 - alpha / 2) + z_quantile(power)
    return multiplier * math.sqrt(null_variance / n)


def wald_p(estimate: float, se: float) -> float:
    """Two-sided normal p of ``estimate`` / ``se`` (se > 0)."""
    return 2.0 * NormalDist().cdf(-abs(estimate) / se)


def sample_variance(values: Sequence[float]) -> float:
    """Variance with the n - 1 denominator (0.0 for fewer than two values)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.fsum((v - mean) ** 2 for v in values) / (n - 1)
