"""``compare.html``: the comparison as one self-contained page — a forest plot of the per-workload
differences with their paired, clustered intervals (inline SVG), the table, serving figures,
notes and flips. No script, no stylesheet link, no external reference; data text is escaped."""

from __future__ import annotations

from html import escape

from stages.compare import render
from stages.compare.display import scale
from stages.compare.flips import DOWN, Flip
from stages.compare.row import BETTER, WORSE, Row
from stages.compare.run import Comparison
from stages.report.html import STYLE, html_table
from stages.report.svg import Interval, forest_plot

COLOURS = {BETTER: "hsl(120, 60%, 32%)", WORSE: "hsl(0, 65%, 42%)"}
GREY = "#777"


def interval(row: Row) -> Interval:
    k = scale(row)
    low, high = (None, None) if row.ci95 is None else (k * row.ci95[0], k * row.ci95[1])
    span = "no interval" if row.ci95 is None else f"[{low:+.1f}, {high:+.1f}]"
    return Interval(
        label=render.label(row),
        estimate=k * (row.delta or 0.0),
        low=low,
        high=high,
        colour=COLOURS.get(row.verdict, GREY),
        note=f"{k * (row.delta or 0.0):+.1f} {span}: {row.verdict}",
    )


def forest(result: Comparison) -> str:
    """Accuracy (and F1) differences per workload; chrF++ rows are on another scale, left out."""
    rows = [
        r
        for r in result.rows
        if r.category is None and r.measure in ("accuracy", "f1") and r.delta is not None
    ]
    if not rows:
        return ""
    title = "B - A per workload, with 95 % paired clustered intervals"
    return forest_plot([interval(r) for r in rows], title, "difference in percentage points")


def flips_html(flips: list[Flip]) -> str:
    if not flips:
        return ""
    header = ["workload", "item", "flip", "gold", "A", "B", "prompt (excerpt)"]
    body = [
        [f.workload, f.key, "right → wrong" if f.direction == DOWN else "wrong → right", f.gold,
         f.a if f.a_failed is None else f"failed: {f.a_failed}",
         f.b if f.b_failed is None else f"failed: {f.b_failed}", f.prompt]
        for f in flips
    ]  # fmt: skip
    return "<h2>Flips</h2>" + html_table(header, body)


def render_html(result: Comparison, flips: list[Flip]) -> str:
    title = f"Comparison: {result.b.short} against {result.a.short}"
    parts = [f"<h1>{escape(title)}</h1>"]
    parts += [f'<p class="note">{escape(line)}</p>' for line in render.legend(result)]
    parts.append(f'<div class="charts">{forest(result)}</div>')
    head, _, failures = render.header(result.rows)
    parts.append(html_table(head, [render.cells(r, failures) for r in result.rows]))
    if result.serving:
        parts.append("<h2>Serving</h2>")
        parts.append(html_table(*render.serving_table(result.serving)))
        rows = [line for s in result.serving for line in render.interval_cells(s)]
        if rows:
            parts.append(f'<p class="note">{escape(render.INTERVAL_NOTE)}</p>')
            parts.append(html_table(render.INTERVAL_HEADER, rows))
    runs = [f"run {text}: {', '.join(names)}" for text, names in result.runs.items()]
    notes = runs + render.notes(result)
    if notes:
        parts.append(
            "<h2>Notes</h2><ul>" + "".join(f"<li>{escape(n)}</li>" for n in notes) + "</ul>"
        )
    parts.append(flips_html(flips))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
        f"<body>{''.join(parts)}</body></html>\n"
    )
