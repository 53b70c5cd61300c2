"""Every comparison statistic against a reference on hand-made tables (issue 18): statsmodels
(McNemar exact, CR1 with its t(G - 1) reference, Holm, Wilson, t-test power), exact rational
arithmetic, brute-force enumeration and direct likelihood maximisation. Edge cases: all agree,
all flipped, one cluster, n = 1, n = 0, 10^5 discordant pairs, non-finite scores."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import optimize
from scipy import stats as sps
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import TTestPower
from statsmodels.stats.proportion import proportion_confint

from stages.compare import compare_records, multiplicity, paired, power
from stages.compare.row import BETTER, NOT_TESTED, SAME, WORSE
from stages.errors import AtlasError
from stages.scoring import accuracy_estimate, accuracy_interval
from stages.scoring.clustered import cluster_robust_se
from stages.scoring.passk import pass_at_k, pass_hat_k


def ols_cluster(values: list[float], clusters: list[str], use_t: bool = False) -> Any:
    codes = np.unique(np.array(clusters), return_inverse=True)[1]
    groups = {"groups": codes, "use_correction": True}
    return sm.OLS(np.array(values), np.ones(len(values))).fit(
        cov_type="cluster", cov_kwds=groups, use_t=use_t
    )


def records(table: list[tuple[bool | None, bool | None, str]], **extra: Any) -> tuple[list, list]:
    """(A correct, B correct, cluster) per item -> the verdict records of A and B."""
    a, b = [], []
    for i, (x, y, cluster) in enumerate(table):
        common = {"workload": "w", "id": f"q-{i}", "cluster": cluster, **extra}
        a.append({**common, "correct": x})
        b.append({**common, "correct": y})
    return a, b


def flipped(down: int, up: int, same: int) -> list[tuple[bool | None, bool | None, str]]:
    rows = [(True, False)] * down + [(False, True)] * up + [(True, True)] * same
    return [(x, y, f"c{i}") for i, (x, y) in enumerate(rows)]


@pytest.mark.parametrize(
    "table",
    [[[5, 0], [0, 7]], [[0, 10], [0, 0]], [[0, 0], [1, 0]], [[3, 5], [2, 4]], [[10, 1], [9, 30]],
     [[0, 12], [12, 0]]],
)  # fmt: skip
def test_mcnemar_exact_matches_statsmodels(table: list[list[int]]) -> None:
    ours = paired.mcnemar_exact(table[0][1], table[1][0])
    assert float(ours) == pytest.approx(mcnemar(np.array(table), exact=True).pvalue, rel=1e-12)


def test_mcnemar_exact_at_any_n() -> None:
    # Exact rational arithmetic at 3,000 discordant pairs; statsmodels at 10^5 (the old sum of
    # binomial coefficients overflowed a float from 1,024 pairs on).
    low, total = 1460, 3000
    exact = Fraction(2 * sum(math.comb(total, k) for k in range(low + 1)), 2**total)
    assert float(paired.mcnemar_exact(low, total - low)) == pytest.approx(float(exact), rel=1e-12)
    for b, c in ((49_800, 50_200), (49_000, 51_000), (50_000, 50_000)):
        reference = mcnemar(np.array([[0, b], [c, 0]]), exact=True).pvalue
        assert float(paired.mcnemar_exact(b, c)) == pytest.approx(reference, rel=1e-9)
    a, bb = records(flipped(49_000, 51_000, 0))
    (row,) = compare_records(a, bb)
    assert row.p == pytest.approx(mcnemar(np.array([[0, 49_000], [51_000, 0]]), exact=True).pvalue)
    assert row.verdict == BETTER and row.ci95 is not None and row.ci95[0] > 0


def _likelihood_score(b: int, c: int, n: int, d: float) -> float:
    """Tango's statistic at delta = d with the restricted MLE found by numerical optimisation."""
    r = n - b - c

    def negative(q: float) -> float:
        return -(c * math.log(q) + b * math.log(q - d) + r * math.log(1 - 2 * q + d))

    low, high = max(d, 0.0) + 1e-12, (1 + d) / 2 - 1e-12
    q = optimize.minimize_scalar(negative, bounds=(low, high), method="bounded",
                                 options={"xatol": 1e-14}).x  # fmt: skip
    return ((c - b) / n - d) / math.sqrt((2 * q - d - d * d) / n)


