"""The Monte Carlo figures of issue 18 over a grid of designs: paired-delta coverage, family-wise
error of whole tables (categories included), power at the printed MDE, and coverage of the
single-revision accuracy interval. ``test_simulation.py`` runs a bounded grid, ``make bench``
(``tests/bench/bench_compare_stats.py``) the larger one. Every cell has its own fixed seed, so
the code before issue 18 (``tests/bench/compare_before.py``) is judged on the same draws.
``est`` is an estimator: ``current.Current()`` or the one of ``compare_before.py``."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import simulation as sim

#: Clusters per design: n runs from 12 to 500 records; 20 is the floor of a clustered figure.
GROUPS = {
    "independent": (12, 30, 120, 500),
    "clustered4": (3, 20, 30, 125),
    "clustered10": (2, 20, 30, 50),
    "repeated3": (4, 20, 40, 167),
}
ACCURACIES = (0.1, 0.5, 0.9)


@dataclass(frozen=True)
class Cell:
    design: str
    groups: int
    p: float

    @property
    def n(self) -> int:
        return self.groups * sim.DESIGNS[self.design].size

    @property
    def trusted(self) -> bool:
        """Where the coverage promise applies: >= 20 clusters, or >= 30 independent items."""
        if self.design == "independent":
            return self.groups >= 30
        return self.groups >= 20

    def rng(self, *salt: object) -> np.random.Generator:
        key = repr((self.design, self.groups, self.p, salt)).encode()
        return np.random.default_rng(zlib.crc32(key))


def cells(accuracies: tuple[float, ...] = ACCURACIES) -> Iterator[Cell]:
    for design, groups in GROUPS.items():
        for g in groups:
            for p in accuracies:
                yield Cell(design, g, p)


def effects(p: float) -> tuple[float, ...]:
    """True differences checked for coverage: none, and 5 and 10 points towards 50 %."""
    sign = 1.0 if p <= 0.5 else -1.0
    return (0.0, 0.05 * sign, 0.1 * sign)


def coverage(cell: Cell, delta: float, replicates: int, est: Any) -> float:
    """Share of paired-delta intervals holding the truth (NaN where none is printed)."""
    design = sim.DESIGNS[cell.design]
    data = sim.sample(
        cell.rng("coverage", delta), (replicates,), cell.groups, design,
        sim.cell_probabilities(cell.p, delta),
    )  # fmt: skip
    tested = est.test(sim.tables(data))
    return float(np.nanmean(sim.covered(tested, delta))) if tested.testable else float("nan")


def headline(cell: Cell, replicates: int, est: Any) -> dict[str, float]:
    """Coverage of A's accuracy interval (the headline ``ci95_lo``/``ci95_hi``)."""
    design = sim.DESIGNS[cell.design]
    data = sim.sample(
        cell.rng("headline"), (replicates,), cell.groups, design, sim.cell_probabilities(cell.p, 0)
    )
    out = {}
    for name, (low, high) in est.headline(sim.tables(data)).items():
        hit = (low <= cell.p) & (cell.p <= high)
        out[name] = float(np.nanmean(np.where(np.isnan(low), np.nan, hit)))
    return out


def fwer(cell: Cell, workloads: int, replicates: int, est: Any) -> float:
    """Share of null tables (``workloads`` workloads with 3 categories each) where some row says
    "B better" or "B worse"."""
    design = sim.DESIGNS[cell.design]
    data = sim.sample(
        cell.rng("fwer", workloads), (replicates, workloads), cell.groups, design,
        sim.cell_probabilities(cell.p, 0.0),
    )  # fmt: skip
    whole = est.test(sim.tables(data))
    parts = [est.test(sim.tables(data, j)) for j in range(sim.CATEGORIES)]

    def column(t: sim.Tested, k: int) -> sim.Tested:
        return sim.Tested(
            t.p[:, k], t.low[:, k], t.high[:, k], t.deff[:, k], t.testable, t.possible
        )

    primary = [column(whole, k) for k in range(workloads)]
    children = [[column(c, k) for c in parts] for k in range(workloads)]
    return float(np.mean(est.errors(primary, children)))


def power(cell: Cell, replicates: int, est: Any) -> tuple[float, float]:
    """(share of tables printing an MDE, rejection rate at a true delta equal to it).

    Each replicate: a null table gives the printed MDE; a second table of the same design whose
    true difference is that MDE (an improvement below 50 % accuracy, a loss above) is then
    judged. A single workload: its row is tested at alpha itself."""
    design = sim.DESIGNS[cell.design]
    rng = cell.rng("power")
    t = sim.tables(
        sim.sample(rng, (replicates,), cell.groups, design, sim.cell_probabilities(cell.p, 0.0))
    )
    mde, printed = est.mde(t, est.test(t))
    direction = 1 if cell.p <= 0.5 else -1
    s = sim.null_discordance(cell.p)
    limit = (1 - cell.p - s / 2) if direction > 0 else (cell.p - s / 2)
    printed = printed & (mde <= limit)
    delta = direction * np.where(printed, mde, 0.0)
    alt = sim.tables(
        sim.sample(rng, (replicates,), cell.groups, design, sim.cell_probabilities(cell.p, delta))
    )
    hits = est.says(est.test(alt), direction)
    shown = float(np.mean(printed))
    return shown, float(np.mean(hits[printed])) if printed.any() else float("nan")


def mc_error(share: float, replicates: int) -> float:
    """Monte Carlo standard error of a share estimated from ``replicates`` runs."""
    return float(np.sqrt(share * (1 - share) / replicates))
