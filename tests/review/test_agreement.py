"""Every agreement figure equals the standard implementation on hand-made tables: scikit-learn
(Cohen, with labels= and quadratic weights), statsmodels (Fleiss via aggregate_raters) and the
krippendorff package; undefined cases are reported as undefined where those give nan or raise."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import krippendorff as kd
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from stages.cli import main
from stages.review.agreement import Rating, cohen, compute, fleiss, krippendorff, majority

FULL = ["0", "1", "2", "3", "4"]
ANA = [0, 1, 2, 3, 4, 4, 2, 1, 3, 2]
BEN = [0, 2, 2, 3, 3, 4, 1, 1, 4, 2]
# Labels 0, 1 and 4 only: positions differ between the seen set and the full 0-4 rubric.
GAP_A = [0, 1, 4, 4, 1, 0, 4, 1]
GAP_B = [1, 1, 4, 1, 0, 0, 4, 4]
# Three raters, nominal, 8 items (rows = items).
THREE = [
    ["yes", "yes", "yes"],
    ["yes", "no", "yes"],
    ["no", "no", "no"],
    ["borderline", "no", "no"],
    ["yes", "yes", "no"],
    ["no", "no", "no"],
    ["yes", "borderline", "no"],
    ["yes", "yes", "yes"],
]
NOM = ["yes", "no", "borderline"]


def two_raters(a: list[int], b: list[int]) -> list[Rating]:
    return [Rating(f"i{n}", "ana", str(x)) for n, x in enumerate(a)] + [
        Rating(f"i{n}", "ben", str(y)) for n, y in enumerate(b)
    ]


def wide(rows: list[list[str]]) -> list[Rating]:
    return [Rating(f"i{n}", f"r{k}", v) for n, row in enumerate(rows) for k, v in enumerate(row)]


def test_cohen_equals_sklearn() -> None:
    ours = cohen(two_raters(ANA, BEN), FULL)
    assert ours.value == pytest.approx(cohen_kappa_score(ANA, BEN, labels=[0, 1, 2, 3, 4]))
    assert ours.observed == pytest.approx(0.6) and ours.items == 10
    # po = 6/10; both raters' marginals are 1,2,3,2,2 of 10, so pe = 22/100
    assert ours.value == pytest.approx((0.6 - 0.22) / (1 - 0.22))


def test_quadratic_weights_use_the_full_label_set() -> None:
    ours = cohen(two_raters(GAP_A, GAP_B), FULL, weights="quadratic")
    full = cohen_kappa_score(GAP_A, GAP_B, labels=[0, 1, 2, 3, 4], weights="quadratic")
    seen_only = cohen_kappa_score(GAP_A, GAP_B, weights="quadratic")
    assert ours.value == pytest.approx(full)
    assert abs(full - seen_only) > 0.01  # the point: unseen labels change the distances
    same = cohen(two_raters(ANA, BEN), FULL, weights="quadratic").value
    assert same == pytest.approx(
        cohen_kappa_score(ANA, BEN, labels=[0, 1, 2, 3, 4], weights="quadratic")
    )


def test_fleiss_equals_statsmodels() -> None:
    codes = np.array([[NOM.index(v) for v in row] for row in THREE])
    table, _ = aggregate_raters(codes, n_cat=3)
    ours = fleiss(wide(THREE), NOM)
    assert ours.value == pytest.approx(fleiss_kappa(table, method="fleiss"))
    assert ours.items == 8 and ours.raters == 3


def test_krippendorff_equals_package_with_missing_ratings() -> None:
    nan = np.nan
    data = [  # the package's own documented example: 3 coders, 15 units, gaps
        [nan, nan, nan, nan, nan, 3, 4, 1, 2, 1, 1, 3, 3, nan, 3],
        [1, nan, 2, 1, 3, 3, 4, 3, nan, nan, nan, nan, nan, nan, nan],
        [nan, nan, 2, 1, 3, 4, 4, nan, 2, 1, 1, 3, 3, nan, 4],
    ]
    ratings = [
        Rating(f"u{u}", f"c{c}", str(int(v)))
        for c, row in enumerate(data)
        for u, v in enumerate(row)
        if not math.isnan(v)
    ]
    labels = ["1", "2", "3", "4"]
    nominal = krippendorff(ratings, labels, "nominal")
    assert nominal.value == pytest.approx(0.691358, abs=1e-6)
    assert nominal.value == pytest.approx(
        kd.alpha(reliability_data=data, level_of_measurement="nominal")
    )
    ordinal = krippendorff(ratings, labels, "ordinal")
    assert ordinal.value == pytest.approx(
        kd.alpha(reliability_data=data, level_of_measurement="ordinal")
    )
    # u0 has one rating (not pairable); u1 and u13 have none, so they are not in the table
    assert (nominal.items, nominal.excluded_items) == (12, 1)


def test_krippendorff_ordinal_over_the_full_domain() -> None:
    data = np.array([GAP_A, GAP_B], dtype=float)
    ours = krippendorff(two_raters(GAP_A, GAP_B), FULL, "ordinal")
    theirs = kd.alpha(
        reliability_data=data, level_of_measurement="ordinal", value_domain=[0, 1, 2, 3, 4]
    )
    assert ours.value == pytest.approx(theirs)
    rows = [[v for v in row] for row in THREE]
    nominal = krippendorff(wide(rows), NOM, "nominal")
    codes = np.array([[NOM.index(v) for v in row] for row in THREE], dtype=float).T
    assert nominal.value == pytest.approx(
        kd.alpha(reliability_data=codes, level_of_measurement="nominal")
    )


def test_every_rating_in_one_category_is_undefined_everywhere() -> None:
    same = [2, 2, 2, 2]
    ratings = two_raters(same, same)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert math.isnan(cohen_kappa_score(same, same, labels=[0, 1, 2, 3, 4]))
        assert math.isnan(
            cohen_kappa_score(same, same, labels=[0, 1, 2, 3, 4], weights="quadratic")
        )
        table, _ = aggregate_raters(np.array([same, same]).T)
        assert math.isnan(fleiss_kappa(table))
        assert math.isnan(
            kd.alpha(
                reliability_data=[same, same],
                level_of_measurement="ordinal",
                value_domain=[0, 1, 2, 3, 4],
            )
        )
    for method in (
        "cohen",
        "cohen-quadratic",
        "fleiss",
        "krippendorff-nominal",
        "krippendorff-ordinal",
    ):
        result = compute(method, ratings, FULL)
        assert result.value is None, method
        assert result.reason is not None and "every rating is '2'" in result.reason
        assert result.observed == 1.0


def test_structurally_undefined_cases_have_reasons() -> None:
    three = wide(THREE)
    assert cohen(three, NOM).reason == "Cohen's κ compares exactly two raters; the table has 3"
    uneven = [*two_raters([1, 2], [1, 2]), Rating("i9", "ana", "1")]
    assert "same number" in str(fleiss(uneven, FULL).reason)
    lonely = [Rating("i1", "ana", "1"), Rating("i2", "ben", "2")]
    assert cohen(lonely, FULL).reason == "no item is rated by both raters"
    assert "pairable" in str(krippendorff(lonely, FULL, "nominal").reason)


def test_two_of_three_majority_per_field() -> None:
    ratings = wide(THREE) + [Rating("i0", "r0", "no", "why"), Rating("i0", "r1", "no", "why")]
    found = {(m.item, m.field): m.label for m in majority(ratings)}
    assert found[("i1", "")] == "yes"
    assert found[("i3", "")] == "no"
    assert found[("i6", "")] is None  # yes, borderline, no: no majority
    assert found[("i0", "why")] == "no"
    assert sum(label is None for label in found.values()) == 1


def test_cli_reads_csv_and_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv_path = tmp_path / "t.csv"
    lines = ["item,rater,label"] + [f"i{n},ana,{a}" for n, a in enumerate(GAP_A)]
    lines += [f"i{n},ben,{b}" for n, b in enumerate(GAP_B)]
    csv_path.write_text("\n".join(lines) + "\n")
    args = ["agreement", str(csv_path), "--method", "cohen-quadratic", "--labels", "0,1,2,3,4"]
    assert main([*args, "--json", "--out", str(tmp_path / "k.json")]) == 0
    result = json.loads(capsys.readouterr().out)
    assert json.loads((tmp_path / "k.json").read_text()) == result
    full = cohen_kappa_score(GAP_A, GAP_B, labels=[0, 1, 2, 3, 4], weights="quadratic")
    assert result["value"] == pytest.approx(full) and result["labels"] == FULL
    jsonl = tmp_path / "t.jsonl"
    jsonl.write_text(
        "".join(
            json.dumps({"item": f"i{n}", "rater": r, "label": 3}) + "\n"
            for n in range(3)
            for r in ("a", "b")
        )
    )
    assert main(["agreement", str(jsonl), "--method", "fleiss"]) == 0
    assert "undefined (every rating is '3'" in capsys.readouterr().out


def test_cli_names_the_line_of_a_bad_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.csv"
    path.write_text("item,rater,label\ni1,ana,1\ni1,ana,2\n")
    assert main(["agreement", str(path), "--method", "cohen"]) == 2
    assert f"{path}:3: item i1: rater 'ana' rated it already on line 2" in capsys.readouterr().err
    path.write_text("item,rater,label\ni1,ana,7\ni1,ben,1\n")
    assert main(["agreement", str(path), "--method", "cohen", "--labels", "0,1,2"]) == 2
    assert "the table uses ['7']" in capsys.readouterr().err
    path.write_text("item,rater,label\ni1,ana,good\ni1,ben,bad\n")
    assert main(["agreement", str(path), "--method", "krippendorff-ordinal"]) == 2
    assert "give their order with --labels" in capsys.readouterr().err
