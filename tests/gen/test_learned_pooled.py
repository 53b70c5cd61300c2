"""The learned answer-free baseline of the suites-b datasets (issue 19), as ``atlas dataset
audit ID`` and ``atlas dataset audit ID --fresh`` compute it: on the committed rows, and pooled
with the three fresh instances the audit draws (``stages.datasets.pooled``). In every answer
format the learner may beat chance by at most 5 points, and no format or family may fail the
audit's verdict (``stages.datasets.learned``). A published dataset is only reported on its
committed rows, so this test is what keeps a generator's shortcut (a recurring gold option
text, a gold that is always the middle speed) from hiding behind a lucky sample."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from stages.datasets.learned import Learned, learn_formats
from stages.datasets.load import load_card
from stages.datasets.pooled import fresh_rows
from tests.gen._checks import REPO, committed_rows

DATASETS = ("eval-math-v3", "eval-vision-v2", "eval-multilingual-v3", "eval-knowledge-v3")
DATASETS += ("eval-science-v4", "eval-math-v5")
DATASETS += ("eval-knowledge-v4", "eval-multilingual-v4", "eval-commonsense-v5")  # issue 30
MAX_POINTS = 5.0


@cache
def _fresh(dataset: str) -> tuple[dict[str, Any], ...]:
    rows, failed = fresh_rows(load_card(REPO / "datasets" / dataset), REPO)
    assert failed == {}, failed
    return tuple(rows)


def _over(learned: dict[str, Learned]) -> dict[str, float]:
    """Formats whose margin is above the bound, or that fail the verdict, with their margin."""
    margins = {fmt: round(100 * res.overall.margin, 1) for fmt, res in learned.items()}
    return {f: m for f, m in margins.items() if m > MAX_POINTS or learned[f].fails}


@pytest.mark.parametrize("dataset", DATASETS)
def test_committed_rows_give_no_learnable_shortcut(dataset: str) -> None:
    learned = learn_formats(committed_rows(dataset))
    assert _over(learned) == {}, [res.describe() for res in learned.values()]


@pytest.mark.parametrize("dataset", DATASETS)
def test_pooled_with_fresh_instances_gives_no_learnable_shortcut(dataset: str) -> None:
    rows = committed_rows(dataset) + list(_fresh(dataset))
    assert len(rows) == 4 * len(committed_rows(dataset))
    learned = learn_formats(rows)
    assert _over(learned) == {}, [res.describe() for res in learned.values()]