@pytest.mark.parametrize(("b", "c", "n"), [(2, 9, 30), (5, 5, 40), (1, 7, 12), (3, 0, 25)])
def test_tango_bounds_solve_the_score_equation(b: int, c: int, n: int) -> None:
    low, high = paired.tango_interval(b, c, n, paired.Z_95)
    assert float(low) < (c - b) / n < float(high)
    assert _likelihood_score(b, c, n, float(low)) == pytest.approx(paired.Z_95, abs=1e-6)
    assert _likelihood_score(b, c, n, float(high)) == pytest.approx(-paired.Z_95, abs=1e-6)


def test_intervals_never_collapse_and_stay_in_range() -> None:
    agree = compare_records(*records([(True, True, f"c{i}") for i in range(12)]))[0]
    all_flipped = compare_records(*records(flipped(0, 12, 0)))[0]
    assert agree.ci95 is not None and agree.ci95[0] < 0 < agree.ci95[1]  # width > 0 at b = c = 0
    assert all_flipped.ci95 is not None and 0 < all_flipped.ci95[0] < all_flipped.ci95[1] == 1.0
    assert (agree.verdict, all_flipped.verdict) == (SAME, BETTER)
    # n = 12 independent items with a zero-width Wald interval before: +0.0..+0.0 no longer.
    low, high = paired.tango_interval(0, 0, 12, paired.Z_95)
    assert float(high) == pytest.approx(paired.Z_95**2 / (12 + paired.Z_95**2), rel=1e-9)
    assert float(low) == pytest.approx(-float(high), rel=1e-9)


CLUSTERED = [
    ([1, 0, 0, 1, -1, 0, 1, 1], ["a", "a", "b", "b", "c", "c", "d", "e"]),
    ([1, -1, 0, 0, 1, 1, 0, -1, 1, 0], [f"p{c}" for c in (1, 1, 1, 2, 2, 3, 4, 4, 5, 6)]),
    ([0.25, -0.5, 0.0, 0.75, 0.1], ["x", "y", "x", "z", "y"]),
]


@pytest.mark.parametrize(("values", "clusters"), CLUSTERED)
def test_cluster_robust_se_matches_statsmodels_cr1(
    values: list[float], clusters: list[str]
) -> None:
    assert cluster_robust_se(values, clusters) == pytest.approx(
        ols_cluster(values, clusters).bse[0], rel=1e-12
    )


def test_one_cluster_has_no_standard_error() -> None:
    with pytest.raises(ValueError, match="two clusters"):
        cluster_robust_se([1.0, 0.0, 1.0], ["a", "a", "a"])
    a, b = records([(True, False, "a"), (False, True, "a"), (False, False, "a")])
    (row,) = compare_records(a, b)
    assert (row.p, row.ci95, row.mde, row.verdict) == (None, None, None, SAME)
    assert row.note == "1 clusters for 3 items: too few for a cluster-robust standard error " + (
        "(1.0 effective, needs 20)"
    )


