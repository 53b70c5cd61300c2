"""The exchangeable floor under the CR2 standard error of graded rows in unequal clusters
(issue 34, :mod:`stages.compare.exchangeable`): hand-computed values, and where it applies."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stages.compare.cluster_variance import cluster_fit
from stages.compare.exchangeable import exchangeable_se, exchangeable_variance
from stages.compare.measures import mean_test

# Clusters a: 1 1 1 1, b: 0, c: 0 1 (n = 7, G = 3, mean 5/7).
VALUES = [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0]
CLUSTERS = ["a", "a", "a", "a", "b", "c", "c"]


def _by_hand() -> Fraction:
    """SSB = 4 (2/7)^2 + (5/7)^2 + 2 (3/14)^2 = 13/14, SSW = 1/2, MSB = 13/28, MSW = 1/8,
    m0 = (7 - 21/7) / 2 = 2, rho = (13/28 - 1/8) / (13/28 + 1/8) = 19/33, sigma^2 = (13/14 +
    1/2) / 6 = 5/21, sum m (1 + (m - 1) rho) = 7 + 14 * 19/33 = 497/33; var = sigma^2 * 497/33 /
    49 = 355/4851."""
    rho = (Fraction(13, 28) - Fraction(1, 8)) / (Fraction(13, 28) + Fraction(1, 8))
    assert rho == Fraction(19, 33)
    return Fraction(5, 21) * (7 + 14 * rho) / 49


def test_exchangeable_variance_by_hand() -> None:
    assert _by_hand() == Fraction(355, 4851)
    sums, squares, sizes = [4.0, 0.0, 1.0], [0.0, 0.0, 0.5], [4, 1, 2]
    assert float(exchangeable_variance(sums, squares, sizes)) == pytest.approx(355 / 4851, 1e-12)
    assert exchangeable_se(VALUES, CLUSTERS) == pytest.approx(math.sqrt(355 / 4851), 1e-12)


def test_exchangeable_variance_clips_the_correlation() -> None:
    # Clusters that differ less than their values do (rho estimate below 0): rho = 0, the plain
    # sample variance over n: values 0 1 | 0 1 | 1 0 1 0 have mean 1/2, sigma^2 = 2/7.
    sums, squares, sizes = [1.0, 1.0, 2.0], [0.5, 0.5, 1.0], [2, 2, 4]
    assert float(exchangeable_variance(sums, squares, sizes)) == pytest.approx(2 / 7 / 8, 1e-12)
    with pytest.raises(ValueError, match="clusters < values"):
        exchangeable_variance([1.0, 1.0], [0.0, 0.0], [1, 1])


def test_graded_rows_take_the_floor_on_unequal_clusters_only() -> None:
    # 42 clusters (31.4 effective); the differences vary in the small clusters only, the two
    # clusters of 8 at the end did not change.
    sizes = [1, 2, 3, 4] * 10 + [8, 8]
    clusters = [f"g{g}" for g, m in enumerate(sizes) for _ in range(m)]
    diffs = [0.0] * len(clusters)
    for k in range(0, 30, 3):
        diffs[k] = 0.5
    tested = mean_test(diffs, clusters, 1.0)
    cr2 = cluster_fit(diffs, clusters).se
    floor = exchangeable_se(diffs, clusters)
    assert floor > cr2 and tested.se == floor
    # equal sizes: CR2 as before, however the values vary
    equal = [f"g{i // 4}" for i in range(100)]
    varied = [0.5 * (i % 7 == 0) - 0.25 * (i % 11 == 0) for i in range(100)]
    assert mean_test(varied, equal, 1.0).se == cluster_fit(varied, equal).se
    # independent items: no clusters to floor
    assert mean_test(varied, list(range(100)), 1.0).se == cluster_fit(varied, list(range(100))).se
    assert np.isfinite(tested.df or math.nan)


@given(
    st.lists(st.integers(1, 6), min_size=2, max_size=8).filter(lambda m: max(m) > 1),
    st.integers(0, 2**32 - 1),
)
@settings(max_examples=60, deadline=None)
def test_exchangeable_variance_is_the_exchangeable_models_variance(
    sizes: list[int], seed: int
) -> None:
    """Against the model's own matrix form, var(mean) = 1' S 1 / n^2 with S = sigma^2 ((1 - rho)
    I + rho J) within clusters, sigma^2 and rho computed by the textbook ANOVA formulas."""
    rng = np.random.default_rng(seed)
    values = [rng.choice([0.0, 0.5, 1.0], m) for m in sizes]
    flat = np.concatenate(values)
    n, groups = len(flat), len(sizes)
    means = [v.mean() for v in values]
    ssb = sum(m * (c - flat.mean()) ** 2 for m, c in zip(sizes, means, strict=True))
    ssw = sum(((v - v.mean()) ** 2).sum() for v in values)
    msb, msw = ssb / (groups - 1), ssw / (n - groups)
    m0 = (n - sum(m * m for m in sizes) / n) / (groups - 1)
    denominator = msb + (m0 - 1) * msw
    rho = min(max((msb - msw) / denominator, 0.0), 1.0) if denominator > 0 else 0.0
    key = np.repeat(np.arange(groups), sizes)
    same = key[:, None] == key[None, :]
    cov = flat.var(ddof=1) * np.where(same, rho, 0.0)
    np.fill_diagonal(cov, flat.var(ddof=1))
    expected = cov.sum() / n**2
    clusters = [f"c{k}" for k in key]
    assert exchangeable_se(list(flat), clusters) ** 2 == pytest.approx(expected, abs=1e-12)
