"""The random stream of a dataset-wide plan (gold letters, asked offsets), standard library only.

A plan deals something over all rows of a dataset before any row is built, from a stream no row
uses. Generators of the -v3 wave take it from ``row_rng(SEED, -1)``; under a fresh seed that
stream also changes with the redraw number of the row being built (``seeds.redraw``), so a row
drawn again would see another plan, and a fresh instance could end with unbalanced letters.
``plan_rng`` gives the stream ``row_rng`` gives outside any redraw (the published stream when no
fresh seed is set, else the fresh seed's first draw) whatever row is being redrawn.
"""

from __future__ import annotations

import random

from common.seeds import fresh_seed


def plan_rng(seed: int, stream: int = -1) -> random.Random:
    """The plan stream ``stream`` (a negative row index) of the dataset with seed ``seed``."""
    fresh = fresh_seed()
    if fresh is None:
        return random.Random(f"{seed}:{stream}")
    return random.Random(f"{seed}:fresh{fresh}:{stream}")