def test_clustered_rows_use_the_rao_scott_score_test_with_t() -> None:
    # 30 clusters of 2 whose items flip together: McNemar on records (24 vs 6) would say p < .01.
    table: list[tuple[bool | None, bool | None, str]] = []
    for c in range(30):
        x, y = (False, True) if c < 12 else (True, False) if c < 15 else (True, True)
        table += [(x, y, f"c{c}"), (x, y, f"c{c}")]
    (row,) = compare_records(*records(table))
    diffs = [float(y) - float(x) for x, y, _ in table]
    se = ols_cluster(diffs, [c for *_, c in table]).bse[0]
    deff = se**2 / (np.var(diffs, ddof=1) / len(diffs))
    z = (24 - 6) / math.sqrt(30 * deff)
    # Equal clusters: CR2 = CR1 and the Bell–McCaffrey df is G - 1 = 29; the clusters' own df
    # (issue 34) is smaller: deviations 2 - 2 (0.3) = 1.4 (12 clusters), -2.6 (3), -0.6 (15),
    # 2 (sum w)^2 / sum w^2 with w their squares = 2 x 49.2^2 / 185.1264 = 26.15.
    df = 2 * 49.2**2 / (12 * 1.4**4 + 3 * 2.6**4 + 15 * 0.6**4)
    assert row.test == "rao-scott-score-t" and row.se == pytest.approx(se, rel=1e-12)
    assert row.df == pytest.approx(df, rel=1e-9)
    assert row.p == pytest.approx(2 * sps.t.sf(z, df), rel=1e-9)
    assert row.p > mcnemar(np.array([[30, 6], [24, 0]]), exact=True).pvalue
    low, high = paired.tango_interval(6 / deff, 24 / deff, 60 / deff, sps.t.isf(0.025, df))
    assert row.ci95 == pytest.approx((float(low), float(high)), rel=1e-12)


def test_graded_rows_use_the_score_test_on_fractional_flips() -> None:
    # Issue 34: the positive and negative parts of the differences are the flip counts, scaled
    # so that their variance is the cluster-robust one (statsmodels' CR1 = CR2 for independent
    # items), with t(n - 1); a plain Wald t undercovered sparse 0/1-heavy scores at n = 12.
    scores_a = [0.2, 0.5, 0.0, 1.0, 0.4, 0.3]
    scores_b = [0.6, 0.5, 0.3, 1.0, 0.9, 0.2]
    a = [
        {"workload": "d", "id": f"d{i}", "score": x, "measure": "f1"}
        for i, x in enumerate(scores_a)
    ]
    b = [
        {"workload": "d", "id": f"d{i}", "score": y, "measure": "f1"}
        for i, y in enumerate(scores_b)
    ]
    (row,) = compare_records(a, b)
    diffs = [y - x for x, y in zip(scores_a, scores_b, strict=True)]
    fit = ols_cluster(diffs, [f"d{i}" for i in range(6)])
    assert row.delta == pytest.approx(fit.params[0]) and row.se == pytest.approx(fit.bse[0])
    up, down = 0.4 + 0.3 + 0.5, 0.1  # the positive and the negative parts, in F1 units
    deff = fit.bse[0] ** 2 / ((up + down - (up - down) ** 2 / 6) / 5 / 6)
    z = (up - down) / math.sqrt((up + down) * deff)
    # df: the smaller of n - 1 and 2 (sum w)^2 / sum w^2, w the squared deviations
    w = (np.array(diffs) - np.mean(diffs)) ** 2
    df = min(5.0, 2 * w.sum() ** 2 / (w**2).sum())
    assert row.p == pytest.approx(2 * sps.t.sf(z, df), rel=1e-9)
    low, high = paired.tango_interval(down / deff, up / deff, 6 / deff, sps.t.isf(0.025, df))
    assert row.ci95 == pytest.approx((float(low), float(high)), rel=1e-9)
    assert (row.measure, row.test, row.scale) == ("f1", "score-t-cr2", (0.0, 1.0))


def test_degenerate_graded_rows_give_no_verdict() -> None:
    # n = 2 with a constant shift: zero standard error used to read as p = 0 and "B better".
    a = [{"workload": "t", "id": f"t{i}", "score": 40.0, "measure": "chrf"} for i in range(2)]
    b = [{"workload": "t", "id": f"t{i}", "score": 55.0, "measure": "chrf"} for i in range(2)]
    (row,) = compare_records(a, b)
    assert (row.p, row.ci95, row.mde, row.verdict) == (None, None, None, SAME)
    assert row.note == "the differences do not vary: no test" and row.scale == (0.0, 100.0)


