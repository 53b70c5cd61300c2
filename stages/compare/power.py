"""Power, minimum detectable effect (MDE) and the items needed for a target MDE (issue 18).

The MDE of a row is the smallest true difference that its own verdict rule — its test at the
level the row is tested at (alpha over the size of its Holm family, see
:mod:`stages.compare.multiplicity`) *and* its 95 % interval excluding zero — detects with 80 %
probability. It is computed under the alternative, not the null:

* **Binary rows.** The observed share of discordant records s = (b + c)/n fixes how often B
  breaks an item A gets right: P(right -> wrong) = s/2 stays, P(wrong -> right) = s/2 + delta
  grows with the effect (for a loss the roles swap; the power is the same). Independent items:
  the exact power of McNemar's test plus the score-interval condition, summed over the number of
  discordant pairs. Shared clusters: the Rao–Scott score statistic is approximately normal with
  mean delta * sqrt(n / (deff (p01 + p10))) and variance (p01 + p10 - delta^2) / (p01 + p10),
  its estimation noise taken as t(G - 1).
* **Graded rows**: the Wald t on the CR1 standard error; power from the noncentral t(G - 1).

No MDE is printed where no verdict is possible (too few clusters, too few items for the exact
test ever to reach the level, no variation in a graded row). Above :data:`CAP` (of the row's
scale) the MDE is reported as capped.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy import stats as sps

from stages.compare.paired import Z_95

POWER = 0.80
#: Largest MDE reported as a number, as a share of the row's scale (50 points of accuracy).
CAP = 0.5
#: Above this many records the exact (summed) binary power gives way to the normal form.
EXACT_LIMIT = 20_000
_STEPS = 50


def _mcnemar_critical(discordant: np.ndarray, level: float) -> np.ndarray:
    """Per number of discordant pairs D: the smallest wrong->right count the exact test and the
    95 % score interval both call significant (D + 1 where none is)."""
    low = sps.binom.ppf(level / 2, discordant, 0.5)
    low = np.where(sps.binom.cdf(low, discordant, 0.5) > level / 2, low - 1, low)
    exact = discordant - low  # b <= low  <=>  c >= D - low
    score = np.floor((discordant + Z_95 * np.sqrt(discordant)) / 2) + 1
    return np.maximum(np.maximum(exact, score), np.ceil(discordant / 2))


def binary_power(
    n: int, clusters: int, deff: float, discordance: float, delta: float, level: float
) -> float:
    """Probability that a binary row with these design facts says "B better" at true ``delta``
    (>= 0); ``discordance`` is the share of discordant records when there is no effect."""
    p10 = discordance / 2
    p01 = p10 + delta
    both = p01 + p10
    if both <= 0:
        return 0.0
    if clusters >= n and n <= EXACT_LIMIT:
        counts = np.arange(n + 1, dtype=float)
        first = _mcnemar_critical(counts, level)
        weights = sps.binom.pmf(counts, n, min(1.0, both))
        tails = sps.binom.sf(first - 1, counts, p01 / both)
        return float(np.sum(weights * tails))
    mean = delta * math.sqrt(n / (deff * both))
    sd = math.sqrt(max(both - delta * delta, 1e-12) / both)
    if clusters >= n:  # many independent items: the normal form of the same test
        critical = max(float(sps.norm.isf(level / 2)), Z_95)
        return float(sps.norm.sf((critical - mean) / sd))
    df = clusters - 1
    critical = max(float(sps.t.isf(level / 2, df)), float(sps.t.isf(0.025, df)))
    return float(sps.t.sf((critical - mean) / sd, df))


def graded_power(se: float, clusters: int, delta: float, level: float) -> float:
    """Probability that the Wald t(G - 1) test of a graded row rejects at true ``delta``."""
    df = clusters - 1
    critical = float(sps.t.isf(level / 2, df))
    shift = delta / se
    return float(sps.nct.sf(critical, df, shift) + sps.nct.cdf(-critical, df, shift))


def solve(power_at: Callable[[float], float], high: float) -> tuple[float, bool]:
    """Smallest delta in (0, high] with power >= :data:`POWER` by bisection; (high, True) when
    even ``high`` falls short (capped)."""
    if power_at(high) < POWER:
        return high, True
    low, up = 0.0, high
    for _ in range(_STEPS):
        mid = (low + up) / 2
        if power_at(mid) >= POWER:
            up = mid
        else:
            low = mid
    return up, False


def binary_mde(
    n: int, clusters: int, deff: float, discordance: float, accuracy_a: float, level: float
) -> tuple[float, bool]:
    """(MDE, capped) of a binary row; the largest effect considered is :data:`CAP` or what the
    accuracies allow (an improvement cannot lift B above 100 %, a loss below 0 %)."""
    room = max(1.0 - accuracy_a, accuracy_a) - discordance / 2
    high = max(min(CAP, room), 1e-9)
    return solve(lambda d: binary_power(n, clusters, deff, discordance, d, level), high)


def graded_mde(se: float, clusters: int, span: float, level: float) -> tuple[float, bool]:
    """(MDE, capped) of a graded row whose scores span ``span`` (1 for F1, 100 for chrF++)."""
    return solve(lambda d: graded_power(se, clusters, d, level), CAP * span)


def binary_verdict_possible(n: int, clusters: int, level: float, min_clusters: int) -> bool:
    """Whether any table could give a verdict: the exact test's smallest p (all n flipped one
    way) below ``level``, or enough clusters for the clustered test."""
    if n < 1:
        return False
    if clusters >= n:
        return 2.0 * 0.5**n < level
    return clusters >= min_clusters
