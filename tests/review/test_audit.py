"""The blind two-pass audit: stratified sample, pass-two gate, strata rates, reweighting with a
confidence interval and the threshold analysis over a score band (spec 002)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from statsmodels.stats.proportion import proportion_confint

from stages.cli import main
from stages.errors import AtlasError
from stages.review.audit import Z95, Rate, draw_sample, reweight, threshold_table, wilson


def test_draw_sample_is_seeded_per_stratum_and_checked() -> None:
    strata = {"big": [f"b{n}" for n in range(100)], "small": ["s1", "s2", "s3"]}
    first = draw_sample(strata, {"big": 5, "small": 3}, seed=1)
    assert first == draw_sample(strata, {"big": 5, "small": 3}, seed=1)
    assert first["small"] == ["s1", "s2", "s3"] and len(first["big"]) == 5
    # Changing one stratum's take leaves the other's draw alone.
    assert draw_sample(strata, {"big": 5, "small": 2}, seed=1)["big"] == first["big"]
    with pytest.raises(AtlasError, match="cannot draw 4 of 3"):
        draw_sample(strata, {"big": 5, "small": 4}, seed=1)
    with pytest.raises(AtlasError, match=r"corpus strata \['small'\] have no take"):
        draw_sample(strata, {"big": 5}, seed=1)


def test_wilson_matches_statsmodels() -> None:
    for events, n in ((0, 5), (3, 5), (1, 6), (14, 14)):
        low, high = wilson(events, n) or (0, 0)
        ref = proportion_confint(events, n, alpha=0.05, method="wilson")
        assert (low, high) == pytest.approx(ref)
    assert wilson(0, 0) is None


def test_reweighting_by_corpus_shares() -> None:
    rates = {"A": Rate(5, 1, 1), "B": Rate(4, 2, 0), "C": Rate(5, 3, 0)}
    population = {"A": 40, "B": 10, "C": 5}
    result = reweight(rates, population)
    rate = 40 / 55 * 1 / 5 + 10 / 55 * 2 / 4 + 5 / 55 * 3 / 5
    variance = (40 / 55) ** 2 * (1 - 5 / 40) * 0.2 * 0.8 / 4 + (10 / 55) ** 2 * 0.6 * 0.25 / 3
    assert result.rate == pytest.approx(rate) and result.coverage == 1.0
    assert result.ci95 == pytest.approx(
        (rate - Z95 * math.sqrt(variance), rate + Z95 * math.sqrt(variance))
    )
    lone = reweight({"A": Rate(1, 1, 0), "B": Rate(0, 0, 2)}, {"A": 40, "B": 10})
    assert lone.rate == 1.0 and lone.ci95 is None and "one judged item" in str(lone.reason)
    assert lone.coverage == pytest.approx(40 / 50)


def test_threshold_table_per_score_and_cut() -> None:
    scored = [
        (4.0, "no"),
        (5.0, "no"),
        (6.0, "no"),
        (7.0, "yes"),
        (7.0, "yes"),
        (9.0, "no"),
        (6.0, None),
    ]
    table: Any = threshold_table(scored, (4, 7), "no")
    assert {s: (v["events"], v["judged"]) for s, v in table["per_score"].items()} == {
        "4": (1, 1),
        "5": (1, 1),
        "6": (1, 1),
        "7": (0, 2),
    }
    assert table["per_score"]["6"]["unresolved"] == 1
    assert table["cuts"]["5"]["kept"]["rate"] == 0.5  # 5, 6, 7, 7: two of four do not convert
    assert table["cuts"]["5"]["rejected"]["rate"] == 1.0


def _labels_for(key: dict[str, Any]) -> dict[str, dict[str, str]]:
    """converts per reviewer: one A item 'no', two B items 'no', C 'no' below score 7, one A
    item split three ways (unresolved); cid says borderline on everything else."""
    by_stratum: dict[str, list[tuple[str, str]]] = {}
    for blind, item in sorted(key["items"].items(), key=lambda kv: kv[1]["row_id"]):
        by_stratum.setdefault(item["stratum"], []).append((blind, item["row_id"]))
    plan: dict[str, dict[str, str]] = {}
    for stratum, items in by_stratum.items():
        for rank, (blind, _row) in enumerate(items):
            score = key["items"][blind]["score"]
            event = (
                (stratum == "A" and rank == 0)
                or (stratum == "B" and rank < 2)
                or (stratum == "C" and score < 7)
            )
            label = "no" if event else "yes"
            plan[blind] = {"ana": label, "ben": label, "cid": "borderline"}
            if stratum == "A" and rank == 1:
                plan[blind] = {"ana": "yes", "ben": "no", "cid": "borderline"}
    return plan


def test_two_pass_audit_end_to_end(
    audit_project: Path, fill: Any, no_lists: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "export", "--study", "conv"]) == 0
    key = json.loads(Path("results/review/conv/key.json").read_text())
    assert len(key["items"]) == 15
    package = Path("review/packages/conv/ana/pass1.md")
    text = package.read_text()
    assert package.stat().st_mode & 0o222 == 0
    assert "q-0" not in text and "rescore" not in text and "stratum" not in text
    assert "Open question" not in text  # the rewrite only shows in pass two
    assert not any("KEY" in p.name or "key" in p.name for p in Path("review/packages").rglob("*"))

    assert main(["review", "export", "--study", "conv", "--pass", "2"]) == 2
    err = capsys.readouterr().err
    for reviewer in ("ana", "ben", "cid"):
        assert f"pass 2 refused for {reviewer}: pass one is not complete" in err
    assert not Path("review/packages/conv/ana/pass2.md").exists()

    plan = _labels_for(key)
    for reviewer in ("ana", "ben", "cid"):
        fill(
            Path(f"review/verdicts/conv/{reviewer}.pass1.json"),
            lambda b, f, r=reviewer: plan[b][r] if f == "converts" else "yes",
        )
        if reviewer == "ana":
            assert main(["review", "export", "--study", "conv", "--pass", "2"]) == 2
            err = capsys.readouterr().err
            assert "refused for ana" not in err and "refused for ben" in err
            two = Path("review/packages/conv/ana/pass2.md").read_text()
            assert "Open question" in two
            pass_two = [b for b, i in key["items"].items() if 2 in i["passes"]]
            assert two.count("Fields to fill: same_question, self_contained") == len(pass_two)

    assert main(["review", "import", "--study", "conv"]) == 0
    metrics = json.loads(Path("metrics/review.conv.json").read_text())
    outcome = metrics["outcome"]
    per = outcome["per_stratum"]
    assert {s: (v["events"], v["judged"], v["unresolved"]) for s, v in per.items()} == {
        "A": (1, 5, 1),
        "B": (2, 4, 0),
        "C": (3, 5, 0),
    }
    assert per["A"]["population"] == 40 and per["A"]["drawn"] == 6
    expected = reweight(
        {"A": Rate(5, 1, 1), "B": Rate(4, 2, 0), "C": Rate(5, 3, 0)}, {"A": 40, "B": 10, "C": 5}
    )
    assert outcome["reweighted"]["rate"] == pytest.approx(expected.rate)
    assert outcome["sample_rate_not_corpus_rate"]["rate"] == pytest.approx(6 / 14)
    assert metrics["threshold"]["per_score"]["7"]["judged"] == 2
    fleiss = metrics["passes"]["1"]["converts"]["agreement"]["fleiss"]
    assert fleiss["items"] == 15 and fleiss["value"] is not None
    assert "cohen" not in metrics["passes"]["1"]["converts"]["agreement"]  # three raters
    assert metrics["unresolved"] == 1
    assert no_lists(metrics) == []
