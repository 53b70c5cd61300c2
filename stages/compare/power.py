"""Power, minimum detectable effect (MDE) and the items needed for a target MDE (issue 18).

The MDE of a row is the smallest true difference that its own verdict rule — its test at the
level the row is first tested at (alpha over the number of primary rows, see
:mod:`stages.compare.multiplicity`) *and* its 95 % interval excluding zero — detects with 80 %
probability. It is computed under the alternative, not the null:

* **Binary rows.** The share s of discordant records there would be without an effect
  (:func:`no_effect_discordance`) fixes how often B breaks an item A gets right:
  P(right -> wrong) = s/2 stays, P(wrong -> right) = s/2 + delta grows with the effect (for a
  loss the roles swap; the power is the same). Independent items:
  the exact power of McNemar's test together with the score-interval condition, summed over the
  number of discordant pairs. Shared clusters (and more than 20,000 independent items): the
  score statistic is approximately normal with mean delta * sqrt(n / (deff (p01 + p10))) and
  variance (p01 + p10 - delta^2) / (p01 + p10); with clusters its estimation noise is taken as
  t(G - 1).
* **Graded rows**: the t test on the cluster-robust standard error; power from the noncentral t
  (G - 1, or the Bell–McCaffrey df the comparison passes).

The functions take numpy arrays (one element per row or per simulated table) so that the Monte
Carlo test computes the MDE of every replicate with this very code. Above :data:`CAP` of the
row's scale (or what the accuracies allow) the MDE is reported as capped.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats as sps

from stages.compare.paired import Z_95
from stages.compare.row import MIN_PLAN_CLUSTERS
from stages.scoring.interval import wilson

Array = NDArray[np.float64]
POWER = 0.80
#: Largest MDE reported as a number, as a share of the row's scale (50 points of accuracy).
CAP = 0.5
#: Above this many independent records the exact (summed) power gives way to the normal form.
EXACT_LIMIT = 20_000
#: One-sided confidence of the planning bounds (:func:`planning_inputs`).
UPPER = 0.75
UPPER_Z = float(sps.norm.isf(1 - UPPER))
#: Bisection steps: 2^-24 of the cap, far below the printed digits.
_STEPS = 24


@lru_cache(maxsize=256)
def _critical_counts(n: int, level: float) -> Array:
    """For D = 0..n discordant pairs: the smallest wrong->right count that both McNemar's exact
    test at ``level`` and the 95 % score interval call significant (above D where none is)."""
    discordant = np.arange(n + 1, dtype=float)
    low = sps.binom.ppf(level / 2, discordant, 0.5)
    low = np.where(sps.binom.cdf(low, discordant, 0.5) > level / 2, low - 1, low)
    exact = discordant - low  # right->wrong <= low  <=>  wrong->right >= D - low
    score = np.floor((discordant + Z_95 * np.sqrt(discordant)) / 2) + 1
    critical = np.asarray(
        np.maximum(np.maximum(exact, score), np.ceil(discordant / 2)), dtype=float
    )
    critical.setflags(write=False)  # shared by the cache
    return critical


def binary_power(
    n: int, clusters: int, deff: ArrayLike, discordance: ArrayLike, delta: ArrayLike, level: float,
    exact: bool = True, df: ArrayLike | None = None,
) -> Array:  # fmt: skip
    """Probability that a binary row says "B better" at true ``delta`` >= 0, element-wise;
    ``discordance`` is the share of discordant records when there is no effect. ``exact=False``
    takes the normal form for independent records too (a plan's first search). ``df``: the
    degrees of freedom of the clustered t reference (default G - 1)."""
    p10 = np.asarray(discordance, dtype=float) / 2
    effect = np.asarray(delta, dtype=float)
    p10, effect, design = np.broadcast_arrays(p10, effect, np.asarray(deff, dtype=float))
    p01 = p10 + effect
    both = np.maximum(p01 + p10, 1e-300)
    if clusters >= n and n <= EXACT_LIMIT and exact:
        # Sum over the numbers of discordant pairs that carry any probability (12 standard
        # deviations either side: what lies beyond weighs less than 1e-30).
        share = np.minimum(both, 1.0)
        spread = 12 * np.sqrt(n * share * (1 - share)) + 12
        first = int(max(0.0, float(np.min(n * share - spread))))
        last = int(min(float(n), float(np.max(n * share + spread))))
        counts = np.arange(first, last + 1, dtype=float)
        critical = _critical_counts(n, level)[first : last + 1]
        weights = sps.binom.pmf(counts, n, share[..., None])
        tails = sps.binom.sf(critical - 1, counts, (p01 / both)[..., None])
        return np.asarray(np.sum(weights * tails, axis=-1), dtype=float)
    mean = effect * np.sqrt(n / (design * both))
    sd = np.sqrt(np.maximum(both - effect * effect, 1e-12) / both)
    if clusters >= n:
        bound = max(float(sps.norm.isf(level / 2)), Z_95)
        return np.asarray(sps.norm.sf((bound - mean) / sd), dtype=float)
    dof = clusters - 1 if df is None else np.asarray(df, dtype=float)
    bound = np.maximum(sps.t.isf(level / 2, dof), sps.t.isf(0.025, dof))
    return np.asarray(sps.t.sf((bound - mean) / sd, dof), dtype=float)


def solve(power_at: Callable[[Array], Array], high: ArrayLike) -> tuple[Array, NDArray[np.bool_]]:
    """Smallest delta in (0, high] with power >= :data:`POWER`, element-wise by bisection, and
    whether it is capped (even ``high`` falls short; the MDE is then ``high``)."""
    top = np.asarray(high, dtype=float)
    capped = power_at(top) < POWER
    low, up = np.zeros_like(top), top.copy()
    for _ in range(_STEPS):
        mid = (low + up) / 2
        enough = power_at(mid) >= POWER
        low, up = np.where(enough, low, mid), np.where(enough, mid, up)
    return np.where(capped, top, up), capped


def no_effect_discordance(down: ArrayLike, up: ArrayLike, n: int) -> Array:
    """The share of discordant records there would be without an effect: b + c, less the part
    of |c - b| beyond what chance gives at 95 % (a real effect adds flips one way only). Without
    a significant imbalance it is (b + c)/n, the null estimate."""
    b, c = np.asarray(down, dtype=float), np.asarray(up, dtype=float)
    excess = np.maximum(np.abs(c - b) - Z_95 * np.sqrt(b + c), 0.0)
    return np.asarray((b + c - excess) / n, dtype=float)


def planning_inputs(
    n: int, clusters: int, deff: Array, discordance: Array, df: ArrayLike | None = None
) -> tuple[Array, Array]:
    """The design effect and discordance the MDE is computed with: their upper 75 % confidence
    bounds (chi-square on ``df`` degrees of freedom, default G - 1, for the design effect;
    Wilson on n, or on G when clusters are shared, for the discordance). Power falls faster
    below 80 % than it rises above, so point estimates would give less than 80 % on average at
    the printed MDE."""
    if clusters >= n:
        return deff, wilson(discordance, float(n), UPPER_Z)[1]
    dof = clusters - 1 if df is None else np.asarray(df, dtype=float)
    inflate = dof / sps.chi2.ppf(1 - UPPER, dof)
    return deff * inflate, wilson(discordance, float(clusters), UPPER_Z)[1]


def binary_mde(
    n: int,
    clusters: int,
    deff: ArrayLike,
    discordance: ArrayLike,
    accuracy_a: ArrayLike,
    level: float,
    exact: bool = True,
    df: ArrayLike | None = None,
) -> tuple[Array, NDArray[np.bool_]]:
    """(MDE, capped) of binary rows with n records in G clusters; the largest effect considered
    is :data:`CAP` or what the accuracies allow (B cannot rise above 100 % nor fall below 0)."""
    dof_given = np.asarray(clusters - 1 if df is None else df, dtype=float)
    design, observed, acc, dof = np.broadcast_arrays(
        np.asarray(deff, dtype=float),
        np.asarray(discordance, dtype=float),
        np.asarray(accuracy_a, dtype=float),
        np.maximum(dof_given, 1.0),
    )
    design, share = planning_inputs(n, clusters, design, observed, dof)
    room = np.maximum(1.0 - acc, acc) - observed / 2
    high = np.maximum(np.minimum(CAP, room), 1e-9)
    # Rows (or replicates) with the same inputs have the same MDE: solve each once.
    keys = np.stack([design.ravel(), share.ravel(), high.ravel(), dof.ravel()])
    unique, inverse = np.unique(keys, axis=1, return_inverse=True)
    mde, capped = solve(
        lambda d: binary_power(n, clusters, unique[0], unique[1], d, level, exact, unique[3]),
        unique[2],
    )
    shape = design.shape
    return mde[inverse].reshape(shape), capped[inverse].reshape(shape)


def graded_power(
    se: float, clusters: int, delta: ArrayLike, level: float, df: float | None = None
) -> Array:
    """Probability that the t test of a graded row (``df`` degrees of freedom, default G - 1)
    rejects at true ``delta``."""
    df = clusters - 1 if df is None else df
    critical = max(float(sps.t.isf(level / 2, df)), float(sps.t.isf(0.025, df)))
    shift = np.asarray(delta, dtype=float) / se
    with np.errstate(invalid="ignore"):
        exact = sps.nct.sf(critical, df, shift) + sps.nct.cdf(-critical, df, shift)
    # scipy's noncentral t gives NaN far in the tail (shift ~ 35 at df 80), which the MDE search
    # read as "short of the power" and so printed a far too large MDE; there the normal
    # approximation is exact to float precision (the power is 1 to 15 digits)
    normal = sps.norm.sf(critical - shift) + sps.norm.cdf(-critical - shift)
    return np.asarray(np.where(np.isnan(exact), normal, exact), dtype=float)


def graded_mde(
    se: float, clusters: int, span: float, level: float, df: float | None = None
) -> tuple[float, bool]:
    """(MDE, capped) of a graded row whose scores span ``span`` (1 for F1, 100 for chrF++)."""
    if not se > 0:
        raise ValueError("a graded MDE needs a positive standard error")
    mde, capped = solve(lambda d: graded_power(se, clusters, d, level, df), np.array(CAP * span))
    return float(mde), bool(capped)


def binary_mde_printable(n: int, clusters: int, effective: float | None = None) -> bool:
    """Whether a binary row's power can be told well enough to print its MDE: independent
    records, or at least :data:`~stages.compare.row.MIN_PLAN_CLUSTERS` effective shared
    clusters (``effective``, default G: :mod:`stages.compare.cluster_variance`)."""
    return clusters >= n or (clusters if effective is None else effective) >= MIN_PLAN_CLUSTERS


def binary_verdict_possible(n: int, clusters: int, level: float, min_clusters: int) -> bool:
    """Whether any table could give a verdict: the exact test's smallest p (all n flipped one
    way) below ``level``, or enough clusters for the clustered test."""
    if n < 1:
        return False
    if clusters >= n:
        return 2.0 * 0.5**n < level
    return clusters >= min_clusters
