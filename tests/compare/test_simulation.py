"""Issue 18: the statistical promises of ``atlas compare`` proved by a fixed-seed Monte Carlo
simulation (``simulation.py`` for the model, ``grid.py`` for the cells), over independent,
clustered (4 and 10 per cluster) and repeated (3 per item) designs at 12 to 500 records:

* the paired 95 % interval of delta covers in >= 93.5 % of tables (>= 91 % at n = 12);
* some row of a null table of 10 workloads with 3 categories each says "B better/worse" in at
  most 5 % of tables (the family-wise error);
* at a true delta equal to the printed MDE the row says "B better/worse" 75-90 % of the time;
* the single-revision accuracy interval covers in >= 93 % of tables.

Each figure is compared with its bound allowing two Monte Carlo standard errors (the replicate
counts are in the constants). The figures measured by the larger grid of ``make bench`` are in
docs/comparing.md. Runtime: about 30 s on two cores.
"""

from __future__ import annotations

import math

import current
import grid
import numpy as np
import pytest
import simulation as sim

from stages.compare import compare_records, power
from stages.compare.row import ALPHA
from stages.scoring import accuracy_estimate

REPLICATES = 2000
EST = current.Current()
TABLES = 1000


def _check(figures: dict[grid.Cell, float], low: float, high: float, replicates: int) -> None:
    bad = {}
    for cell, value in figures.items():
        if math.isnan(value):
            continue
        allowance = 2 * grid.mc_error(min(max(value, low), high), replicates)
        if not low - allowance <= value <= high + allowance:
            bad[cell] = value
    assert not bad, f"outside [{low}, {high}] by more than 2 Monte Carlo errors: {bad}"


def test_paired_intervals_cover() -> None:
    trusted, small = {}, {}
    for cell in grid.cells():
        for delta in grid.effects(cell.p):
            value = grid.coverage(cell, delta, REPLICATES, EST)
            if cell.trusted:
                trusted[(cell, delta)] = value
            elif cell.design == "independent":
                small[(cell, delta)] = value
            else:  # fewer than 20 shared clusters: no interval is printed at all
                assert math.isnan(value), cell
    assert len(trusted) == 108 and len(small) == 9
    _check(trusted, 0.935, 1.0, REPLICATES)  # type: ignore[arg-type]
    _check(small, 0.91, 1.0, REPLICATES)  # type: ignore[arg-type]


def test_whole_tables_keep_the_family_wise_error() -> None:
    figures = {(cell, 10): grid.fwer(cell, 10, TABLES, EST) for cell in grid.cells((0.5,))}
    for design, groups in (("independent", 500), ("clustered4", 125)):
        cell = grid.Cell(design, groups, 0.5)
        figures[(cell, 22)] = grid.fwer(cell, 22, TABLES, EST)
    _check(figures, 0.0, ALPHA, TABLES)  # type: ignore[arg-type]
    assert max(figures.values()) > 0.01  # the tables are not so small that nothing is ever said


def test_power_at_the_printed_mde() -> None:
    figures, shown = {}, {}
    for cell in grid.cells():
        share, rate = grid.power(cell, REPLICATES, EST)
        shown[cell] = share
        if share >= 0.5:  # where printing is rare, printed MDEs are a selected (lucky) few
            figures[cell] = rate
    _check(figures, 0.75, 0.90, REPLICATES)
    # Where no verdict is possible, or the power cannot be told, no MDE is printed.
    for cell, share in shown.items():
        if cell.design != "independent" and cell.groups < 30 or cell.n == 12:
            assert share == 0.0, cell
    assert len(figures) == 23


def test_single_revision_interval_covers() -> None:
    figures = {cell: grid.headline(cell, REPLICATES, EST)["headline"] for cell in grid.cells()}
    _check(figures, 0.93, 1.0, REPLICATES)


def _records(codes: np.ndarray, design: sim.Design) -> tuple[list[dict], list[dict]]:
    a, b = [], []
    for g in range(codes.shape[0]):
        for t in range(codes.shape[1]):
            code = int(codes[g, t])
            item = f"q{g}" if design.name == "repeated3" else f"q{g}-{t}"
            common = {"workload": "w", "id": item, "cluster": f"c{g}",
                      "repeat": t if design.name == "repeated3" else 0}  # fmt: skip
            a.append({**common, "correct": code >= 2})
            b.append({**common, "correct": code in (1, 3)})
    return a, b


@pytest.mark.parametrize(("design", "groups"), [("clustered4", 30), ("repeated3", 40)])
def test_the_simulation_computes_what_compare_records_prints(design: str, groups: int) -> None:
    """The vectorised path of the simulation and ``compare_records`` on the same records agree
    (p, interval, MDE, verdict, and the single-revision interval)."""
    model = sim.DESIGNS[design]
    rng = np.random.default_rng(7)
    codes = sim.draw(rng, (8,), groups, model, sim.cell_probabilities(0.5, 0.15))
    tables = sim.summarise(codes)
    tested = current.test_rows(tables)
    mde, _ = power.binary_mde(
        tables.n, tables.clusters, tested.deff,
        power.no_effect_discordance(tables.down, tables.up, tables.n),
        tables.share_a, ALPHA, df=tables.design_df,
    )  # fmt: skip
    verdicts = current.says(tested, tested.p, 1)
    low, high = current.headline_interval(tables)
    for r in range(codes.shape[0]):
        a, b = _records(codes[r], model)
        (row,) = [x for x in compare_records(a, b) if x.measure == "accuracy"]
        assert row.p == pytest.approx(tested.p[r], rel=1e-12)
        assert row.ci95 == pytest.approx((tested.low[r], tested.high[r]), rel=1e-12)
        assert row.mde == pytest.approx(mde[r], rel=1e-9)
        assert (row.verdict == "B better") == bool(verdicts[r])
        estimate = accuracy_estimate(a)
        assert (estimate.low, estimate.high) == pytest.approx((low[r], high[r]), rel=1e-12)
        assert estimate.se == pytest.approx(tables.se_a[r], rel=1e-12)
