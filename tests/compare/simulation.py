"""A Monte Carlo model of paired verdicts with known truth, and the project's statistics applied
to it, vectorised over replicates (issue 18). It imports nothing of the project, so the
same draws can be judged by this code (``current.py``) and by the code before issue 18
(``tests/bench/compare_before.py``); ``grid.py`` defines the cells.

The model. Each record is a pair (A right?, B right?) drawn from four cell probabilities: both
wrong, wrong -> right (p01), right -> wrong (p10), both right. With accuracy p at A and, under no
effect, a share s of discordant records: p01 = p10 = s/2; a true difference delta > 0 adds to
p01 (B fixes more), delta < 0 to p10 (B breaks more), so the discordance grows with the effect.
Records come in G clusters of m: each cluster draws one "seed" pair and each of its records copies
it with probability rho, else draws its own — every record keeps the cell probabilities above
(the truth is exact), and records of one cluster are correlated (rho^2). The designs:

* independent: m = 1;
* clustered4, clustered10: m = 4 or 10 items sharing a context, rho = 0.7;
* repeated3: an item answered 3 times whose outcome depends mostly on the item, rho = 0.8.

Items are in 3 categories (record position modulo 3, so each cluster spans several).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
CATEGORIES = 3


@dataclass(frozen=True)
class Design:
    name: str
    size: int
    """Records per cluster (m)."""
    rho: float


DESIGNS = {
    "independent": Design("independent", 1, 0.0),
    "clustered4": Design("clustered4", 4, 0.7),
    "clustered10": Design("clustered10", 10, 0.7),
    "repeated3": Design("repeated3", 3, 0.8),
}


def null_discordance(p: float) -> float:
    """Share of discordant records under no effect: 60 % of the smaller of p and 1 - p."""
    return 0.6 * min(p, 1.0 - p)


def cell_probabilities(p: float, delta: Array | float) -> Array:
    """(..., 4) probabilities of (both wrong, wrong->right, right->wrong, both right)."""
    s = null_discordance(p)
    d = np.asarray(delta, dtype=float)
    p01 = s / 2 + np.maximum(d, 0.0)
    p10 = s / 2 + np.maximum(-d, 0.0)
    p11 = p - s / 2 - np.maximum(-d, 0.0)
    p00 = 1.0 - p01 - p10 - p11
    cells = np.stack(np.broadcast_arrays(p00, p01, p10, p11), axis=-1)
    if np.any(cells < -1e-12):
        raise ValueError(f"delta {d} is impossible at accuracy {p}")
    return np.asarray(np.clip(cells, 0.0, 1.0), dtype=float)


def draw(
    rng: np.random.Generator, shape: tuple[int, ...], groups: int, design: Design, cells: Array
) -> NDArray[np.int8]:
    """Cell codes 0-3 of shape ``shape + (G, m)``; ``cells`` is (4,) or ``shape + (4,)``."""
    cum = np.cumsum(cells, axis=-1)
    if cum.ndim == 1:

        def pick(u: NDArray[np.float32]) -> NDArray[np.int8]:
            return np.searchsorted(cum[:3], u, side="right").astype(np.int8)

    else:
        edges = cum[..., None, None, :3]

        def pick(u: NDArray[np.float32]) -> NDArray[np.int8]:
            return (u[..., None] >= edges).sum(-1, dtype=np.int8)

    m = design.size
    own = pick(rng.random((*shape, groups, m), dtype=np.float32))
    if design.rho == 0:
        return own
    seed = pick(rng.random((*shape, groups, 1), dtype=np.float32))
    copy = rng.random((*shape, groups, m), dtype=np.float32) < design.rho
    return np.where(copy, seed, own)


@dataclass(frozen=True)
class Sample:
    """Simulated records: cell codes (G, m) for clustered designs; for independent records only
    the cell counts per category matter (the statistics are functions of them), drawn directly."""

    groups: int
    design: Design
    codes: NDArray[np.int8] | None
    counts: NDArray[np.int64] | None
    """(..., CATEGORIES, 4) cell counts per category (independent designs)."""


def sample(
    rng: np.random.Generator, shape: tuple[int, ...], groups: int, design: Design, cells: Array
) -> Sample:
    """Records of ``shape`` tables (see :func:`draw`)."""
    if design.size > 1:
        return Sample(groups, design, draw(rng, shape, groups, design, cells), None)
    sizes = [len(range(j, groups, CATEGORIES)) for j in range(CATEGORIES)]
    probabilities = np.broadcast_to(cells, (*shape, 4))
    counts = np.stack([rng.multinomial(k, probabilities) for k in sizes], axis=-2)
    return Sample(groups, design, None, counts)


def tables(data: Sample, category: int | None = None) -> Tables:
    """The row of the whole workload (category None) or of one category."""
    if data.codes is not None:
        mask = None if category is None else category_masks(data.groups, data.design.size)[category]
        return summarise(data.codes, mask)
    assert data.counts is not None
    chosen = data.counts.sum(-2) if category is None else data.counts[..., category, :]
    counts = chosen.astype(float)
    n = int(round(float(counts[(0,) * (counts.ndim - 1)].sum())))
    up, down, right = counts[..., 1], counts[..., 2], counts[..., 2] + counts[..., 3]
    variance = (up + down - (up - down) ** 2 / n) / max(n - 1, 1)
    share_a = right / n
    variance_a = share_a * (1 - share_a) * n / max(n - 1, 1)
    # independent records: CR1 and CR2 are exactly the iid standard error s / sqrt(n)
    whole = np.full(up.shape, float(n - 1))
    return Tables(n, n, down, up, np.sqrt(variance / n), variance, share_a,
                  np.sqrt(variance_a / n), whole, whole, n - 1.0, float(n))  # fmt: skip


@dataclass(frozen=True)
class Tables:
    """Per replicate (and workload): the counts and cluster statistics of one row."""

    n: int
    clusters: int
    down: Array
    up: Array
    se: Array
    """CR2 standard error of the mean difference (CR1 when the clusters have equal sizes)."""
    variance: Array
    """Sample variance (n - 1) of the per-record differences."""
    share_a: Array
    se_a: Array
    """CR2 standard error of A's accuracy (the single-revision interval)."""
    df: Array | None = None
    """Degrees of freedom of the clustered t reference (issue 34): the smaller of the
    Bell–McCaffrey df and 2 (sum w_g)^2 / sum w_g^2, w_g = S_g^2 / (1 - m_g / n)."""
    df_a: Array | None = None
    design_df: float | None = None
    """The Bell–McCaffrey df alone (what the MDE is planned with)."""
    effective: float | None = None
    """Effective clusters (sum m_g)^2 / sum m_g^2."""

    @property
    def n_replicates(self) -> int:
        return int(self.up.shape[0])


