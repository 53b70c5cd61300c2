"""The Monte Carlo figures of issue 18 over a grid of designs: paired-delta coverage, family-wise
error of whole tables (categories included), power at the printed MDE, and coverage of the
single-revision accuracy interval. ``test_simulation.py`` runs a bounded grid, ``make bench``
(``tests/bench/bench_compare_stats.py``) the larger one. Every cell has its own fixed seed."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass

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


def coverage(cell: Cell, delta: float, replicates: int) -> float:
    """Share of paired-delta intervals holding the truth (NaN where none is printed)."""
    design = sim.DESIGNS[cell.design]
    data = sim.sample(
        cell.rng("coverage", delta), (replicates,), cell.groups, design,
        sim.cell_probabilities(cell.p, delta),
    )  # fmt: skip
    tested = sim.test_rows(sim.tables(data))
    return float(np.nanmean(sim.covered(tested, delta))) if tested.testable else float("nan")


def headline(cell: Cell, replicates: int) -> float:
    """Coverage of A's accuracy interval (the headline ``ci95_lo``/``ci95_hi``)."""
    design = sim.DESIGNS[cell.design]
    data = sim.sample(
        cell.rng("headline"), (replicates,), cell.groups, design, sim.cell_probabilities(cell.p, 0)
    )
    return float(np.mean(sim.headline(sim.tables(data), cell.p)))


def fwer(cell: Cell, workloads: int, replicates: int) -> float:
    """Share of null tables (``workloads`` workloads with 3 categories each) where some row says
    "B better" or "B worse"."""
    design = sim.DESIGNS[cell.design]
    data = sim.sample(
        cell.rng("fwer", workloads), (replicates, workloads), cell.groups, design,
        sim.cell_probabilities(cell.p, 0.0),
    )  # fmt: skip
    whole = sim.test_rows(sim.tables(data))
    parts = [sim.test_rows(sim.tables(data, j)) for j in range(sim.CATEGORIES)]

    def column(t: sim.Tested, k: int) -> sim.Tested:
        return sim.Tested(
            t.p[:, k], t.low[:, k], t.high[:, k], t.deff[:, k], t.testable, t.possible
        )

    primary = [column(whole, k) for k in range(workloads)]
    children = [[column(c, k) for c in parts] for k in range(workloads)]
    return float(np.mean(sim.table_errors(primary, children)))


def power(cell: Cell, replicates: int) -> tuple[float, float]:
    """(share of tables printing an MDE, rejection rate at a true delta equal to it)."""
    return sim.power_at_mde(
        cell.rng("power"), sim.DESIGNS[cell.design], cell.groups, cell.p, replicates
    )


def mc_error(share: float, replicates: int) -> float:
    """Monte Carlo standard error of a share estimated from ``replicates`` runs."""
    return float(np.sqrt(share * (1 - share) / replicates))
