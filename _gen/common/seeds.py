"""Where every row's random stream comes from (standard library only).

Row ``idx`` of a dataset draws from ``row_rng(SEED, idx)`` and nothing else, so rows never share
or consume each other's draws and a rerun gives the same bytes. ``atlas dataset fresh`` sets
``ATLAS_FRESH_SEED`` to re-instantiate a generator under another seed (same code, same
distribution, new items); ``fresh`` then builds a rejected row again under the next
``redraw`` number. Unset, every stream, and so every byte, is the published one.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: Set (to an integer) only by ``atlas dataset fresh``; unset for the published datasets.
FRESH_SEED_ENV = "ATLAS_FRESH_SEED"

#: Redraw number of the row being built under a fresh seed (0: the first draw).
_redraw_number = 0


def fresh_seed() -> int | None:
    """The fresh-instance seed from ``ATLAS_FRESH_SEED``, or None for the published dataset."""
    value = os.environ.get(FRESH_SEED_ENV, "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        sys.exit(f"{FRESH_SEED_ENV}={value!r} is not an integer")


@contextmanager
def redraw(number: int) -> Iterator[None]:
    """Build (or prove) a row as its draw ``number``: every ``row_rng`` call inside, including
    the ones a generator makes itself, takes that draw's stream."""
    global _redraw_number
    _redraw_number = number
    try:
        yield
    finally:
        _redraw_number = 0


def row_rng(seed: int, idx: int) -> random.Random:
    """Row ``idx``'s own random generator: rows never share or consume each other's draws.

    Under a fresh seed every row generator (including ones a generator derives from another
    constant, such as a group seed) draws from a different stream.
    """
    fresh = fresh_seed()
    if fresh is None:
        return random.Random(f"{seed}:{idx}")
    redraw_tag = f".{_redraw_number}" if _redraw_number else ""
    return random.Random(f"{seed}:fresh{fresh}{redraw_tag}:{idx}")