def test_graded_scale_comes_from_the_data_and_never_inverts() -> None:
    # An unlabelled 0-100 score used to be clipped to +-1, giving an inverted interval.
    rng = np.random.default_rng(1)
    xs, ys = rng.uniform(20, 80, 30), rng.uniform(25, 85, 30)
    a = [{"workload": "r", "id": f"r{i}", "score": float(x)} for i, x in enumerate(xs)]
    b = [{"workload": "r", "id": f"r{i}", "score": float(y)} for i, y in enumerate(ys)]
    (row,) = compare_records(a, b)
    assert row.scale == (0.0, 100.0) and row.ci95 is not None and row.ci95[0] < row.ci95[1]


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_scores_are_refused(bad: float) -> None:
    good = [{"workload": "w", "id": "q", "score": 0.5}]
    with pytest.raises(AtlasError, match=r"b\[0\]: score: .* is not a finite number"):
        compare_records(good, [{"workload": "w", "id": "q", "score": bad}])


def test_holm_matches_statsmodels_and_children_wait_for_their_workload() -> None:
    pvalues = [0.01, 0.04, 0.03, 0.005, 0.2, 0.04]
    reference = multipletests(pvalues, alpha=0.05, method="holm")[1]
    nodes = [multiplicity.Node(p) for p in pvalues]
    assert multiplicity.adjust(nodes) == pytest.approx(list(reference), rel=1e-12)
    assert multiplicity.holm(pvalues) == pytest.approx(list(reference), rel=1e-12)
    # Workload 0 (p .001) with two categories, workload 3 (p .3): by hand, the first rejection
    # (.001 / .5) hands .25 to the categories (.125 each) and .25 to workload 3 (now .75).
    tree = [multiplicity.Node(0.001), multiplicity.Node(0.01, 0), multiplicity.Node(0.02, 0),
            multiplicity.Node(0.3)]  # fmt: skip
    adjusted = multiplicity.adjust(tree)
    assert adjusted[:2] == pytest.approx([0.002, 0.08]) and adjusted[2] == pytest.approx(0.08)
    assert adjusted[3] == pytest.approx(0.3, rel=1e-6)  # the last category hands its share on
    assert multiplicity.initial_level(tree, 1, 0.05) == pytest.approx(0.05 / 2 / 2 / 2)


def test_rejected_is_the_adjusted_p_below_alpha() -> None:
    rng = np.random.default_rng(3)
    for _ in range(500):
        nodes: list[multiplicity.Node] = []
        for _ in range(int(rng.integers(1, 5))):
            parent = len(nodes)
            nodes.append(multiplicity.Node(float(rng.random() ** 3)))
            nodes += [multiplicity.Node(float(rng.random() ** 3), parent)
                      for _ in range(int(rng.choice([0, 2, 3])))]  # fmt: skip
        expected = [x is not None and x < 0.05 for x in multiplicity.adjust(nodes)]
        assert multiplicity.rejected(nodes, 0.05) == expected


def test_categories_are_not_tested_under_a_quiet_workload() -> None:
    table = flipped(3, 4, 13)
    a, b = records(table)
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        x["category"] = y["category"] = "even" if i % 2 == 0 else "odd"
    rows = compare_records(a, b)
    assert [(r.category, r.role) for r in rows] == [(None, "primary"), ("even", "category"),
                                                    ("odd", "category")]  # fmt: skip
    assert rows[0].verdict == SAME and {r.verdict for r in rows[1:]} == {NOT_TESTED}


def _brute_power(n: int, discordance: float, delta: float, level: float) -> float:
    """P("B better") by enumerating every (b, c) with its multinomial probability and applying
    the verdict rule with statsmodels' McNemar and the 95 % score interval."""
    p10, p01 = discordance / 2, discordance / 2 + delta
    total = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            probability = sps.multinomial.pmf([b, c, n - b - c], n, [p10, p01, 1 - p10 - p01])
            if probability < 1e-15:
                continue
            p = mcnemar(np.array([[0, b], [c, 0]]), exact=True).pvalue if b + c else 1.0
            low, _ = paired.tango_interval(b, c, n, paired.Z_95)
            if p < level and float(low) > 0:
                total += probability
    return total


