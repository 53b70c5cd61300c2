"""The corrected judge figure's interval over a larger known-truth grid (issue 34); ``make test``
runs a bounded grid (``tests/review/test_judge_correction.py``).

Per design (tests/review/judge_simulation.py: a right/wrong judge of known sensitivity and
specificity, or a graded judge of known error over a 0-2 or 0-4 rubric; 30 to 300 calibration
items; 500 judge-only items) it prints the coverage of the 95 % intervals: the delta method that
``stages.judge.correction`` uses, a percentile bootstrap over the calibration and judge-only items
(the alternative it was chosen against, on fewer replicates), the same centre with the judge's
error taken as known, and the judge's own uncorrected mean; with the share of draws the
correction could be computed for and the delta interval's mean width.

Run: ``.venv/bin/python tests/bench/bench_judge_correction.py``. Prints figures; asserts
nothing. Runtime on two shared cores: about a minute.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.review.judge_simulation import Design, banded, binary, cover  # noqa: E402

REPLICATES = 4000
BOOTSTRAP_REPLICATES = 400
RESAMPLES = 400


def bootstrap_coverage(design: Design, rng: np.random.Generator) -> float:
    """Percentile bootstrap: resample the calibration pairs and the judge-only grades (each a
    multinomial draw at its observed shares), re-solve, take the 2.5 and 97.5 % points."""
    k = len(design.shares)
    values = np.arange(k, dtype=float)
    joint = (np.asarray(design.shares)[:, None] * np.asarray(design.error)).ravel()
    seen = np.asarray(design.shares) @ np.asarray(design.error)
    hits = done = 0
    for _ in range(BOOTSTRAP_REPLICATES):
        table = rng.multinomial(design.calibration, joint)
        observed = rng.multinomial(design.judge_only, seen)
        tables = rng.multinomial(design.calibration, table / table.sum(), size=RESAMPLES)
        tables = tables.reshape(RESAMPLES, k, k).astype(float)
        counts = rng.multinomial(design.judge_only, observed / observed.sum(), size=RESAMPLES)
        rows = tables.sum(axis=2)
        usable = (rows > 0).all(axis=1)
        if not (table.reshape(k, k).sum(axis=1) > 0).all() or usable.sum() < RESAMPLES // 2:
            continue
        matrices = tables[usable] / rows[usable][:, :, None]
        solvable = np.abs(np.linalg.det(matrices)) > 1e-9
        if solvable.sum() < RESAMPLES // 2:
            continue
        q = counts[usable][solvable] / design.judge_only
        slopes = np.linalg.solve(matrices[solvable], np.broadcast_to(values, q.shape)[..., None])
        estimates = np.clip((q * slopes[..., 0]).sum(axis=1), values[0], values[-1])
        low, high = np.quantile(estimates, [0.025, 0.975])
        done += 1
        hits += low <= design.truth <= high
    return hits / max(done, 1)


def grid() -> list[Design]:
    judges = [(0.9, 0.9), (0.95, 0.7), (0.8, 0.95), (0.75, 0.75)]
    cells = [
        binary(se, sp, p, n)
        for se, sp in judges
        for p in (0.1, 0.3, 0.5, 0.8)
        for n in (30, 60, 100, 300)
    ]
    graded = [(0.5, 0.3, 0.2), (0.2, 0.3, 0.5), (0.1, 0.2, 0.3, 0.25, 0.15)]
    cells += [
        banded(s, exact, up, n)
        for s in graded
        for exact, up in [(0.8, 0.5), (0.7, 0.8)]
        for n in (30, 60, 100, 300)
    ]
    return cells


def main() -> None:
    rng = np.random.default_rng(2034)
    start = time.monotonic()
    print(
        f"{REPLICATES} replicates per design ({BOOTSTRAP_REPLICATES} for the bootstrap, "
        f"{RESAMPLES} resamples); 500 judge-only items; coverage of the 95 % intervals"
    )
    columns = " ".join(f"{c:>6}" for c in ("delta", "boot", "known", "raw", "ok", "width"))
    print(f"{'design':58} {columns}")
    worst = {"delta": 1.0, "boot": 1.0}
    for design in grid():
        got = cover(design, REPLICATES, rng)
        boot = bootstrap_coverage(design, rng)
        worst = {"delta": min(worst["delta"], got.corrected), "boot": min(worst["boot"], boot)}
        print(
            f"{design.name:58} {got.corrected:6.3f} {boot:6.3f} {got.known_error:6.3f} "
            f"{got.uncorrected:6.3f} {got.correctable:6.2f} {got.mean_width:6.3f}"
        )
    print(f"lowest coverage: delta {worst['delta']:.3f}, bootstrap {worst['boot']:.3f}")
    print(f"{time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
