"""Every comparison statistic against statsmodels on hand-made tables: McNemar exact, CR1
cluster-robust standard errors (OLS, ``cov_type="cluster"``, statsmodels' default small-sample
correction G/(G-1)*(N-1)/(N-K)), Holm, and the minimum-detectable-effect formula against
statsmodels' normal power functions. Edge cases: all agree, all flipped, one cluster, n = 1."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import statsmodels.api as sm
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower

from stages.compare import stats
from stages.compare.analysis import BETTER, SAME, WORSE, Row, accuracy_row, adjust, graded_row
from stages.compare.pairs import Item
from stages.scoring.clustered import MIN_CLUSTERS, cluster_robust_se, clustered_mean


def ols_cluster(values: list[float], clusters: list[str]) -> Any:
    codes = np.unique(np.array(clusters), return_inverse=True)[1]
    groups = {"groups": codes, "use_correction": True}
    return sm.OLS(np.array(values), np.ones(len(values))).fit(cov_type="cluster", cov_kwds=groups)


def pairs_from(table: list[tuple[bool, bool, str]]) -> list[tuple[Item, Item]]:
    """(A correct, B correct, cluster) per item -> paired verdict items q-0, q-1, ..."""
    out = []
    for i, (a, b, cluster) in enumerate(table):
        common = {"id": f"q-{i}", "repeat": 0, "cluster": cluster, "flexible": None,
                  "failed": None, "extracted": None, "score": None}  # fmt: skip
        out.append((Item(correct=a, **common), Item(correct=b, **common)))
    return out


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ([[5, 0], [0, 7]], 1.0),  # all agree: no discordant pair
        ([[0, 10], [0, 0]], 2 * 0.5**10),  # all flipped one way
        ([[0, 0], [1, 0]], 1.0),  # n = 1
        ([[3, 5], [2, 4]], None),
        ([[10, 1], [9, 30]], None),
        ([[0, 12], [12, 0]], 1.0),  # symmetric flips
    ],
)
def test_mcnemar_exact_matches_statsmodels(table: list[list[int]], expected: float | None) -> None:
    ours = stats.mcnemar_exact(table[0][1], table[1][0])
    reference = mcnemar(np.array(table), exact=True).pvalue
    assert ours == pytest.approx(reference, rel=1e-12, abs=1e-15)
    if expected is not None:
        assert ours == pytest.approx(expected, rel=1e-12)


CLUSTERED = [
    # (values, clusters): paired differences -1/0/+1 with clusters of several sizes
    ([1, 0, 0, 1, -1, 0, 1, 1], ["a", "a", "b", "b", "c", "c", "d", "e"]),
    ([1, -1, 0, 0, 1, 1, 0, -1, 1, 0], [f"p{c}" for c in (1, 1, 1, 2, 2, 3, 4, 4, 5, 6)]),
    ([0.25, -0.5, 0.0, 0.75, 0.1], ["x", "y", "x", "z", "y"]),  # graded differences
]


@pytest.mark.parametrize(("values", "clusters"), CLUSTERED)
def test_cluster_robust_se_matches_statsmodels_cr1(
    values: list[float], clusters: list[str]
) -> None:
    fit = ols_cluster(values, clusters)
    assert cluster_robust_se(values, clusters) == pytest.approx(fit.bse[0], rel=1e-12)
    # The interval is the CLT one statsmodels gives (normal, since use_t is off for clusters).
    result = clustered_mean(values, clusters, min_clusters=2)
    assert result.ci95() == pytest.approx(tuple(fit.conf_int(alpha=0.05)[0]), rel=1e-9)


def test_singleton_clusters_give_the_ordinary_standard_error() -> None:
    values = [1.0, 0.0, 0.0, 1.0, 1.0, -1.0, 0.0]
    clusters = [str(i) for i in range(len(values))]
    plain = sm.OLS(np.array(values), np.ones(len(values))).fit()  # nonrobust: s / sqrt(n)
    assert cluster_robust_se(values, clusters) == pytest.approx(plain.bse[0], rel=1e-12)
    assert cluster_robust_se(values, clusters) == pytest.approx(
        math.sqrt(stats.sample_variance(values) / len(values)), rel=1e-12
    )


def test_all_agree_and_all_flipped_have_zero_standard_error() -> None:
    clusters = ["a", "a", "b", "c"]
    for values in ([0.0] * 4, [-1.0] * 4):
        assert cluster_robust_se(values, clusters) == 0.0 == ols_cluster(values, clusters).bse[0]


def test_one_cluster_and_one_item_give_no_figure() -> None:
    with pytest.raises(ValueError, match="two clusters"):
        cluster_robust_se([1.0, 0.0, 1.0], ["a", "a", "a"])
    with pytest.raises(ZeroDivisionError):  # statsmodels cannot either
        ols_cluster([1.0, 0.0, 1.0], ["a", "a", "a"])
    one = clustered_mean([1.0], ["a"])
    assert (one.mean, one.se, one.note) == (1.0, None, "one item: no standard error")
    shared = clustered_mean([1.0, 0.0, 1.0], ["a", "a", "a"])
    assert shared.se is None and shared.clusters == 1
    assert shared.note == "1 clusters for 3 items: too few for a cluster-robust standard error " + (
        f"(needs {MIN_CLUSTERS})"
    )


def test_few_shared_clusters_print_no_figure_but_many_do() -> None:
    few = clustered_mean([1.0, 0.0] * 5, [str(i // 2) for i in range(10)])
    assert few.se is None and few.clusters == 5 and "too few" in (few.note or "")
    values = [float(i % 3 == 0) for i in range(2 * MIN_CLUSTERS)]
    clusters = [str(i // 2) for i in range(2 * MIN_CLUSTERS)]
    many = clustered_mean(values, clusters)
    assert many.se == pytest.approx(ols_cluster(values, clusters).bse[0], rel=1e-12)


def test_holm_matches_statsmodels() -> None:
    pvalues = [0.01, 0.04, 0.03, 0.005, 0.2, 0.04]
    reference = multipletests(pvalues, alpha=0.05, method="holm")[1]
    assert stats.holm(pvalues) == pytest.approx(list(reference), rel=1e-12)
    assert stats.holm([]) == []


@pytest.mark.parametrize(("n", "discordance"), [(12, 0.25), (120, 0.1), (1000, 0.02), (30, 1.0)])
def test_minimum_detectable_effect_matches_statsmodels_power(n: int, discordance: float) -> None:
    mde = stats.minimum_detectable_effect(n, discordance)
    assert mde is not None
    sigma = math.sqrt(discordance)
    power = NormalIndPower().power(effect_size=mde / sigma, nobs1=n, alpha=0.05, ratio=0)
    assert power == pytest.approx(0.80, abs=1e-5)  # the far tail adds under 1e-6
    solved = NormalIndPower().solve_power(effect_size=None, nobs1=n, alpha=0.05, power=0.8, ratio=0)
    assert mde == pytest.approx(solved * sigma, rel=1e-5)


def test_minimum_detectable_effect_is_undefined_without_variation() -> None:
    assert stats.minimum_detectable_effect(20, 0.0) is None
    assert stats.minimum_detectable_effect(0, 0.5) is None


def test_accuracy_row_on_a_hand_table() -> None:
    # 20 items in independent clusters: 1 right->wrong, 10 wrong->right, 5 both right, 4 both wrong.
    table = (
        [(True, False, "c0")]
        + [(False, True, f"c{i}") for i in range(1, 11)]
        + [(True, True, f"c{i}") for i in range(11, 16)]
        + [(False, False, f"c{i}") for i in range(16, 20)]
    )
    row = accuracy_row("w", None, pairs_from(table))
    assert (row.n, row.a, row.b, row.delta) == (20, 6 / 20, 15 / 20, 9 / 20)
    assert row.right_to_wrong == ["q-0"]
    assert row.wrong_to_right == [f"q-{i}" for i in range(1, 11)]
    assert row.p == pytest.approx(mcnemar(np.array([[5, 1], [10, 4]]), exact=True).pvalue)
    diffs = [-1.0] + [1.0] * 10 + [0.0] * 9
    assert row.se == pytest.approx(ols_cluster(diffs, [c for *_, c in table]).bse[0], rel=1e-12)
    assert row.mde == pytest.approx(stats.minimum_detectable_effect(20, 11 / 20))
    (adjusted,) = adjust([row])
    assert adjusted.p_holm == row.p and adjusted.verdict == BETTER


def test_both_tests_must_agree() -> None:
    # 2 right->wrong, 9 wrong->right: the paired interval excludes 0, McNemar does not (p 0.065).
    table = [(True, False, f"c{i}") for i in range(2)] + [
        (False, True, f"c{i}") for i in range(2, 11)
    ]
    table += [(True, True, f"c{i}") for i in range(11, 20)]
    (row,) = adjust([accuracy_row("w", None, pairs_from(table))])
    assert row.ci95 is not None and row.ci95[0] > 0
    assert row.p == pytest.approx(0.0654296875) and row.verdict == SAME


def test_edge_tables_give_the_right_verdicts() -> None:
    both = [(True, True, f"r{i}") for i in range(5)] + [(False, False, f"w{i}") for i in range(5)]
    agree = accuracy_row("agree", None, pairs_from(both))
    flipped = accuracy_row("flipped", None, pairs_from([(True, False, str(i)) for i in range(8)]))
    single = accuracy_row("single", None, pairs_from([(False, True, "a")]))
    rows = adjust([agree, flipped, single])
    assert [r.verdict for r in rows] == [SAME, WORSE, SAME]
    assert (rows[0].p, rows[0].mde, rows[0].se) == (1.0, None, 0.0)
    assert rows[1].ci95 == (-1.0, -1.0) and rows[1].p == 2 * 0.5**8
    assert rows[1].p_holm == pytest.approx(3 * 2 * 0.5**8)  # the smallest of 3 p-values: x3
    assert (rows[2].se, rows[2].note, rows[2].p) == (None, "one item: no standard error", 1.0)


def test_a_wide_clustered_interval_overrules_mcnemar() -> None:
    # 30 clusters of 2 items each, both items of a cluster flip together: McNemar (which assumes
    # independent items) sees 24 vs 6, but the clustered interval sees only 15 independent units.
    table: list[tuple[bool, bool, str]] = []
    for c in range(30):
        a, b = (False, True) if c < 12 else (True, False) if c < 15 else (True, True)
        table += [(a, b, f"c{c}"), (a, b, f"c{c}")]
    row = adjust([accuracy_row("w", None, pairs_from(table))])[0]
    assert row.p == pytest.approx(mcnemar(np.array([[30, 6], [24, 0]]), exact=True).pvalue)
    assert row.p is not None and row.p < 0.01
    diffs = [1.0 if a < b else -1.0 if a > b else 0.0 for a, b, _ in table]
    fit = ols_cluster(diffs, [c for *_, c in table])
    assert row.se == pytest.approx(fit.bse[0], rel=1e-12)
    assert row.ci95 == pytest.approx(tuple(fit.conf_int()[0]), rel=1e-9)


def test_graded_row_uses_the_wald_test_of_the_clustered_se() -> None:
    scores_a = [0.2, 0.5, 0.0, 1.0, 0.4, 0.3]
    scores_b = [0.6, 0.5, 0.3, 1.0, 0.9, 0.2]
    clusters = ["p1", "p2", "p3", "p4", "p5", "p6"]  # independent: the figure is shown
    pairs = []
    for i, (x, y, c) in enumerate(zip(scores_a, scores_b, clusters, strict=True)):
        common = {"id": f"d-{i}", "repeat": 0, "cluster": c, "correct": False, "flexible": None,
                  "failed": None, "extracted": None}  # fmt: skip
        pairs.append((Item(score=x, **common), Item(score=y, **common)))
    row = graded_row("drop", "f1", pairs)
    assert row is not None
    diffs = [y - x for x, y in zip(scores_a, scores_b, strict=True)]
    fit = ols_cluster(diffs, clusters)
    assert row.delta == pytest.approx(fit.params[0]) and row.se == pytest.approx(fit.bse[0])
    assert row.p == pytest.approx(fit.pvalues[0], rel=1e-9)
    assert isinstance(row, Row) and row.measure == "f1"


def test_intervals_stay_within_the_possible_differences() -> None:
    table = [(True, False, "a"), (True, False, "b"), (True, True, "c"), (False, True, "d")]
    row = accuracy_row("w", None, pairs_from(table))
    fit = ols_cluster([-1.0, -1.0, 0.0, 1.0], ["a", "b", "c", "d"])
    low, high = fit.conf_int()[0]
    assert low < -1.0 and row.ci95 == (-1.0, pytest.approx(high))