@pytest.mark.parametrize(("n", "discordance", "delta", "level"),
                         [(20, 0.2, 0.25, 0.05), (30, 0.1, 0.15, 0.01)])  # fmt: skip
def test_binary_power_is_the_exact_power_of_the_verdict_rule(
    n: int, discordance: float, delta: float, level: float
) -> None:
    ours = float(power.binary_power(n, n, 1.0, discordance, delta, level))
    assert ours == pytest.approx(_brute_power(n, discordance, delta, level), abs=1e-9)


def test_graded_power_is_the_noncentral_t_power_of_statsmodels() -> None:
    se, n, delta = 0.04, 25, 0.09
    reference = TTestPower().power(effect_size=delta / (se * math.sqrt(n)), nobs=n, alpha=0.05)
    assert float(power.graded_power(se, n, delta, 0.05)) == pytest.approx(reference, rel=1e-6)
    mde, capped = power.graded_mde(se, n, 1.0, 0.05)
    assert not capped and float(power.graded_power(se, n, mde, 0.05)) == pytest.approx(
        0.8, abs=1e-5
    )


def test_graded_mde_of_a_small_standard_error_is_statsmodels_mde() -> None:
    # scipy's noncentral t is NaN at the search's cap (shift 0.5 / 0.0143 = 35 at df 82): the
    # search read that as "not enough power" and printed 0.46 instead of 0.041
    se, n = 0.0143, 83
    size = TTestPower().solve_power(effect_size=None, nobs=n, alpha=0.05, power=0.8)
    mde, capped = power.graded_mde(se, n, 1.0, 0.05)
    assert not capped and mde == pytest.approx(size * se * math.sqrt(n), rel=1e-5)
    assert float(power.graded_power(se, n, 0.5, 0.05)) == 1.0


def test_mde_is_printed_only_where_a_verdict_is_possible_and_is_capped() -> None:
    tiny = compare_records(*records(flipped(1, 1, 3)))[0]  # n = 5: p >= 0.0625 whatever happens
    assert (tiny.mde, tiny.p_adjusted, tiny.verdict) == (None, None, SAME)
    assert tiny.note == "too few items for a verdict at 5 % (the exact test needs 6)"
    small = compare_records(*records(flipped(3, 3, 6)))[0]  # n = 12, half discordant
    assert small.mde == pytest.approx(power.CAP) and small.mde_capped
    large = compare_records(*records(flipped(20, 20, 160)))[0]
    assert large.mde is not None and not large.mde_capped and 0.05 < large.mde < 0.2
    level = 0.05
    design, share = power.planning_inputs(200, 200, np.array(1.0), np.array(0.2))
    assert float(power.binary_power(200, 200, design, share, large.mde, level)) == pytest.approx(
        0.8, abs=1e-3
    )


def test_failures_per_side_and_a_delta_carried_by_them() -> None:
    # B times out on 30 items A got right; otherwise the two agree.
    table = [(True, True, f"c{i}") for i in range(40)] + [
        (False, False, f"d{i}") for i in range(20)
    ]
    a, b = records(table)
    for y in b[:30]:
        y["correct"], y["failed"] = False, "timeout"
    (row,) = compare_records(a, b)
    assert (row.failed_a, row.failed_b, row.verdict) == (0, 30, WORSE)
    assert row.carried_by_failures
    a2, b2 = records(flipped(30, 0, 30))  # the same loss with no failure: not carried
    assert not compare_records(a2, b2)[0].carried_by_failures


def test_no_paired_item_is_a_row_of_dashes() -> None:
    (row,) = compare_records([{"workload": "w", "id": "a", "correct": True}],
                             [{"workload": "w", "id": "b", "correct": True}])  # fmt: skip
    assert (row.n, row.a, row.b, row.delta, row.ci95, row.p) == (0, None, None, None, None, None)


