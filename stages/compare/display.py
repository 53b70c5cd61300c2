"""How numbers of a comparison are printed (issue 18): points for shares, p-values with the
digits that tell them from 0.05, interval bounds rounded away from the estimate."""

from __future__ import annotations

import math

from stages.compare.row import Row

DASH = "—"


def scale(row: Row) -> float:
    """Display factor: shares (accuracy, F1, pass@k) become percent; a 0-100 scale stays."""
    low, high = row.scale
    return 100.0 if high - low <= 1.0 else 1.0


def p_text(p: float | None, alpha: float = 0.05) -> str:
    """p with the digits that tell it from ``alpha``: 0.0496 stays 0.0496, never "0.050"."""
    if p is None:
        return DASH
    if p < 0.001:
        return "<.001"
    for digits in range(3, 7):
        shown = round(p, digits)
        if shown != alpha and (shown < alpha) == (p < alpha):
            return f"{p:.{digits}f}"
    return f"{p:.6f}"


def _outward(value: float, up: bool, digits: int = 1) -> str:
    """A bound rounded away from the estimate; more digits while rounding would reach zero or
    cross it (a bound of -0.03 is "-0.1", a bound of +0.04 is "+0.04", never "+0.0")."""
    for places in range(digits, 5):
        factor = 10.0**places
        rounded = (math.ceil if up else math.floor)(value * factor - (1e-9 if up else -1e-9))
        shown = rounded / factor
        if value == 0 or (shown != 0 and (shown > 0) == (value > 0)):
            return f"{shown:+.{places}f}"
    return f"{value:+.4f}"


def interval_text(row: Row) -> str:
    if row.ci95 is None:
        return DASH
    k = scale(row)
    return f"{_outward(k * row.ci95[0], False)}..{_outward(k * row.ci95[1], True)}"


def mde_text(row: Row) -> str:
    if row.mde is None:
        return DASH
    value = f"{scale(row) * row.mde:.1f}"
    return f">{value}" if row.mde_capped else value
