"""From paired items to comparison rows: one per workload, one per category within it, and one
per graded figure (DROP F1, chrF++) — each with a single verdict (issue 10).

Verdict rule. A row says "B better" or "B worse" only when both hold:

* its p-value, Holm-adjusted within its family, is below 0.05 — McNemar's exact test for binary
  items, a Wald test on the clustered standard error for graded ones; the families are the
  workloads' accuracy rows, the workloads' graded rows, and the category rows of each workload;
* its paired, clustered 95 % interval excludes zero (so a cluster-robust interval that is wider
  than the item-level test overrules it).

Otherwise, including when the clustered figure cannot be trusted (few clusters, one item), the
row says "no detectable difference".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from stages.compare import stats
from stages.compare.pairs import Item, WorkloadPairs
from stages.scoring.clustered import clustered_mean

BETTER, WORSE, SAME = "B better", "B worse", "no detectable difference"


@dataclass(frozen=True)
class Row:
    """One line of the comparison."""

    workload: str
    category: str | None
    """None for the whole workload."""
    measure: str
    """``accuracy`` (share correct), ``f1`` (DROP F1, 0-1) or ``chrf`` (chrF++, 0-100)."""
    n: int
    """Paired items (item x repeat)."""
    a: float
    b: float
    delta: float
    """b - a, the mean paired difference."""
    se: float | None
    """Cluster-robust (CR1) standard error of ``delta``; None with ``note`` saying why."""
    ci95: tuple[float, float] | None
    """delta +- 1.96 se, clipped to the possible range of a difference ([-1, 1]; chrF++ +-100)."""
    clusters: int
    note: str | None
    p: float | None
    """McNemar exact (accuracy) or Wald (graded) two-sided p, before adjustment."""
    p_holm: float | None = None
    right_to_wrong: list[str] = field(default_factory=list)
    wrong_to_right: list[str] = field(default_factory=list)
    mde: float | None = None
    """Minimum detectable effect at 80 % power (same unit as ``delta``)."""
    failed_a: int = 0
    failed_b: int = 0
    verdict: str = SAME

    @property
    def family(self) -> str:
        if self.category is not None:
            return f"categories of {self.workload}"
        return "workloads" if self.measure == "accuracy" else "graded"


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0


def accuracy_row(workload: str, category: str | None, pairs: list[tuple[Item, Item]]) -> Row:
    """Accuracy of A and B over binary pairs, with flips, McNemar p and the paired interval."""
    binary = [(a, b) for a, b in pairs if a.correct is not None and b.correct is not None]
    a_values = [1.0 if a.correct else 0.0 for a, _ in binary]
    b_values = [1.0 if b.correct else 0.0 for _, b in binary]
    diffs = [y - x for x, y in zip(a_values, b_values, strict=True)]
    clustered = clustered_mean(diffs, [b.cluster for _, b in binary])
    down = [a.key for a, b in binary if a.correct and not b.correct]
    up = [a.key for a, b in binary if b.correct and not a.correct]
    n = len(binary)
    return Row(
        workload=workload,
        category=category,
        measure="accuracy",
        n=n,
        a=_mean(a_values),
        b=_mean(b_values),
        delta=_mean(diffs),
        se=clustered.se,
        ci95=clustered.ci95(-1.0, 1.0),  # a difference of shares lies in [-1, 1]
        clusters=clustered.clusters,
        note=clustered.note,
        p=stats.mcnemar_exact(len(down), len(up)) if n else None,
        right_to_wrong=down,
        wrong_to_right=up,
        mde=stats.minimum_detectable_effect(n, (len(down) + len(up)) / n) if n else None,
        failed_a=sum(a.failed is not None for a, _ in binary),
        failed_b=sum(b.failed is not None for _, b in binary),
    )


def graded_measure(signature: dict[str, Any]) -> str:
    scorers = signature.get("scorers") or {}
    return "f1" if "drop" in scorers else "chrf" if "chrf" in scorers else "score"


def graded_row(workload: str, measure: str, pairs: list[tuple[Item, Item]]) -> Row | None:
    """Mean graded score of A and B (DROP F1, chrF++), paired and clustered; None without any."""
    graded = [(a, b) for a, b in pairs if a.score is not None and b.score is not None]
    if not graded:
        return None
    diffs = [float(b.score or 0.0) - float(a.score or 0.0) for a, b in graded]
    clustered = clustered_mean(diffs, [b.cluster for _, b in graded])
    delta = _mean(diffs)
    bound = 100.0 if measure == "chrf" else 1.0  # chrF++ is on 0-100, F1 on 0-1
    if clustered.se is None:
        p = None
    elif clustered.se == 0:
        p = 1.0 if delta == 0 else 0.0
    else:
        p = stats.wald_p(delta, clustered.se)
    return Row(
        workload=workload,
        category=None,
        measure=measure,
        n=len(graded),
        a=_mean([float(a.score or 0.0) for a, _ in graded]),
        b=_mean([float(b.score or 0.0) for _, b in graded]),
        delta=delta,
        se=clustered.se,
        ci95=clustered.ci95(-bound, bound),
        clusters=clustered.clusters,
        note=clustered.note,
        p=p,
        mde=stats.minimum_detectable_effect(len(graded), stats.sample_variance(diffs)),
        failed_a=sum(a.failed is not None for a, _ in graded),
        failed_b=sum(b.failed is not None for _, b in graded),
    )


def category_of(row: dict[str, Any] | None) -> str | None:
    if row is None:
        return None
    meta = row.get("meta") if isinstance(row.get("meta"), dict) else {}
    value = row.get("category", meta.get("category") if meta else None)
    return str(value) if isinstance(value, str | int) and not isinstance(value, bool) else None


def workload_rows(paired: WorkloadPairs, rows_by_id: dict[str, dict[str, Any]]) -> list[Row]:
    """The accuracy row, the category rows and the graded row of one workload (unadjusted)."""
    out: list[Row] = []
    if any(a.correct is not None and b.correct is not None for a, b in paired.pairs):
        out.append(accuracy_row(paired.workload, None, paired.pairs))
        groups: dict[str, list[tuple[Item, Item]]] = {}
        for a, b in paired.pairs:
            category = category_of(rows_by_id.get(a.id))
            if category is not None:
                groups.setdefault(category, []).append((a, b))
        if len(groups) > 1:
            out += [accuracy_row(paired.workload, c, g) for c, g in sorted(groups.items())]
    graded = graded_row(paired.workload, graded_measure(paired.b.signature), paired.pairs)
    if graded is not None:
        out.append(graded)
    return out


def decide(row: Row) -> str:
    """The verdict of a row whose ``p_holm`` is set (see the module docstring)."""
    if row.p_holm is None or row.ci95 is None or row.p_holm >= stats.ALPHA:
        return SAME
    low, high = row.ci95
    if row.delta > 0 and low > 0:
        return BETTER
    if row.delta < 0 and high < 0:
        return WORSE
    return SAME


def adjust(rows: list[Row]) -> list[Row]:
    """Holm-adjust each family's p-values, then give every row its verdict (order kept)."""
    families: dict[str, list[int]] = {}
    for index, row in enumerate(rows):
        if row.p is not None:
            families.setdefault(row.family, []).append(index)
    adjusted: dict[int, float] = {}
    for members in families.values():
        for index, value in zip(
            members, stats.holm([rows[i].p or 0.0 for i in members]), strict=True
        ):
            adjusted[index] = value
    out = []
    for index, row in enumerate(rows):
        row = replace(row, p_holm=adjusted.get(index))
        out.append(replace(row, verdict=decide(row)))
    return out
