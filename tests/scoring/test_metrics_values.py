"""Metrics arithmetic: Wilson interval, accuracy cells, breakdowns, grid, DROP and chrF blocks."""

from __future__ import annotations

from typing import Any

import pytest
from sacrebleu.metrics import CHRF
from scipy.stats import norm
from scipy.stats import t as t_dist
from statsmodels.stats.proportion import proportion_confint

from stages.scoring.metrics import (
    ScoredRecord,
    accuracy_cell,
    breakdowns,
    chrf_block,
    drop_block,
    eval_metrics,
    haystack_grid,
    prompts_metrics,
    row_facts,
    wilson_interval,
)


def rec(row_id: str, correct: bool | None, scorer: str | None = "exact", **kw: Any) -> ScoredRecord:
    fields: dict[str, Any] = {
        "repeat": 0,
        "score": None if correct is None else float(correct),
        "extracted": None,
        "why": "",
        "extras": {},
        "failed": None,
        "correct_flexible": correct,
    }
    fields.update(kw)
    return ScoredRecord(id=row_id, scorer=scorer, correct=correct, **fields)


# Hand-computed from p, z^2 = 3.841458820694124: centre = (p + z^2/2n) / (1 + z^2/n),
# half = z / (1 + z^2/n) * sqrt(p(1-p)/n + z^2/4n^2).
@pytest.mark.parametrize(
    ("correct", "n", "low", "high"),
    [
        (8, 10, 0.4901624715366418, 0.9433178485456248),
        (0, 10, 0.0, 0.2775327998628892),  # high = z^2 / (n + z^2)
        (10, 10, 0.7224672001371107, 1.0),  # low = n / (n + z^2)
        (1, 3, 0.06149194472039615, 0.7923403991979523),
    ],
)
def test_wilson_interval_hand_values(correct: int, n: int, low: float, high: float) -> None:
    got = wilson_interval(correct, n)
    assert got == pytest.approx((low, high), abs=1e-12)
    reference = proportion_confint(correct, n, alpha=0.05, method="wilson")
    assert got == pytest.approx(reference, abs=1e-9)


def test_wilson_extremes_are_exact_and_empty_is_refused() -> None:
    assert wilson_interval(0, 7)[0] == 0.0
    assert wilson_interval(7, 7)[1] == 1.0
    with pytest.raises(ValueError):
        wilson_interval(0, 0)


def test_accuracy_cell_ignores_non_binary_scorers() -> None:
    records = [rec("a", True), rec("b", False), rec("c", None, scorer="chrf"), rec("d", True)]
    assert accuracy_cell(records) == {
        "n": 3,
        "correct": 2,
        "accuracy": 0.666667,
        "correct_flexible": 2,
        "accuracy_flexible": 0.666667,
    }


def test_breakdowns_by_every_facet_rows_carry() -> None:
    records = [
        rec("a", True, facets={"category": "x", "difficulty": "easy", "scorer": "exact"}),
        rec("b", False, facets={"category": "x", "difficulty": "hard", "scorer": "exact"}),
        rec("c", True, scorer="mc", facets={"category": "y", "lang": "fr", "scorer": "mc"}),
        rec("d", None, scorer="chrf", facets={"category": "z", "scorer": "chrf"}),
    ]
    assert breakdowns(records) == {
        "category": {
            "x": {
                "n": 2,
                "correct": 1,
                "accuracy": 0.5,
                "correct_flexible": 1,
                "accuracy_flexible": 0.5,
            },
            "y": {
                "n": 1,
                "correct": 1,
                "accuracy": 1.0,
                "correct_flexible": 1,
                "accuracy_flexible": 1.0,
            },
        },
        "difficulty": {
            "easy": {
                "n": 1,
                "correct": 1,
                "accuracy": 1.0,
                "correct_flexible": 1,
                "accuracy_flexible": 1.0,
            },
            "hard": {
                "n": 1,
                "correct": 0,
                "accuracy": 0.0,
                "correct_flexible": 0,
                "accuracy_flexible": 0.0,
            },
        },
        "lang": {
            "fr": {
                "n": 1,
                "correct": 1,
                "accuracy": 1.0,
                "correct_flexible": 1,
                "accuracy_flexible": 1.0,
            }
        },
        "scorer": {
            "exact": {
                "n": 2,
                "correct": 1,
                "accuracy": 0.5,
                "correct_flexible": 1,
                "accuracy_flexible": 0.5,
            },
            "mc": {
                "n": 1,
                "correct": 1,
                "accuracy": 1.0,
                "correct_flexible": 1,
                "accuracy_flexible": 1.0,
            },
        },
    }


