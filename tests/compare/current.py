"""This code's statistics applied to simulated tables, vectorised over replicates exactly as
``compare_records`` and ``accuracy_interval`` compute them (``test_simulation.py`` checks the
two agree record by record)."""

from __future__ import annotations

import numpy as np
import simulation as sim
from numpy.typing import NDArray

from stages.compare import multiplicity, paired, power
from stages.compare.row import ALPHA, MIN_CLUSTERS
from stages.scoring import interval

Array = NDArray[np.float64]


def test_rows(t: sim.Tables) -> sim.Tested:
    """McNemar/Rao–Scott p and the Tango interval, as ``compare_records`` computes them."""
    effective = t.clusters if t.effective is None else t.effective
    testable = t.clusters >= t.n or effective >= MIN_CLUSTERS
    possible = testable and power.binary_verdict_possible(t.n, t.clusters, ALPHA, MIN_CLUSTERS)
    result = paired.paired_binary(t.down, t.up, t.n, t.clusters, t.se, t.variance, t.df)
    nan = np.full(result.p.shape, np.nan)
    low, high = (result.low, result.high) if testable else (nan, nan)
    return sim.Tested(result.p, low, high, result.deff, testable, possible)


def says(tested: sim.Tested, p_adjusted: Array, direction: int) -> NDArray[np.bool_]:
    """Whether the verdict is "B better" (direction 1) or "B worse" (-1) at this adjusted p."""
    interval_says = tested.low > 0 if direction > 0 else tested.high < 0
    return np.asarray((p_adjusted < ALPHA) & interval_says & tested.possible, dtype=bool)


def table_errors(primary: list[sim.Tested], children: list[list[sim.Tested]]) -> NDArray[np.bool_]:
    """Per replicate: whether some row of a null table says better/worse (the family-wise error),
    applying the graphical procedure of ``compare_records`` (primary rows, each with its category
    rows as children). Only replicates where some primary p is below alpha can reject anything
    (every adjusted p is at least the raw p, and children start with no weight), so only those
    go through the procedure."""
    replicates = primary[0].p.shape[0]
    error = np.zeros(replicates, dtype=bool)
    raw = np.stack([t.p if t.possible else np.ones(replicates) for t in primary])
    for r in np.flatnonzero(raw.min(0) < ALPHA):
        nodes: list[multiplicity.Node] = []
        rows: list[sim.Tested] = []
        for w, t in enumerate(primary):
            parent = len(nodes)
            nodes.append(multiplicity.Node(float(t.p[r]) if t.possible else None))
            rows.append(t)
            for c in children[w]:
                nodes.append(multiplicity.Node(float(c.p[r]) if c.possible else None, parent))
                rows.append(c)
        for hit, t in zip(multiplicity.rejected(nodes, ALPHA), rows, strict=True):
            if hit and (t.low[r] > 0 or t.high[r] < 0):
                error[r] = True
    return error


def headline_interval(t: sim.Tables) -> tuple[Array, Array]:
    """A's accuracy interval as ``stages.scoring.interval`` computes it (the headline figure)."""
    variance = t.share_a * (1 - t.share_a) * t.n / max(t.n - 1, 1)
    low, high, _ = interval.interval(
        t.share_a, t.n, t.clusters, t.se_a, variance, 0.95, t.effective, t.df_a
    )
    return low, high


class Current:
    """The estimator ``grid.py`` applies: this code's statistics."""

    name = "after"

    def test(self, t: sim.Tables) -> sim.Tested:
        return test_rows(t)

    def mde(self, t: sim.Tables, tested: sim.Tested) -> tuple[Array, NDArray[np.bool_]]:
        """(MDE, printed) per replicate for a single-workload table (tested at alpha)."""
        if not tested.possible or not power.binary_mde_printable(t.n, t.clusters, t.effective):
            return np.zeros(t.n_replicates), np.zeros(t.n_replicates, dtype=bool)
        mde, capped = power.binary_mde(
            t.n,
            t.clusters,
            tested.deff,
            power.no_effect_discordance(t.down, t.up, t.n),
            t.share_a,
            ALPHA,
            df=t.design_df,
        )
        return mde, ~capped

    def errors(
        self, primary: list[sim.Tested], children: list[list[sim.Tested]]
    ) -> NDArray[np.bool_]:
        return table_errors(primary, children)

    def says(self, tested: sim.Tested, direction: int) -> NDArray[np.bool_]:
        return says(tested, tested.p, direction)

    def headline(self, t: sim.Tables) -> dict[str, tuple[Array, Array]]:
        return {"headline": headline_interval(t)}
