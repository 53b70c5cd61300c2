"""The judge's figure corrected for the judge's measured error (misclassification correction).

On the calibration items the humans' final label ``h`` and the judge's grade ``j`` are both
known, so the judge's error is a matrix ``P[h, j]`` = share of items the humans put at ``h`` that
the judge put at ``j`` (for a right/wrong track: its sensitivity and specificity). On the items
only the judge graded, the share ``q`` of each judge grade is what a human share ``π`` looks like
through that error: ``q = π P``. Solving for ``π`` and taking its mean grade gives the figure on
the human scale. With two grades this is the Rogan–Gladen estimator,
``π₁ = (q₁ + Sp − 1) / (Se + Sp − 1)``; with more it is the inversion of the misclassification
matrix. A solution outside the valid range (a negative share) is clipped to it and flagged.

The interval is the delta method over both sources of error: the judge-only items (multinomial
over ``q``) and the calibration items (one multinomial per human label, over each row of ``P``).
With ``u = P⁻¹ v`` (``v`` the grade values) the estimate is ``q · u`` and its variance is
``var_u(q) / m + Σ_h π_h² var_u(P_h) / n_h``. The variances are read at shares smoothed by
:data:`PSEUDO_COUNT` items per row: without it a judge that never erred on a row of 12 calibration
items would look error-free and the interval would forget that row (``tests/bench`` measured the
choice against a percentile bootstrap; docs/review.md#corrected-judge-figures).

Planning: the calibration part of the variance falls as ``1/n`` for ``n`` labels in the same mix
of human grades, so the labels for a target width ``w`` solve ``z²(A/m + B/n) = (w/2)²``; when the
judge-only items alone are wider than ``w`` no number of labels reaches it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
"""Two-sided 95 % normal quantile."""
PSEUDO_COUNT = 1.0
"""Items added to each row, spread evenly over its cells, before the variances are read (never
before the estimate): 1/2 per cell for a right/wrong track, 1/5 for a 0-4 rubric."""


class NotCorrectable(ValueError):
    """The judge's error cannot be inverted from these counts; the message says why."""


@dataclass(frozen=True)
class Correction:
    """The corrected figure of one track, its interval and the labels a target width needs."""

    estimate: float
    """Corrected mean grade on the human scale, clipped to the grade range."""
    low: float
    """Lower bound of the 95 % interval (clipped to the grade range)."""
    high: float
    """Upper bound of the 95 % interval (clipped to the grade range)."""
    clipped: bool
    """True when the solved human shares left the valid range and were clipped to it."""
    raw: float
    """The judge's own mean grade on the same items (uncorrected)."""
    raw_low: float
    """Lower bound of the uncorrected interval (judge-only items' sampling error only)."""
    raw_high: float
    """Upper bound of the uncorrected interval."""
    items: int
    """Judge-only items with a parsed grade."""
    calibration_items: int
    """Calibration items with a human label and a parsed judge grade."""
    se_items: float
    """Standard error from the judge-only items."""
    se_calibration: float
    """Standard error from the calibration items (the judge's estimated error)."""
    labels_for_width: int | None
    """Calibration labels (same mix of human grades) for an interval no wider than the target;
    None when the judge-only items alone are wider."""


def _spread(weights: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Variance of ``u`` under each row of ``weights`` (rows sum to 1)."""
    mean = weights @ u
    return np.asarray(weights @ (u * u) - mean * mean)


def _smoothed(counts: np.ndarray) -> np.ndarray:
    shares = counts + PSEUDO_COUNT / counts.shape[-1]
    return np.asarray(shares / shares.sum(axis=-1, keepdims=True))


def error_matrix(confusion: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``P[h, j]``: the judge's grade shares per human label; refused when a row is empty or
    the matrix cannot be inverted (a judge whose grades do not tell the labels apart)."""
    rows = confusion.sum(axis=1)
    if (rows == 0).any():
        empty = ", ".join(f"{values[i]:g}" for i in np.flatnonzero(rows == 0))
        raise NotCorrectable(f"no calibration item has the human grade {empty}: the judge's "
                             "error on it is unknown")  # fmt: skip
    matrix = confusion / rows[:, None]
    if abs(np.linalg.det(matrix)) < 1e-9:
        raise NotCorrectable("the judge's grades do not tell the human labels apart "
                             "(singular error matrix)")  # fmt: skip
    return np.asarray(matrix)


def correct(
    confusion: Sequence[Sequence[int]],
    observed: Sequence[int],
    values: Sequence[float],
    target_width: float | None = None,
) -> Correction:
    """Corrected mean of the judge-only items from the calibration ``confusion`` (human rows,
    judge columns, parsed grades only), the judge-only items' grade counts ``observed`` and the
    grade ``values``. ``target_width``: full width of the wanted interval, in grade units."""
    table = np.asarray(confusion, dtype=float)
    counts = np.asarray(observed, dtype=float)
    v = np.asarray(values, dtype=float)
    m, n_rows = counts.sum(), table.sum(axis=1)
    if m == 0:
        raise NotCorrectable("no item graded by the judge alone")
    matrix = error_matrix(table, v)
    q = counts / m
    u = np.linalg.solve(matrix, v)
    shares = np.linalg.solve(matrix.T, q)
    var_items = float(_spread(_smoothed(counts)[None, :], u)[0]) / m
    per_row = np.asarray(_spread(_smoothed(table), u)) / n_rows
    var_calibration = float(np.sum(shares**2 * per_row))
    half = Z95 * math.sqrt(var_items + var_calibration)
    lo, hi = float(v.min()), float(v.max())
    centre = float(shares @ v)
    raw = float(q @ v)
    raw_half = Z95 * math.sqrt(float(_spread(_smoothed(counts)[None, :], v)[0]) / m)
    return Correction(
        estimate=min(max(centre, lo), hi),
        low=min(max(centre - half, lo), hi),
        high=min(max(centre + half, lo), hi),
        clipped=bool((shares < -1e-12).any()) or not lo - 1e-12 <= centre <= hi + 1e-12,
        raw=raw,
        raw_low=max(lo, raw - raw_half),
        raw_high=min(hi, raw + raw_half),
        items=int(m),
        calibration_items=int(n_rows.sum()),
        se_items=math.sqrt(var_items),
        se_calibration=math.sqrt(var_calibration),
        labels_for_width=None
        if target_width is None
        else labels_needed(var_items, var_calibration * n_rows.sum(), target_width),
    )


def labels_needed(var_items: float, per_label: float, width: float) -> int | None:
    """Calibration labels ``n`` with ``2 z √(var_items + per_label / n) ≤ width``; None when
    ``var_items`` alone is too wide."""
    room = (width / (2 * Z95)) ** 2 - var_items
    if room <= 0:
        return None
    return max(1, math.ceil(per_label / room))


def rogan_gladen(apparent: float, sensitivity: float, specificity: float) -> float:
    """The two-grade correction, unclipped: the true share of right answers."""
    return (apparent + specificity - 1.0) / (sensitivity + specificity - 1.0)