def test_row_facts_top_level_then_meta_and_haystack_cells() -> None:
    longctx = {
        "id": "lc-1",
        "category": "needle",
        "prompt": "What is the code?",
        "answer": "48213",
        "meta": {"lang": "en", "haystack": {"target_tokens": 8192, "needles": [{"depth": 0.25}]}},
    }
    facts = row_facts(longctx)
    assert facts == {
        "facets": {"category": "needle", "lang": "en"},
        "haystack": {"target_tokens": "8192", "depth": "25%"},
        "gold": "48213",
        "prompt_excerpt": "What is the code?",
    }
    multi = {"id": "h", "target_tokens": 1024, "needles": [{"depth": 0.1}, {"depth": 0.9}]}
    assert row_facts(multi)["haystack"] == {"target_tokens": "1024", "depth": "multi"}
    long_prompt = {"id": "p", "messages": [{"role": "user", "content": "a" * 200 + "b" * 200}]}
    assert row_facts(long_prompt)["prompt_excerpt"] == "a" * 120 + " … " + "b" * 120


def test_haystack_grid_is_accuracy_per_length_and_depth() -> None:
    def cell(tokens: str, depth: str) -> dict[str, str]:
        return {"target_tokens": tokens, "depth": depth}

    records = [
        rec("a", True, haystack=cell("1024", "0%")),
        rec("b", False, haystack=cell("1024", "0%")),
        rec("c", True, haystack=cell("1024", "50%")),
        rec("d", False, haystack=cell("8192", "50%")),
        rec("e", True),
    ]
    assert haystack_grid(records) == {"1024": {"0%": 0.5, "50%": 1.0}, "8192": {"50%": 0.0}}


def test_drop_means_count_a_failed_request_as_zero() -> None:
    records = [
        rec("a", True, scorer="drop", extras={"em": 1.0, "f1": 1.0}),
        rec("b", False, scorer="drop", extras={"em": 0.0, "f1": 0.5}),
        rec("c", False, scorer="drop", failed="timeout"),
        rec("d", True),
    ]
    assert drop_block(records) == {"n": 3, "em": 0.333333, "f1": 0.5}
    assert drop_block([rec("d", True)]) is None


def test_chrf_block_equals_sacrebleu_with_variable_references() -> None:
    records = [
        rec("a", None, scorer="chrf", extracted="the cat sat", gold="the cat sat down", score=60.0),
        rec("b", None, scorer="chrf", extracted="a dog", gold=["a dog", "one dog"], score=100.0),
        rec("c", None, scorer="chrf", extracted=None, gold="hello", score=0.0, failed="timeout"),
    ]
    metric = CHRF(word_order=2)
    expected = metric.corpus_score(
        ["the cat sat", "a dog", ""],
        [["the cat sat down", "a dog", "hello"], [None, "one dog", None]],  # type: ignore[list-item]
    ).score
    block = chrf_block(records)
    assert block is not None
    assert block["chrf_corpus"] == round(expected, 6)
    assert block["chrf_sentence_mean"] == pytest.approx(160 / 3, abs=1e-6)
    assert block["n"] == 3
    assert block["label"].startswith("secondary")
    assert block["signature"].startswith("nrefs:var|case:mixed|eff:yes|nc:6|nw:2|space:no|")


def test_eval_metrics_lists_failures_and_counts_them_wrong() -> None:
    records = [
        rec("a", True),
        rec("a", False, repeat=1, failed="timeout"),
        rec("b", False, failed="context_overflow"),
        rec("c", True),
    ]
    got = eval_metrics(records)
    # Row "a" is repeated: its two records are one cluster, so 3 clusters of sizes 2, 1, 1
    # (fewer than 50 effective) and the interval is Wilson's on the effective clusters,
    # 4^2 / (4 + 1 + 1) = 8/3, with the t quantile on the Bell–McCaffrey df (issue 34):
    # (1/n)^2 / (sum d^2 - 2 sum d u^2 + (sum u^2)^2), d = (1/4, 1/12, 1/12),
    # u^2 = (1/8, 1/48, 1/48): 0.0625 / 0.0347222 = 1.8 (the clusters' own df, 4, is larger).
    z = t_dist.isf(0.025, 1.8)
    low, high = proportion_confint(4 / 3, 8 / 3, alpha=2 * norm.sf(z), method="wilson")
    assert got == {
        "n": 4,
        "correct": 2,
        "accuracy": 0.5,
        "correct_flexible": 2,
        "accuracy_flexible": 0.5,
        "wilson_95": {"low": round(low, 6), "high": round(high, 6)},
        "failed": 2,
        "failures": {"a#1": "timeout", "b": "context_overflow"},
        "breakdowns": {},
    }


def test_prompts_metrics_count_without_accuracy() -> None:
    records = [
        rec("p1", None, scorer=None, facets={"bucket": "xs"}),
        rec("p2", None, scorer=None, facets={"bucket": "xs"}, failed="http_5xx"),
        rec("p3", None, scorer=None, facets={"bucket": "m"}),
    ]
    assert prompts_metrics(records) == {
        "n": 3,
        "failed": 1,
        "failures": {"p2": "http_5xx"},
        "breakdowns": {"bucket": {"m": {"n": 1, "failed": 0}, "xs": {"n": 2, "failed": 1}}},
    }
