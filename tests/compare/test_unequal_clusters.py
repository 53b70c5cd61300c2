"""Issue 34, clustered inference on unequal clusters: each observation of the independent
simulation as a test through the public API (``compare_records``, ``accuracy_interval``), and the
small-sample variance (CR2 with the Bell–McCaffrey degrees of freedom) against its general matrix
form. The Monte Carlo figures (type-I error, coverage, family-wise error) are in
``test_simulation.py``; this file holds what one table, or a few thousand small ones, can show."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from stages.compare import compare_records, paired
from stages.compare.row import SAME
from stages.errors import AtlasError
from stages.scoring import accuracy_estimate, accuracy_interval


def reference_cr2(values: np.ndarray, clusters: list[int]) -> tuple[float, float, float]:
    """(CR2 standard error of the mean, Bell–McCaffrey df, the df used) from the general matrix
    formulas of J. E. Pustejovsky and E. Tipton (2018) and G. Imbens and M. Kolesár (2016) for a
    regression on a constant, working model Omega = I: A_g = (I - H_gg)^(-1/2), the BM df =
    (sum of the eigenvalues of G'G)^2 / (sum of their squares); the df used is the smaller of it
    and 2 (sum w_g)^2 / sum w_g^2, w_g the squared adjusted score of cluster g."""
    n = len(values)
    x = np.ones((n, 1))
    bread = np.linalg.inv(x.T @ x)
    hat = x @ bread @ x.T
    residual = values - values.mean()
    labels = sorted(set(clusters))
    meat = np.zeros((1, 1))
    columns, contributions = [], []
    for label in labels:
        rows = np.array([i for i, c in enumerate(clusters) if c == label])
        w, v = np.linalg.eigh(np.eye(len(rows)) - hat[np.ix_(rows, rows)])
        adjust = v @ np.diag(1 / np.sqrt(w)) @ v.T
        u = x[rows].T @ adjust @ residual[rows]
        meat += np.outer(u, u)
        contributions.append(float(u[0] ** 2))
        columns.append(((np.eye(n) - hat)[:, rows] @ adjust @ x[rows] @ bread)[:, 0])
    variance = float((bread @ meat @ bread)[0, 0])
    eigen = np.linalg.eigvalsh(np.array(columns) @ np.array(columns).T)
    bm = float(eigen.sum() ** 2 / (eigen**2).sum())
    w = np.array(contributions)
    data = 2 * w.sum() ** 2 / (w**2).sum() if (w**2).sum() > 0 else math.inf
    return math.sqrt(variance), bm, min(bm, max(data, 1.0))


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.sampled_from([1, 2, 3, 5, 8, 20, 40]), min_size=2, max_size=12),
    seed=st.integers(0, 2**32 - 1),
)
def test_cr2_and_its_degrees_of_freedom_match_the_matrix_form(sizes: list[int], seed: int) -> None:
    rng = np.random.default_rng(seed)
    clusters = [g for g, m in enumerate(sizes) for _ in range(m)]
    values = rng.choice([0.0, 0.0, 1.0, 0.25, 0.5], size=len(clusters))
    from stages.compare.cluster_variance import bell_mccaffrey_df, cluster_fit

    se, bm, df = reference_cr2(values, clusters)
    fit = cluster_fit(list(values), clusters)
    assert fit.se == pytest.approx(se, rel=1e-9, abs=1e-15)
    assert bell_mccaffrey_df(sizes) == pytest.approx(bm, rel=1e-9)
    assert fit.df == pytest.approx(df, rel=1e-9)
    assert fit.effective == pytest.approx(sum(sizes) ** 2 / sum(m * m for m in sizes), rel=1e-12)


def test_equal_clusters_keep_cr1_and_g_minus_one() -> None:
    # With equal sizes CR2 is CR1 and the Bell–McCaffrey df is G - 1 (the df used is at most it).
    rng = np.random.default_rng(3)
    values = list(rng.random(25 * 4))
    clusters = [i // 4 for i in range(100)]
    from stages.compare.cluster_variance import bell_mccaffrey_df, cluster_fit
    from stages.scoring.clustered import cluster_robust_se

    fit = cluster_fit(values, clusters)
    assert bell_mccaffrey_df([4] * 25) == pytest.approx(24.0, rel=1e-12)
    assert fit.se == pytest.approx(cluster_robust_se(values, clusters), rel=1e-12)
    assert fit.df <= 24.0 and fit.effective == pytest.approx(25.0)


HEAVY = [40, 20, 8, 8, 5, 5, 5, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1]


def heavy_records(sizes: list[int], flip_every: int = 3) -> tuple[list[dict], list[dict]]:
    a, b = [], []
    for g, m in enumerate(sizes):
        for t in range(m):
            common = {"workload": "w", "id": f"q{g}-{t}", "cluster": f"c{g}"}
            a.append({**common, "correct": (g + t) % 2 == 0})
            b.append({**common, "correct": (g + t) % 2 == 0 or (g * 7 + t) % flip_every == 0})
    return a, b


def test_twenty_heavy_tailed_clusters_are_too_few_effective_clusters() -> None:
    # 20 clusters whose largest holds 40 of 114 items weigh like 5.8 equal ones: no test.
    assert sum(HEAVY) ** 2 / sum(m * m for m in HEAVY) == pytest.approx(114**2 / 2252)
    a, b = heavy_records(HEAVY)
    (row,) = compare_records(a, b)
    assert (row.p, row.ci95, row.mde, row.verdict) == (None, None, None, SAME)
    assert row.clusters == 20 and row.note is not None and "effective" in row.note


def test_clustered_binary_row_uses_cr2_and_its_small_sample_df() -> None:
    sizes = HEAVY * 4  # 80 clusters, 23 effective
    a, b = heavy_records(sizes)
    (row,) = compare_records(a, b)
    diffs = np.array([float(y["correct"]) - float(x["correct"]) for x, y in zip(a, b, strict=True)])
    clusters = [g for g, m in enumerate(sizes) for _ in range(m)]
    se, _, df = reference_cr2(diffs, clusters)
    n = len(diffs)
    up, down = int((diffs > 0).sum()), int((diffs < 0).sum())
    deff = max(se**2 / (np.var(diffs, ddof=1) / n), 1.0)
    z = (up - down) / math.sqrt((up + down) * deff)
    assert row.se == pytest.approx(se, rel=1e-9)
    assert row.p == pytest.approx(2 * sps.t.sf(abs(z), df), rel=1e-9)
    low, high = paired.tango_interval(down / deff, up / deff, n / deff, sps.t.isf(0.025, df))
    assert row.ci95 == pytest.approx((float(low), float(high)), rel=1e-9)


def test_the_docs_constant_shift_example_gets_no_test() -> None:
    # "Two items shifted alike": 0.3 -> 0.4 and 0.5 -> 0.6 leave 1e-17 of float residue.
    a = [
        {"workload": "d", "id": f"d{i}", "score": x, "measure": "f1"}
        for i, x in enumerate([0.3, 0.5])
    ]
    b = [
        {"workload": "d", "id": f"d{i}", "score": y, "measure": "f1"}
        for i, y in enumerate([0.4, 0.6])
    ]
    (row,) = compare_records(a, b)
    assert (row.p, row.ci95, row.mde, row.verdict) == (None, None, None, SAME)
    assert row.note is not None and "do not vary" in row.note


@settings(max_examples=100, deadline=None)
@given(
    base=st.lists(st.floats(0.0, 0.9, allow_nan=False), min_size=2, max_size=60),
    shift=st.sampled_from([0.01, 0.05, 0.1, 0.3]),
    clustered=st.booleans(),
)
def test_constant_shifts_never_get_a_test(base: list[float], shift: float, clustered: bool) -> None:
    def side(values: list[float]) -> list[dict[str, Any]]:
        cluster = (lambda i: f"c{i // 2}") if clustered else (lambda i: None)
        return [{"workload": "d", "id": f"d{i}", "score": v, "measure": "f1",
                 "cluster": cluster(i)} for i, v in enumerate(values)]  # fmt: skip

    (row,) = compare_records(side(base), side([v + shift for v in base]))
    assert (row.p, row.ci95, row.mde, row.verdict) == (None, None, None, SAME)


def test_swapping_a_and_b_gives_the_same_clusters() -> None:
    # Clusters written at A only (an older verdict file at B): either way round, 5 clusters.
    a, b = heavy_records([10] * 5)
    b = [{k: v for k, v in r.items() if k != "cluster"} for r in b]
    (ab,), (ba,) = compare_records(a, b), compare_records(b, a)
    assert ab.clusters == ba.clusters == 5
    assert (ab.p, ba.p) == (None, None)
    assert ab.note is not None and "clusters differently" in ab.note
    assert ba.note == ab.note


def test_accuracy_interval_refuses_duplicate_ids_as_compare_records_does() -> None:
    records = [{"workload": "w", "id": "q1", "correct": True},
               {"workload": "w", "id": "q1", "correct": False}]  # fmt: skip
    with pytest.raises(AtlasError, match=r"\[1\]: a second record of w q1"):
        accuracy_interval(records)
    with pytest.raises(AtlasError, match=r"a\[1\]: a second record of w q1"):
        compare_records(records, records[:1])


def test_a_failed_request_is_wrong_in_the_comparison_and_the_headline() -> None:
    a = [{"workload": "w", "id": f"q{i}", "correct": True} for i in range(10)]
    b = [{**r, "failed": "timeout"} if i < 3 else dict(r) for i, r in enumerate(a)]
    (row,) = compare_records(a, b)
    assert row.b == pytest.approx(0.7) == accuracy_estimate(b).value
    assert row.right_to_wrong == ["q0", "q1", "q2"] and row.failed_b == 3
