"""The figures a scored workload exports, each exactly as ``metrics/<w>.json`` holds it.

Accuracy comes with the interval and standard error ``atlas score`` committed (Wilson's interval
on the effective sample size over the clusters, the CR1 standard error when there are enough
clusters: docs/comparing.md#the-method); DROP's F1 and the translation track's sentence chrF++
come as figures without an interval, because the metrics hold none. Nothing is recomputed here:
an export reports the committed figures, and each item's own score beside them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from stages.compare.pairs import Item
from stages.export.run_files import ScoredWorkload


@dataclass(frozen=True)
class Figure:
    """One exported figure of one workload."""

    workload: ScoredWorkload
    measure: str
    """``accuracy``, ``f1`` or ``chrf``."""
    score: float
    """The committed figure."""
    scale: tuple[float, float]
    """The range of the figure and of each item's score."""
    n: int
    """How many records (items x repeats) it is taken over."""
    item_score: Callable[[Item], float | None]
    """An item's own score on the same scale (None: the item does not count)."""
    interval: tuple[float, float] | None = None
    """The committed 95 % interval, when there is one."""
    standard_error: float | None = None
    """The committed cluster-robust standard error, when there is one."""
    details: dict[str, Any] = field(default_factory=dict)
    """The other committed counts of the figure (clusters, effective n, failed...)."""

    @property
    def result_id(self) -> str:
        """``<workload>/<measure>``: the id that ties instance records to the figure."""
        return f"{self.workload.name}/{self.measure}"


def _right(item: Item) -> float:
    # A failed request is wrong, as in the committed accuracy (docs/formats.md#metrics).
    return 1.0 if item.correct is True else 0.0


def _graded(item: Item) -> float | None:
    return item.score


def _accuracy(workload: ScoredWorkload) -> Figure | None:
    metrics = workload.metrics
    if metrics.get("accuracy") is None:
        return None
    wilson = metrics.get("wilson_95") or {}
    clustered = metrics.get("clustered") or {}
    interval = (wilson["low"], wilson["high"]) if wilson.get("low") is not None else None
    details = {k: metrics.get(k) for k in ("correct", "failed", "repeats", "accuracy_flexible")}
    details |= {k: clustered.get(k) for k in ("clusters", "n_eff", "note")}
    return Figure(
        workload,
        "accuracy",
        float(metrics["accuracy"]),
        (0.0, 1.0),
        int(metrics["n"]),
        _right,
        interval,
        clustered.get("se"),
        details,
    )


def _f1(workload: ScoredWorkload) -> Figure | None:
    drop = workload.metrics.get("drop")
    if not isinstance(drop, dict) or drop.get("f1") is None:
        return None
    details = {"em": drop.get("em")}
    return Figure(
        workload, "f1", float(drop["f1"]), (0.0, 1.0), int(drop["n"]), _graded, details=details
    )


def _chrf(workload: ScoredWorkload) -> Figure | None:
    secondary = workload.metrics.get("secondary")
    if not isinstance(secondary, dict) or secondary.get("chrf_sentence_mean") is None:
        return None
    counted = sum(1 for item in workload.items if item.score is not None)
    n = int(secondary.get("n", counted))
    details = {k: secondary.get(k) for k in ("chrf_corpus", "signature")}
    return Figure(
        workload,
        "chrf",
        float(secondary["chrf_sentence_mean"]),
        (0.0, 100.0),
        n,
        _graded,
        details=details,
    )


def figures_of(workload: ScoredWorkload) -> list[Figure]:
    """The workload's exported figures: accuracy, then DROP F1 or chrF++ where committed."""
    found = (_accuracy(workload), _f1(workload), _chrf(workload))
    return [figure for figure in found if figure is not None]
