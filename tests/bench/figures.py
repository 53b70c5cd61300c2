"""Every Monte Carlo figure of the grid for one estimator (this code's or the old one's), as a
JSON-ready dict: ``{"coverage": {cell: value}, "fwer": ..., "power": ..., "headline": ...}``."""

from __future__ import annotations

import math
from typing import Any

import grid


def key(cell: grid.Cell, *extra: object) -> str:
    return "/".join([cell.design, str(cell.groups), str(cell.p), *map(str, extra)])


def _clean(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 4)


def measure(est: Any, replicates: int, tables: int, workloads: tuple[int, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {"coverage": {}, "fwer": {}, "power": {}, "shown": {}, "headline": {}}
    for cell in grid.cells():
        for delta in grid.effects(cell.p):
            out["coverage"][key(cell, delta)] = _clean(grid.coverage(cell, delta, replicates, est))
        shown, rate = grid.power(cell, replicates, est)
        out["power"][key(cell)], out["shown"][key(cell)] = _clean(rate), round(shown, 4)
        for name, value in grid.headline(cell, replicates, est).items():
            out["headline"][key(cell, name)] = _clean(value)
        for k in workloads:
            out["fwer"][key(cell, k)] = _clean(grid.fwer(cell, k, tables, est))
        print(f"  {key(cell)} done", flush=True)
    return out
