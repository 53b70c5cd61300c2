"""The comparison statistics *before* issue 18, applied to the same simulated draws as the
current ones (``tests/compare/grid.py``), for the before/after table of docs/comparing.md.

The functions judged are the old ones themselves, imported from an export of the old tree
(``git archive 98fc018 stages | tar -x -C DIR``): McNemar's exact test on records
(``stats.mcnemar_exact``), the CLT interval of the CR1 standard error (``ClusteredMean.ci95``,
with its 20-cluster rule), Holm within the old families and the old verdict rule
(``analysis.adjust``), the old MDE (``stats.minimum_detectable_effect``), the headline Wilson
interval (``metrics.wilson_interval``) and the clustered block's interval. Only the CR1 standard
error itself comes from the simulation's vectorised sums (the same formula, checked against
statsmodels by both versions' tests).

Run by ``bench_compare_stats.py --before DIR`` as ``python compare_before.py DIR OUT.json``.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent


class Before:
    """The estimator ``grid.py`` applies, with the old code's functions."""

    name = "before"

    def __init__(self) -> None:
        from stages.compare import analysis, stats  # the old tree is first on sys.path
        from stages.scoring import clustered, metrics

        self.analysis, self.stats, self.clustered, self.metrics = (
            analysis,
            stats,
            clustered,
            metrics,
        )
        self.mcnemar = cache(stats.mcnemar_exact)

    def _ci(self, mean: float, se: float, n: int, groups: int) -> tuple[float, float] | None:
        if n < 2 or (groups < n and groups < self.clustered.MIN_CLUSTERS):
            return None
        return self.clustered.ClusteredMean(mean, se, n, groups, None).ci95(-1.0, 1.0)

    def test(self, t: Any) -> Any:
        import simulation as sim

        shape = t.up.shape
        p, low, high = np.empty(shape), np.full(shape, np.nan), np.full(shape, np.nan)
        for index in np.ndindex(shape):
            down, up = int(t.down[index]), int(t.up[index])
            p[index] = self.mcnemar(down, up)
            ci = self._ci((up - down) / t.n, float(t.se[index]), t.n, t.clusters)
            if ci is not None:
                low[index], high[index] = ci
        testable = t.n >= 2 and not (t.clusters < t.n and t.clusters < self.clustered.MIN_CLUSTERS)
        return sim.Tested(p, low, high, np.ones(shape), testable, t.n >= 1)

    def _row(self, workload: str, category: str | None, tested: Any, r: int) -> Any:
        ci = None if np.isnan(tested.low[r]) else (float(tested.low[r]), float(tested.high[r]))
        delta = 0.0 if ci is None else (ci[0] + ci[1]) / 2  # only its sign matters to `decide`
        return self.analysis.Row(
            workload=workload, category=category, measure="accuracy", n=1, a=0.0, b=0.0,
            delta=delta, se=None, ci95=ci, clusters=1, note=None, p=float(tested.p[r]),
        )  # fmt: skip

    def errors(self, primary: list[Any], children: list[list[Any]]) -> np.ndarray:
        replicates = primary[0].p.shape[0]
        raw = np.stack([t.p for t in primary] + [c.p for group in children for c in group])
        error = np.zeros(replicates, dtype=bool)
        for r in np.flatnonzero(raw.min(0) < 0.05):  # no adjusted p is below a raw one
            rows = []
            for k, t in enumerate(primary):
                rows.append(self._row(f"w{k}", None, t, r))
                rows += [self._row(f"w{k}", f"c{j}", c, r) for j, c in enumerate(children[k])]
            verdicts = {row.verdict for row in self.analysis.adjust(rows)}
            error[r] = bool(verdicts & {self.analysis.BETTER, self.analysis.WORSE})
        return error

    def mde(self, t: Any, tested: Any) -> tuple[np.ndarray, np.ndarray]:
        values = [
            self.stats.minimum_detectable_effect(t.n, float(s)) for s in (t.down + t.up) / t.n
        ]
        printed = np.array([v is not None for v in values])
        return np.array([v or 0.0 for v in values]), printed

    def says(self, tested: Any, direction: int) -> np.ndarray:
        wanted = self.analysis.BETTER if direction > 0 else self.analysis.WORSE
        out = np.zeros(tested.p.shape[0], dtype=bool)
        for r in range(tested.p.shape[0]):
            (row,) = self.analysis.adjust([self._row("w", None, tested, r)])
            out[r] = row.verdict == wanted
        return out

    def headline(self, t: Any) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        wilson = cache(self.metrics.wilson_interval)
        shape = t.share_a.shape
        head = np.empty((2, *shape))
        block = np.full((2, *shape), np.nan)
        for index in np.ndindex(shape):
            correct = int(round(float(t.share_a[index]) * t.n))
            head[(slice(None), *index)] = wilson(correct, t.n)
            result = self.clustered.ClusteredMean(
                float(t.share_a[index]), float(t.se_a[index]), t.n, t.clusters, None
            )
            if self._ci(0.0, 0.0, t.n, t.clusters) is not None:
                block[(slice(None), *index)] = result.ci95(0.0, 1.0)
        return {"headline": (head[0], head[1]), "clustered block": (block[0], block[1])}


def main() -> int:
    old_tree, out = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    settings = json.loads(sys.argv[3])
    sys.path[:0] = [str(old_tree), str(HERE.parents[0] / "compare")]
    from figures import measure  # noqa: E402  (tests/bench/figures.py, importable from here)

    out.write_text(json.dumps(measure(Before(), **settings)))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    sys.exit(main())
