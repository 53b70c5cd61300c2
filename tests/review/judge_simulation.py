"""Known-truth simulation of the corrected judge figure (issue 34), shared by the seeded test
(``test_judge_correction.py``) and the larger grid of ``tests/bench/bench_judge_correction.py``.

A design is a human grade distribution ``π`` (the truth: its mean is the figure to cover), a
judge whose error matrix ``P[h, j]`` is known, ``n`` calibration items drawn from the same
population as the ``m`` judge-only items. Per replicate: the calibration's confusion (``n`` draws
of (human, judge) from ``π_h P_hj``) and the judge-only grade counts (``m`` draws from ``π P``).
Three intervals are scored against the truth: the corrected one (:func:`correct`), the same
centre with the calibration's uncertainty left out (``se_items`` only: a judge's error treated
as known), and the uncorrected one (the judge's own mean).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stages.judge.correction import Z95, NotCorrectable, correct


@dataclass(frozen=True)
class Design:
    """One cell of the grid."""

    name: str
    """How the bench prints it."""
    shares: tuple[float, ...]
    """π: the humans' grade distribution of the population."""
    error: tuple[tuple[float, ...], ...]
    """P: row h is the judge's grade distribution on items the humans put at h."""
    calibration: int
    """Items with a human label and a judge grade (n)."""
    judge_only: int = 500
    """Items with a judge grade only (m)."""

    @property
    def truth(self) -> float:
        return float(np.arange(len(self.shares)) @ np.asarray(self.shares))

    @property
    def bias(self) -> float:
        """The judge's mean minus the truth, in units of the uncorrected interval's SE."""
        seen = np.asarray(self.shares) @ np.asarray(self.error)
        values = np.arange(len(self.shares))
        mean = float(seen @ values)
        spread = float(seen @ values**2) - mean**2
        return (mean - self.truth) / float(np.sqrt(spread / self.judge_only))


@dataclass(frozen=True)
class Coverage:
    """Shares of correctable replicates whose interval held the truth."""

    corrected: float
    """The shipped interval (:func:`correct`)."""
    known_error: float
    """Corrected centre, interval without the calibration's uncertainty."""
    uncorrected: float
    """The judge's own mean and its interval."""
    correctable: float
    """Share of replicates the correction could be computed for (an empty row is not)."""
    mean_width: float
    """Mean width of the shipped interval, in grades."""


def binary(se: float, sp: float, prevalence: float, n: int, m: int = 500) -> Design:
    """A right/wrong track: grade 1 right; sensitivity ``se``, specificity ``sp``."""
    return Design(
        f"Se {se} Sp {sp} p {prevalence} n {n}",
        (1 - prevalence, prevalence),
        ((sp, 1 - sp), (1 - se, se)),
        n,
        m,
    )


def banded(shares: tuple[float, ...], exact: float, upward: float, n: int) -> Design:
    """A graded judge: right with ``exact``, else one grade off, up with share ``upward``."""
    k = len(shares)
    rows = []
    for h in range(k):
        row = [0.0] * k
        row[h] = exact
        near = {h - 1: 1 - upward, h + 1: upward}
        inside = {j: w for j, w in near.items() if 0 <= j < k}
        for j, w in inside.items():
            row[j] = (1 - exact) * w / sum(inside.values())
        rows.append(tuple(row))
    return Design(f"0-{k - 1} exact {exact} up {upward} π {shares} n {n}", shares, tuple(rows), n)


def cover(design: Design, replicates: int, rng: np.random.Generator) -> Coverage:
    """Run ``replicates`` draws of ``design``."""
    k = len(design.shares)
    values = np.arange(k, dtype=float)
    error = np.asarray(design.error)
    joint = (np.asarray(design.shares)[:, None] * error).ravel()
    seen = np.asarray(design.shares) @ error
    truth = design.truth
    hits = np.zeros(3)
    done, width = 0, 0.0
    for _ in range(replicates):
        table = rng.multinomial(design.calibration, joint).reshape(k, k)
        observed = rng.multinomial(design.judge_only, seen)
        try:
            result = correct(table, observed, values)
        except NotCorrectable:
            continue
        done += 1
        width += result.high - result.low
        known = Z95 * result.se_items
        hits += (
            result.low <= truth <= result.high,
            result.estimate - known <= truth <= result.estimate + known,
            result.raw_low <= truth <= result.raw_high,
        )
    shares = hits / max(done, 1)
    return Coverage(*map(float, shares), done / replicates, width / max(done, 1))
