"""Inline SVG charts drawn by hand, so ``report.html`` opens offline (issue 4, "Report").

DVC's own plot HTML loads its chart library from the internet; these charts need nothing. No
``xmlns`` attribute: inline SVG in HTML5 does not need one, and the file then holds no URL at all.
Every label is escaped; sizes are fixed pixels so the output is byte-stable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape

LABEL_W = 190
PLOT_W = 360
ROW_H = 22
FONT = 'font-family="system-ui, sans-serif" font-size="12"'


@dataclass(frozen=True)
class Bar:
    """One horizontal bar: its label, its value and the text printed after it."""

    label: str
    value: float
    note: str


def accuracy_colour(value: float) -> str:
    """Red (0) through amber to green (1)."""
    hue = round(120 * max(0.0, min(1.0, value)))
    return f"hsl({hue}, 60%, 42%)"


def _open(width: int, height: int, title: str) -> str:
    width = max(width, 10 + 7 * len(title))  # room for the title (~7 px per character)
    return (
        f'<svg class="chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f'<text x="0" y="14" {FONT} font-weight="bold">{escape(title)}</text>'
    )


def bar_chart(
    bars: list[Bar],
    title: str,
    max_value: float = 1.0,
    colour: Callable[[float], str] | None = None,
) -> str:
    """Horizontal bars scaled to ``max_value``; ``colour`` maps a bar's value/max to a fill."""
    top = 24
    height = top + ROW_H * len(bars) + 6
    note_w = 12 + 7 * max((len(bar.note) for bar in bars), default=0)  # ~7 px per character
    width = LABEL_W + PLOT_W + note_w
    parts = [_open(width, height, title)]
    scale = max_value if max_value > 0 else 1.0
    for i, bar in enumerate(bars):
        y = top + i * ROW_H
        length = round(PLOT_W * max(0.0, min(1.0, bar.value / scale)), 1)
        fill = colour(bar.value / scale) if colour else "#4c78a8"
        parts.append(
            f'<text x="{LABEL_W - 6}" y="{y + 15}" text-anchor="end" {FONT}>{escape(bar.label)}'
            f'</text><rect x="{LABEL_W}" y="{y + 3}" width="{PLOT_W}" height="{ROW_H - 6}" '
            f'fill="#eee"/><rect x="{LABEL_W}" y="{y + 3}" width="{length}" '
            f'height="{ROW_H - 6}" fill="{fill}"/><text x="{LABEL_W + PLOT_W + 6}" y="{y + 15}" '
            f"{FONT}>{escape(bar.note)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def histogram(
    counts: list[tuple[str, int]], title: str, x_label: str, edges: tuple[str, str] = ("", "")
) -> str:
    """Vertical bars of counts, one per bin (label on hover), ``edges`` under the axis ends."""
    top, plot_h, bar_w = 36, 140, max(8, min(48, 480 // max(1, len(counts))))
    width = 40 + bar_w * len(counts) + 20
    height = top + plot_h + 44
    peak = max((n for _, n in counts), default=0) or 1
    parts = [_open(width, height, title)]
    base = top + plot_h
    for i, (label, n) in enumerate(counts):
        h = round(plot_h * n / peak, 1)
        x = 40 + i * bar_w
        parts.append(
            f'<rect x="{x + 1}" y="{base - h}" width="{bar_w - 2}" height="{h}" fill="#4c78a8">'
            f"<title>{escape(label)}: {n}</title></rect>"
        )
        if n:
            parts.append(
                f'<text x="{x + bar_w / 2}" y="{base - h - 3}" text-anchor="middle" '
                f"{FONT}>{n}</text>"
            )
    axis_end = 40 + bar_w * len(counts)
    parts.append(f'<line x1="38" y1="{base}" x2="{axis_end}" y2="{base}" stroke="#333"/>')
    parts.append(f'<text x="40" y="{base + 16}" {FONT}>{escape(edges[0])}</text>')
    parts.append(
        f'<text x="{axis_end}" y="{base + 16}" text-anchor="end" {FONT}>{escape(edges[1])}</text>'
    )
    parts.append(f'<text x="0" y="{height - 2}" {FONT} fill="#555">{escape(x_label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def heat_grid(
    rows: list[str], columns: list[str], cells: dict[tuple[str, str], tuple[float, int]], title: str
) -> str:
    """A rows x columns grid of accuracy cells, coloured red to green, each labelled with its n."""
    cell_w, cell_h, left, top = 64, 30, 110, 44
    width = left + cell_w * len(columns) + 10
    height = top + cell_h * len(rows) + 8
    parts = [_open(width, height, title)]
    for j, column in enumerate(columns):
        x = left + j * cell_w + cell_w / 2
        label = escape(column)
        parts.append(f'<text x="{x}" y="{top - 8}" text-anchor="middle" {FONT}>{label}</text>')
    for i, row in enumerate(rows):
        y = top + i * cell_h
        parts.append(
            f'<text x="{left - 6}" y="{y + 19}" text-anchor="end" {FONT}>{escape(row)}</text>'
        )
        for j, column in enumerate(columns):
            x = left + j * cell_w
            if (row, column) not in cells:
                size = f'width="{cell_w - 2}" height="{cell_h - 2}"'
                parts.append(f'<rect x="{x}" y="{y}" {size} fill="#f4f4f4"/>')
                continue
            accuracy, n = cells[(row, column)]
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" '
                f'fill="{accuracy_colour(accuracy)}"><title>{escape(row)} @ {escape(column)}: '
                f"{accuracy:.0%} of {n}</title></rect>"
                f'<text x="{x + cell_w / 2 - 1}" y="{y + 14}" text-anchor="middle" {FONT} '
                f'fill="#fff">{accuracy:.0%}</text><text x="{x + cell_w / 2 - 1}" y="{y + 25}" '
                f'text-anchor="middle" font-family="system-ui, sans-serif" font-size="9" '
                f'fill="#fff">n={n}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True)
class Interval:
    """One row of a forest plot: an estimate with its interval (None: no trustworthy interval)."""

    label: str
    estimate: float
    low: float | None
    high: float | None
    colour: str
    note: str


def _nice_half_range(rows: list[Interval]) -> float:
    values = [abs(v) for r in rows for v in (r.estimate, r.low, r.high) if v is not None]
    top = max(values, default=0.0)
    step = 5.0 if top <= 50 else 25.0
    return max(step, step * -(-top // step))


def forest_plot(rows: list[Interval], title: str, unit: str) -> str:
    """Estimates with their intervals on a shared axis centred on zero (no difference)."""
    top, axis_h = 30, 34
    height = top + ROW_H * len(rows) + axis_h
    note_w = 12 + 7 * max((len(r.note) for r in rows), default=0)
    width = LABEL_W + PLOT_W + note_w
    half = _nice_half_range(rows)

    def x(value: float) -> float:
        return round(LABEL_W + PLOT_W * (value + half) / (2 * half), 1)

    base = top + ROW_H * len(rows)
    parts = [_open(width, height, title)]
    for tick in (-half, -half / 2, 0.0, half / 2, half):
        parts.append(
            f'<line x1="{x(tick)}" y1="{top - 4}" x2="{x(tick)}" y2="{base}" '
            f'stroke="{"#333" if tick == 0 else "#ddd"}"/>'
            f'<text x="{x(tick)}" y="{base + 14}" text-anchor="middle" {FONT}>{tick:+g}</text>'
        )
    parts.append(f'<text x="{x(0)}" y="{base + 30}" text-anchor="middle" {FONT} fill="#555">'
                 f"{escape(unit)}</text>")  # fmt: skip
    for i, row in enumerate(rows):
        y = top + i * ROW_H + ROW_H / 2
        parts.append(
            f'<text x="{LABEL_W - 6}" y="{y + 4}" text-anchor="end" {FONT}>{escape(row.label)}'
            "</text>"
        )
        if row.low is not None and row.high is not None:
            parts.append(
                f'<line x1="{x(row.low)}" y1="{y}" x2="{x(row.high)}" y2="{y}" '
                f'stroke="{row.colour}" stroke-width="2"/>'
            )
        fill = row.colour if row.low is not None else "#fff"
        parts.append(
            f'<circle cx="{x(row.estimate)}" cy="{y}" r="4" fill="{fill}" stroke="{row.colour}">'
            f"<title>{escape(row.label)}: {escape(row.note)}</title></circle>"
            f'<text x="{LABEL_W + PLOT_W + 6}" y="{y + 4}" {FONT}>{escape(row.note)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
