"""A floor under the CR2 standard error of graded rows in clusters of unequal sizes (issue 34):
the standard error of the mean under an exchangeable model, whose intra-cluster correlation is
estimated from all clusters.

Why: a graded row in which B changes few items, in clusters of very unequal sizes, has its
difference carried by a few large clusters that changed as a whole. In a table where none of
them happened to change, the changed items sit in small clusters, the CR2 variance (built from the
clusters that did vary) is small, and so is every degrees-of-freedom correction read from the
same sums: the interval then missed a true +5 points from above in 8.6 % of tables (60
heavy-tailed clusters, copy model, B changes 15 % of the items; coverage 91.3 %). The
exchangeable variance does not depend on which clusters varied: it applies the correlation the
small clusters show to the sizes of all clusters, so the large clusters count with the weight
they could have had. Measured (docs/comparing.md, 3,000 tables a cell): coverage 97.0 % in that
cell, 96.0-97.0 % in every heavy-tailed graded cell, type-I error 2.1-4.0 % there. With equal
sizes the floor is not used (the CR2 variance is then unbiased whichever clusters vary, and the
cells hold without it).

The model: value i of cluster g has variance sigma^2 and correlation rho with every other value
of its cluster, none across clusters. Then var(mean) = sigma^2 / n^2 * sum_g m_g (1 + (m_g - 1)
rho). sigma^2 is the sample variance of the values (n - 1 denominator) and rho the one-way ANOVA
estimate for unequal sizes, (MSB - MSW) / (MSB + (m0 - 1) MSW) with m0 = (n - sum m_g^2 / n) /
(G - 1), clipped to [0, 1] (S. R. Searle, G. Casella and C. E. McCulloch, Variance Components,
1992, section 3.6).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

Array = NDArray[np.float64]


def exchangeable_variance(sums: ArrayLike, squares: ArrayLike, sizes: ArrayLike) -> Array:
    """Variance of the mean under the exchangeable model (module docstring) from the clusters'
    sums of values and of squared deviations from their cluster's own mean, (..., G) each, and
    their sizes (G,); element-wise over the leading axes. Needs 2 <= G < n."""
    s = np.asarray(sums, dtype=float)
    within = np.asarray(squares, dtype=float).sum(-1)
    m = np.asarray(sizes, dtype=float)
    n, groups = float(m.sum()), len(m)
    if not 2 <= groups < n:
        raise ValueError("the exchangeable variance needs 2 <= clusters < values")
    mean = s.sum(-1) / n
    between = (s * s / m).sum(-1) - n * mean * mean
    msb, msw = np.maximum(between, 0.0) / (groups - 1), within / (n - groups)
    m0 = (n - float((m * m).sum()) / n) / (groups - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = (msb - msw) / (msb + (m0 - 1.0) * msw)
    rho = np.clip(np.nan_to_num(rho, nan=0.0), 0.0, 1.0)
    sigma2 = (np.maximum(between, 0.0) + within) / (n - 1.0)
    weight = (m * (1.0 + (m - 1.0) * rho[..., None])).sum(-1)
    return np.asarray(sigma2 * weight / (n * n), dtype=float)


def exchangeable_se(values: Sequence[float], clusters: Sequence[Hashable]) -> float:
    """The exchangeable standard error of the mean of ``values`` in ``clusters``."""
    groups: dict[Hashable, list[float]] = {}
    for value, key in zip(values, clusters, strict=True):
        groups.setdefault(key, []).append(value)
    sums = np.array([math.fsum(v) for v in groups.values()])
    sizes = np.array([len(v) for v in groups.values()], dtype=float)
    squares = np.array(
        [math.fsum((x - math.fsum(v) / len(v)) ** 2 for x in v) for v in groups.values()]
    )
    return float(np.sqrt(exchangeable_variance(sums, squares, sizes)))


def unequal(sizes: ArrayLike) -> bool:
    """Whether the clusters differ in size (the floor applies only then)."""
    m = np.asarray(sizes)
    return bool(m.size > 1 and m.min() != m.max())