def _cr2(sums: Array, sizes: NDArray[np.int64], mean: Array, n: int) -> tuple[Array, Array, float]:
    """(CR2 standard error, small-sample df, Bell–McCaffrey df) from per-cluster sums (clusters
    with records only): w_g = (S_g - m_g mean)^2 / (1 - m_g / n), se^2 = sum w_g / n^2; the df
    is the smaller of the Bell–McCaffrey df (closed form for a mean, as in
    ``stages.compare.cluster_variance``, written out again here so that this model stays
    independent of the code it judges) and 2 (sum w)^2 / sum w^2."""
    used = sizes > 0
    m = sizes[used].astype(float)
    keep = 1.0 - m / n
    w = (sums[..., used] - mean[..., None] * m) ** 2 / keep
    d, u2 = m / (n * n * keep), m * m / (n**3 * keep)
    bell_mccaffrey = (1.0 / n) ** 2 / ((d * d).sum() - 2 * (d * u2).sum() + u2.sum() ** 2)
    total, squares = w.sum(-1), (w * w).sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        data = np.where(squares > 0, 2.0 * total * total / squares, np.inf)
    df = np.minimum(bell_mccaffrey, np.maximum(data, 1.0))
    return np.asarray(np.sqrt(total) / n), np.asarray(df, dtype=float), float(bell_mccaffrey)


def summarise(codes: NDArray[np.int8], mask: NDArray[np.bool_] | None = None) -> Tables:
    """Row statistics over the records selected by ``mask`` (G, m) (all when None), from the
    per-cluster counts (differences are -1, 0, 1 and outcomes 0, 1, so sums suffice)."""
    groups, m = codes.shape[-2:]
    keep = np.ones((groups, m), dtype=bool) if mask is None else mask
    sizes = keep.sum(-1)
    n, used = int(sizes.sum()), int((sizes > 0).sum())

    def per_cluster(selected: NDArray[np.bool_]) -> Array:
        chosen = selected if mask is None else selected & keep
        return chosen.sum(-1, dtype=np.int32).astype(float)

    up_g, down_g, right_g = (
        per_cluster(codes == 1),
        per_cluster(codes == 2),
        per_cluster(codes >= 2),
    )
    up, down = up_g.sum(-1), down_g.sum(-1)
    mean = (up - down) / n
    share_a = right_g.sum(-1) / n
    se, df, design_df = _cr2(up_g - down_g, sizes, mean, n)
    se_a, df_a, _ = _cr2(right_g, sizes, share_a, n)
    m = sizes[sizes > 0].astype(float)
    return Tables(
        n=n,
        clusters=used,
        down=down,
        up=up,
        se=se,
        variance=(up + down - (up - down) ** 2 / n) / max(n - 1, 1),
        share_a=share_a,
        se_a=se_a,
        df=df,
        df_a=df_a,
        design_df=design_df,
        effective=float(m.sum() ** 2 / (m * m).sum()),
    )


def category_masks(groups: int, m: int) -> list[NDArray[np.bool_]]:
    position = np.arange(groups * m).reshape(groups, m)
    return [position % CATEGORIES == j for j in range(CATEGORIES)]


@dataclass(frozen=True)
class Tested:
    """What a binary row says for each replicate (filled by an estimator: ``current.py`` for
    this code, ``tests/bench/compare_before.py`` for the code before issue 18)."""

    p: Array
    low: Array
    """Interval bounds; NaN where no interval is printed."""
    high: Array
    deff: Array
    testable: bool
    """Whether the row has a test and an interval at all."""
    possible: bool
    """Whether a verdict is possible (what decides if the row takes part in multiplicity)."""


def covered(tested: Tested, delta: float) -> Array:
    """Whether each interval holds the true difference (NaN where no interval is printed)."""
    hit = (tested.low <= delta + 1e-12) & (delta - 1e-12 <= tested.high)
    return np.where(np.isnan(tested.low), np.nan, hit.astype(float))
