"""Multiplicity control over a whole comparison table (issue 18).

A table answers many questions at once: one per workload (its accuracy, its graded figure),
and below each workload one per category and per sampled measure (pass@k, pass^k). Reading any
one "B better/worse" as a finding is only safe if the chance of *any* false one in the table is
at most alpha (the family-wise error rate, FWER), whatever the true differences are.

The rows are tested with a graphical sequentially rejective procedure (F. Bretz, W. Maurer,
W. Brannath and M. Posch, "A graphical approach to sequentially rejective multiple test
procedures", Stat. Med. 2009), which controls the FWER in the strong sense:

* the primary rows (workload accuracy and graded rows) start with alpha split evenly among them;
  with nothing else in the table this is exactly Holm's procedure;
* a workload's category and secondary rows (its children) start with nothing: they are tested
  only once their workload's primary row is rejected, which hands half of its share to them
  (evenly) and half to the other primary rows; a rejected child hands its share to its
  siblings (the last one back to the other primary rows).

Adjusted p-values follow Bretz et al.'s algorithm: reject the row with the smallest p / weight,
record max(previous, p / weight) as its adjusted p, update the graph, repeat. A row is rejected at
level alpha exactly when its adjusted p is below alpha. Rows without a p-value take no part.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

#: Weight of the edges that only matter once every sibling is rejected (Bretz et al.'s epsilon).
EPSILON = 1e-6
Array = NDArray[np.float64]


@dataclass(frozen=True)
class Node:
    """One row in the test graph."""

    p: float | None
    """Two-sided p-value; None when the row is not tested."""
    parent: int | None = None
    """Index of the primary row a child row hangs under; None for a primary row."""


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given (monotone, capped at 1)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[index]))
        adjusted[index] = running
    return adjusted


def _active(nodes: Sequence[Node]) -> list[int]:
    """Rows that take part: a p-value, and for a child a primary row that has one."""
    return [
        i
        for i, node in enumerate(nodes)
        if node.p is not None and (node.parent is None or nodes[node.parent].p is not None)
    ]


def _graph(nodes: Sequence[Node], active: list[int]) -> tuple[Array, Array]:
    """Initial weights and transition matrix over the ``active`` rows (see module docstring)."""
    size = len(active)
    where = {i: k for k, i in enumerate(active)}
    primaries = [k for k, i in enumerate(active) if nodes[i].parent is None]
    weights = np.zeros(size)
    weights[primaries] = 1.0 / len(primaries)
    moves = np.zeros((size, size))
    for k, i in enumerate(active):
        parent = nodes[i].parent
        if parent is None:
            children = [where[c] for c in active if nodes[c].parent == i]
            others = [j for j in primaries if j != k]
            targets = (
                [(children, 0.5), (others, 0.5)]
                if children and others
                else [(children or others, 1.0)]
            )
        else:
            siblings = [where[c] for c in active if nodes[c].parent == parent and c != i]
            others = [j for j in primaries if j != where[parent]]
            # Bretz et al.'s epsilon edge: the last sibling standing hands its share onwards.
            targets = (
                [(siblings, 1.0 - EPSILON), (others, EPSILON)]
                if siblings and others
                else [(siblings or others, 1.0)]
            )
        for members, share in targets:
            if members:
                moves[k, members] += share / len(members)
    return weights, moves


def _reject(weights: Array, moves: Array, j: int, open_: NDArray[np.bool_]) -> tuple[Array, Array]:
    """Bretz et al.'s update of the weights and transitions after rejecting row ``j``."""
    weights = weights + weights[j] * moves[j]
    weights[j] = 0.0
    out_j, in_j = moves[j].copy(), moves[:, j].copy()
    denominator = 1.0 - in_j * out_j
    with np.errstate(divide="ignore", invalid="ignore"):
        updated = (moves + np.outer(in_j, out_j)) / denominator[:, None]
    updated[denominator <= 0] = 0.0
    np.fill_diagonal(updated, 0.0)
    updated[j, :] = 0.0
    updated[:, j] = 0.0
    updated[~open_, :] = 0.0
    return weights * open_, updated


def adjust(nodes: Sequence[Node]) -> list[float | None]:
    """Adjusted p-value of every row (None where it takes no part); see the module docstring."""
    active = _active(nodes)
    out: list[float | None] = [None] * len(nodes)
    if not active:
        return out
    weights, moves = _graph(nodes, active)
    p = np.array([float(nodes[i].p or 0.0) for i in active])
    open_ = np.ones(len(active), dtype=bool)
    running = 0.0
    while open_.any():
        usable = open_ & (weights > 0)
        if not usable.any():  # no weight left anywhere: nothing more can be rejected
            for k in np.flatnonzero(open_):
                out[active[k]] = 1.0
            break
        ratios = np.where(usable, p / np.where(usable, weights, 1.0), np.inf)
        j = int(np.argmin(ratios))
        running = max(running, float(ratios[j]))
        out[active[j]] = min(1.0, running)
        open_[j] = False
        weights, moves = _reject(weights, moves, j, open_)
    return out


def rejected(nodes: Sequence[Node], alpha: float) -> list[bool]:
    """The rows rejected at level ``alpha`` — exactly those whose adjusted p is below alpha,
    found by the sequential procedure itself (faster: it stops at the first step that rejects
    nothing). The Monte Carlo test uses it on thousands of tables."""
    active = _active(nodes)
    out = [False] * len(nodes)
    if not active:
        return out
    weights, moves = _graph(nodes, active)
    p = np.array([float(nodes[i].p or 0.0) for i in active])
    open_ = np.ones(len(active), dtype=bool)
    while True:
        hits = np.flatnonzero(open_ & (p < alpha * weights))
        if not len(hits):
            return out
        j = int(hits[0])
        out[active[j]] = True
        open_[j] = False
        weights, moves = _reject(weights, moves, j, open_)


def initial_level(nodes: Sequence[Node], index: int, alpha: float) -> float | None:
    """The level row ``index`` is first tested at (what its MDE is quoted at): alpha over the
    number of primary rows for a primary row; for a child, the share its primary row hands down
    (half of its own when there are other primary rows) over the number of its siblings."""
    active = _active(nodes)
    if index not in active:
        return None
    primaries = [i for i in active if nodes[i].parent is None]
    share = alpha / len(primaries)
    parent = nodes[index].parent
    if parent is None:
        return share
    children = [i for i in active if nodes[i].parent == parent]
    return share * (0.5 if len(primaries) > 1 else 1.0) / len(children)
