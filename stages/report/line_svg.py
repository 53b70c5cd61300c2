"""An inline SVG line chart for the serving curves (issue 14), drawn by hand like
:mod:`stages.report.svg`: no script, no external reference, every label escaped, fixed pixel
sizes so the output is byte-stable. Both axes start at 0 and end a little above the largest
value; each point carries a hover title.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

FONT = 'font-family="system-ui, sans-serif" font-size="12"'
LEFT, TOP, PLOT_W, PLOT_H, BOTTOM, LEGEND_W = 64, 30, 420, 220, 44, 190
TICKS = 5


@dataclass(frozen=True)
class Series:
    """One line: its legend name, colour, dash pattern and points (x, y, hover text)."""

    name: str
    colour: str
    points: list[tuple[float, float, str]]
    dash: str = ""
    tags: tuple[str, ...] = ()
    """Short labels written beside the points, in order (e.g. each point's level)."""


def _top(value: float) -> float:
    """A round axis end above ``value``: ``TICKS`` steps of 1, 2, 2.5 or 5 times a power of 10."""
    if value <= 0:
        return 1.0
    step = value * 1.05 / TICKS
    power = 10 ** math.floor(math.log10(step))
    factor = next(f for f in (1, 2, 2.5, 5, 10) if power * f >= step)
    return float(f"{power * factor * TICKS:.6g}")


def _number(value: float) -> str:
    return f"{value:.3g}"


def line_chart(
    series: list[Series],
    title: str,
    x_label: str,
    y_label: str,
    x_mark: tuple[float, str] | None = None,
) -> str:
    """Lines through each series' points; ``x_mark`` draws a labelled vertical line."""
    xs = [x for s in series for x, _, _ in s.points] + ([x_mark[0]] if x_mark else [])
    ys = [y for s in series for _, y, _ in s.points]
    x_top, y_top = _top(max(xs, default=0.0)), _top(max(ys, default=0.0))
    width, height = LEFT + PLOT_W + LEGEND_W, TOP + PLOT_H + BOTTOM

    def px(x: float) -> float:
        return round(LEFT + PLOT_W * x / x_top, 1)

    def py(y: float) -> float:
        return round(TOP + PLOT_H * (1 - y / y_top), 1)

    parts = [
        f'<svg class="chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f'<text x="0" y="14" {FONT} font-weight="bold">{escape(title)}</text>'
    ]
    for i in range(TICKS + 1):
        x, y = x_top * i / TICKS, y_top * i / TICKS
        parts.append(
            f'<line x1="{LEFT}" y1="{py(y)}" x2="{LEFT + PLOT_W}" y2="{py(y)}" stroke="#eee"/>'
            f'<text x="{LEFT - 4}" y="{py(y) + 4}" text-anchor="end" {FONT}>{_number(y)}</text>'
            f'<text x="{px(x)}" y="{TOP + PLOT_H + 16}" text-anchor="middle" {FONT}>'
            f"{_number(x)}</text>"
        )
    parts.append(
        f'<line x1="{LEFT}" y1="{TOP + PLOT_H}" x2="{LEFT + PLOT_W}" y2="{TOP + PLOT_H}" '
        f'stroke="#333"/><line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + PLOT_H}" '
        f'stroke="#333"/><text x="{LEFT + PLOT_W / 2}" y="{height - 6}" text-anchor="middle" '
        f'{FONT} fill="#555">{escape(x_label)}</text><text x="12" y="{TOP + PLOT_H / 2}" '
        f'text-anchor="middle" {FONT} fill="#555" transform="rotate(-90 12 {TOP + PLOT_H / 2})">'
        f"{escape(y_label)}</text>"
    )
    if x_mark is not None:
        at, label = px(x_mark[0]), escape(x_mark[1])
        parts.append(
            f'<line x1="{at}" y1="{TOP}" x2="{at}" y2="{TOP + PLOT_H}" stroke="#2a9d3a" '
            f'stroke-dasharray="4 3"/><text x="{at + 4}" y="{TOP + 12}" {FONT} '
            f'fill="#2a9d3a">{label}</text>'
        )
    for n, s in enumerate(series):
        dash = f' stroke-dasharray="{s.dash}"' if s.dash else ""
        line = " ".join(f"{px(x)},{py(y)}" for x, y, _ in s.points)
        parts.append(
            f'<polyline points="{line}" fill="none" stroke="{s.colour}" stroke-width="2"{dash}/>'
        )
        for x, y, note in s.points:
            parts.append(
                f'<circle cx="{px(x)}" cy="{py(y)}" r="3.5" fill="{s.colour}">'
                f"<title>{escape(note)}</title></circle>"
            )
        for (x, y, _), tag in zip(s.points, s.tags, strict=False):
            parts.append(
                f'<text x="{px(x) + 6}" y="{py(y) - 6}" {FONT} fill="{s.colour}">'
                f"{escape(tag)}</text>"
            )
        ly = TOP + 8 + 18 * n
        parts.append(
            f'<line x1="{LEFT + PLOT_W + 16}" y1="{ly}" x2="{LEFT + PLOT_W + 40}" y2="{ly}" '
            f'stroke="{s.colour}" stroke-width="2"{dash}/><text x="{LEFT + PLOT_W + 46}" '
            f'y="{ly + 4}" {FONT}>{escape(s.name)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
