"""Which option of an mc row is the gold, drawn so that no answer-free reading of the options
predicts it (issue 19).

A family whose gold follows from a rule over a small table (eval-security-v4's incident actions:
"which action must NOT be taken yet") offers the same option texts again and again, and the
rule makes some of them right far more often than others: a reader who has seen a few rows
learns that "Wipe the workstation" is usually the premature one (the audit's ``text_prior``).
Here the caller lists every valid way to fill a row (a :class:`Design`: the gold, the options and
which options show each *cue* — the latest stage, the longest text, a late-looking action in a
"NOT yet" row, ...), one list per cell of rows drawn alike, and :func:`tilt` weights them so
that, over the family's cells together:

* every option text is the gold in 1/k of the rows that offer it (k options);
* every cue is shown by the gold as often as a blind pick would show it: in a row where m of
  the k options show it, m/k of the time.

The weights are the maximum-entropy tilt of the base weights (the caller's, e.g. scenarios
equally often) that meets those moments, ``base * exp(sum of theta * (hit - m/k))`` over the
features, fitted by damped iterative scaling (each feature's tilt at most ``LIMIT``: a cue the
designs cannot bring to chance stops there). A text that is never (or always) the gold where it
is offered cannot be balanced, so designs offering one are dropped first. Standard library
only; the fit is pure arithmetic, so the weights are the same on every run. It costs a few
seconds of CPU per generator run (eval-security-v4: about 4 s).
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

#: Damping of the simultaneous updates, sweeps at most, and the tolerance on log(share * (k-1)).
DAMPING = 0.8
SWEEPS = 400
TOLERANCE = 1e-3
#: Largest tilt of one feature: a cue the designs cannot bring to chance stops there.
LIMIT = 30.0


@dataclass(frozen=True)
class Design:
    """One valid way to fill a row."""

    key: Any
    """What the caller needs to build the row from this design."""
    gold: Hashable
    """The gold option (its text, or another identity)."""
    options: tuple[Hashable, ...]
    """Every option, the gold included."""
    cues: tuple[tuple[Hashable, tuple[Hashable, ...]], ...] = ()
    """(cue name, the options that show it) for each cue this row shows."""
    soft: tuple[tuple[Hashable, float, float], ...] = ()
    """(cue name, chance the gold shows it, expected number of options showing it) for cues
    that depend on what the caller draws after the design (e.g. which state the prompt
    states)."""
    base: float = 1.0
    """Weight before the tilt."""


def _features(design: Design) -> list[tuple[Hashable, float, float]]:
    """(feature, the gold shows it, how many options show it): each option, then each cue."""
    out: list[tuple[Hashable, float, float]] = [
        (("option", o), float(o == design.gold), 1.0) for o in design.options
    ]
    out += [
        (("cue", n), float(design.gold in shown), len(shown)) for n, shown in design.cues if shown
    ]
    out += [(("cue", n), hit, shown) for n, hit, shown in design.soft if shown]
    return out


def _balanceable(cells: Sequence[Sequence[Design]]) -> list[list[Design]]:
    """The designs left once every design offering an option that is never, or always, the
    gold where offered is dropped (repeated until nothing changes)."""
    kept = [list(c) for c in cells]
    while True:
        gold: set[Hashable] = set()
        other: set[Hashable] = set()
        for d in itertools.chain.from_iterable(kept):
            gold.add(d.gold)
            other.update(o for o in d.options if o != d.gold)
        ok = gold & other
        pruned = [[d for d in c if set(d.options) <= ok] for c in kept]
        if pruned == kept:
            return kept
        kept = pruned


def tilt(
    cells: Sequence[Sequence[Design]], rows: Sequence[float] | None = None
) -> list[list[tuple[Design, float]]]:
    """Each cell's balanceable designs with their weights (each cell's sum to 1): the tilt that
    puts every option and cue at chance over all cells together, cell ``i`` counted as
    ``rows[i]`` rows (default: one each; module rules)."""
    kept = _balanceable(cells)
    assert all(kept), "a cell has no balanceable design"
    k = len(kept[0][0].options)
    feats = [[_features(d) for d in cell] for cell in kept]
    mass = list(rows) if rows is not None else [1.0] * len(kept)
    theta: dict[Hashable, float] = {}
    for _ in range(SWEEPS):
        weights = _weights(kept, feats, theta, k)
        right: dict[Hashable, float] = {}
        blind: dict[Hashable, float] = {}
        for cell, cell_feats, m in zip(weights, feats, mass, strict=True):
            for w, fs in zip(cell, cell_feats, strict=True):
                for f, hit, shown in fs:
                    right[f] = right.get(f, 0.0) + m * w * hit
                    blind[f] = blind.get(f, 0.0) + m * w * shown / k
        worst = 0.0
        for f, expected in blind.items():
            if right[f] <= 0.0:
                continue  # a cue the gold never shows: left as it falls
            step = math.log(expected / right[f])
            worst = max(worst, abs(step))
            theta[f] = max(-LIMIT, min(LIMIT, theta.get(f, 0.0) + DAMPING * step))
        if worst < TOLERANCE:
            break
    weights = _weights(kept, feats, theta, k)
    return [list(zip(cell, w, strict=True)) for cell, w in zip(kept, weights, strict=True)]


def _weights(
    cells: list[list[Design]],
    feats: list[list[list[tuple[Hashable, float, float]]]],
    theta: dict[Hashable, float],
    k: int,
) -> list[list[float]]:
    out = []
    for cell, cell_feats in zip(cells, feats, strict=True):
        logs = [
            math.log(d.base) + sum(theta.get(f, 0.0) * (hit - shown / k) for f, hit, shown in fs)
            for d, fs in zip(cell, cell_feats, strict=True)
        ]
        top = max(logs)
        raw = [math.exp(v - top) for v in logs]
        total = sum(raw)
        out.append([w / total for w in raw])
    return out


def shares(
    weighted: Sequence[Sequence[tuple[Design, float]]], rows: Sequence[float] | None = None
) -> dict[Hashable, tuple[float, float]]:
    """Over all cells (cell ``i`` counted as ``rows[i]`` rows), each option's and cue's (share
    of rows where the gold shows it, share a blind pick would give): what :func:`tilt` makes
    equal. Keys ``("option", text)`` and ``("cue", name)``."""
    right: dict[Hashable, float] = {}
    blind: dict[Hashable, float] = {}
    seen: dict[Hashable, float] = {}
    mass = list(rows) if rows is not None else [1.0] * len(weighted)
    for cell, m in zip(weighted, mass, strict=True):
        for d, w in cell:
            k = len(d.options)
            for f, hit, shown in _features(d):
                seen[f] = seen.get(f, 0.0) + m * w
                right[f] = right.get(f, 0.0) + m * w * hit
                blind[f] = blind.get(f, 0.0) + m * w * shown / k
    return {f: (right[f] / seen[f], blind[f] / seen[f]) for f in seen}


def draw(rng: random.Random, weighted: Sequence[tuple[Design, float]]) -> Design:
    """One design of a cell, by its weight."""
    cumulative = list(itertools.accumulate(w for _, w in weighted))
    i = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
    return weighted[min(i, len(weighted) - 1)][0]