def test_fresh_instances_pair_by_seed_and_id() -> None:
    public = [(True, False, "c0"), (False, True, "c1")]
    a, b = records(public)
    fresh_a, fresh_b = records(public, seed=101)
    rows = compare_records(a + fresh_a, b + fresh_b)
    assert rows[0].n == 4 and rows[0].items == 4 and rows[0].clusters == 4
    assert rows[0].right_to_wrong == ["q-0", "s101/q-0"]


def test_pass_at_k_and_pass_hat_k_are_unbiased() -> None:
    # Brute force: the share of k-subsets of the n samples with at least one / only right ones.
    for n, c, k in ((5, 2, 3), (6, 0, 2), (4, 4, 4), (7, 3, 1)):
        outcomes = [True] * c + [False] * (n - c)
        subsets = list(combinations(outcomes, k))
        assert pass_at_k(n, c, k) == pytest.approx(sum(any(s) for s in subsets) / len(subsets))
        assert pass_hat_k(n, c, k) == pytest.approx(sum(all(s) for s in subsets) / len(subsets))
    a = [{"workload": "w", "id": f"q{i}", "repeat": r, "correct": (i + r) % 3 == 0}
         for i in range(30) for r in range(3)]  # fmt: skip
    b = [{**x, "correct": (i + r) % 2 == 0} for x, (i, r) in
         zip(a, [(i, r) for i in range(30) for r in range(3)], strict=True)]  # fmt: skip
    rows = compare_records(a, b)
    assert [r.measure for r in rows] == ["accuracy", "pass@3", "pass^3"]
    assert rows[1].role == "secondary" and rows[1].n == 30 and rows[1].clusters == 30


def test_accuracy_interval_is_wilson_for_independent_items() -> None:
    outcomes = [i % 3 == 0 for i in range(12)]
    low, high = accuracy_interval([{"id": f"q{i}", "correct": ok} for i, ok in enumerate(outcomes)])
    assert (low, high) == pytest.approx(proportion_confint(4, 12, method="wilson"), rel=1e-12)
    low, high = accuracy_interval([{"id": f"q{i}", "correct": True} for i in range(12)])
    assert high == 1.0 and low == pytest.approx(proportion_confint(12, 12, method="wilson")[0])


def test_accuracy_interval_counts_repeats_and_shared_clusters() -> None:
    # 60 items x 3 repeats that agree within an item: 60 independent units, not 180.
    repeated = [{"id": f"q{i}", "repeat": r, "correct": i % 4 == 0}
                for i in range(60) for r in range(3)]  # fmt: skip
    estimate = accuracy_estimate(repeated)
    assert estimate.n == 180 and estimate.clusters == 60
    # deff = CR1 variance (its G/(G-1) factor) / (s^2 / n) (n - 1 denominator) = 179 / 59.
    n_eff = 180 * 59 / 179
    assert estimate.n_eff == pytest.approx(n_eff, rel=1e-9)
    # t on the smaller of G - 1 = 59 and the clusters' own df (issue 34): deviations 2.25 (15
    # clusters) and -0.75 (45), 2 (sum w)^2 / sum w^2 = 2 x 101.25^2 / 398.671875 = 51.43.
    df = 2 * 101.25**2 / (15 * 2.25**4 + 45 * 0.75**4)
    z = sps.t.isf(0.025, df)
    reference = proportion_confint(0.25 * n_eff, n_eff, alpha=2 * sps.norm.sf(z), method="wilson")
    assert (estimate.low, estimate.high) == pytest.approx(reference, rel=1e-9)
    # Fewer than 50 shared clusters: every cluster counts once.
    few = accuracy_estimate([{"id": f"q{i}", "cluster": f"p{i // 4}", "correct": i % 2 == 0}
                             for i in range(40)])  # fmt: skip
    assert (few.n_eff, few.clusters) == (10.0, 10)
    with pytest.raises(ValueError, match="no records"):
        accuracy_interval([])
