"""``report.html``: one self-contained page that opens offline (issue 4 "Report", issue 6 plots).

Inline CSS, inline SVG drawn by :mod:`stages.report.svg`, no script and no external reference:
DVC's own plot page fetches its chart library from the internet, this one needs nothing. Charts:
accuracy by category, time to first token by bucket, latency histogram, and the long-context
length × depth grid when a workload has one. A workload's serving part leads with its key figures
and the latency-throughput and goodput curves; the full figures are folded in ``<details>``.
Every text taken from the data is escaped.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from stages.datasets.audit_report import audit_html
from stages.report import channel_table, runs, serving, svg, tables
from stages.report.inputs import WorkloadInputs
from stages.report.markdown import (
    MAX_FAILURES,
    clustered_sentence,
    interval,
    percent,
    summary_header,
    summary_rows,
)
from stages.report.summary import category_table

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; color: #222;
       padding: 0 1rem; }
h1, h2 { border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid #ddd; padding: .2rem .5rem; text-align: left; vertical-align: top; }
th { background: #f6f6f6; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { background: #f3f3f3; padding: 0 .2rem; word-break: break-all; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5rem; margin: 1rem 0; }
.note { color: #555; }
summary { cursor: pointer; color: #555; margin: .5rem 0; }
"""


def _text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.4g}"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def html_table(header: list[str], rows: list[list[Any]]) -> str:
    """A table; numbers are right-aligned, everything is escaped."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = []
    for row in rows:
        cells = []
        for value in row:
            numeric = isinstance(value, int | float) and not isinstance(value, bool)
            cls = ' class="num"' if numeric else ""
            cells.append(f"<td{cls}>{escape(_text(value))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def charts(w: WorkloadInputs) -> str:
    """Every chart the workload has data for."""
    out = []
    facet, by_facet = category_table(w)
    if by_facet:
        bars = [
            svg.Bar(str(r[facet]), r["accuracy"], f"{r['accuracy']:.0%} ({r['correct']}/{r['n']})")
            for r in by_facet
        ]
        out.append(svg.bar_chart(bars, f"Accuracy by {facet}", 1.0, svg.accuracy_colour))
    grid = tables.haystack_cells(w.scored)
    if grid:
        rows = list(dict.fromkeys(f"{c['target_tokens']} tokens" for c in grid))
        depths = sorted({c["depth"] for c in grid}, key=tables.depth_order)
        cells = {
            (f"{c['target_tokens']} tokens", c["depth"]): (c["accuracy"], c["n"]) for c in grid
        }
        title = "Accuracy by document length (rows) × needle depth (columns)"
        out.append(svg.heat_grid(rows, depths, cells, title))
    ttft = tables.ttft_by_bucket(w.scored)
    if ttft:
        top = max(r["ttft_p90_s"] for r in ttft)
        bars = [
            svg.Bar(
                r["bucket"],
                r["ttft_p50_s"],
                f"p50 {r['ttft_p50_s']:.3f} s, p90 {r['ttft_p90_s']:.3f} s (n={r['n']})",
            )
            for r in ttft
        ]
        out.append(svg.bar_chart(bars, "Time to first token by bucket (median)", top))
    latency = tables.latency_histogram(w.scored)
    if latency:
        counts = [(r["latency_bin"], r["count"]) for r in latency]
        edges = (f"{latency[0]['lo_s']:.3g} s", f"{latency[-1]['hi_s']:.3g} s")
        title, axis = "Latency distribution", "request latency, successful requests"
        out.append(svg.histogram(counts, title, axis, edges))
    return f'<div class="charts">{"".join(out)}</div>' if out else ""


def headline(w: WorkloadInputs) -> str:
    m = w.metrics
    parts = [
        f"Dataset <code>{escape(w.dataset)}</code> ({escape(w.kind)}): {m.get('n', 0)} records, "
        f"{m.get('failed', 0)} failed requests."
    ]
    if "accuracy" in m:
        parts.append(
            f"Accuracy <strong>{percent(m['accuracy'])}</strong> ({m['correct']}/{m['n']}), "
            f"95 % Wilson interval {escape(interval(m))}."
        )
    if "accuracy_flexible" in m:
        parts.append(escape(tables.flexible_sentence(m)).replace("**", ""))
    ran_out = tables.exhausted_sentence(m)
    if ran_out:
        parts.append(escape(ran_out).replace("**", ""))
    if "integrity" in m:
        parts.append(escape(tables.integrity_sentence(m["integrity"])).replace("**", ""))
    for sentence in tables.load_sentences(m):
        parts.append(escape(sentence).replace("**", ""))
    sandboxed = tables.sandbox_sentence(m)
    if sandboxed:
        text = escape(sandboxed).replace("**UNSAFE**", "<strong>UNSAFE</strong>")
        parts.append(text)
    clustered = clustered_sentence(m)
    if clustered:
        parts.append(escape(clustered))
    if "drop" in m:
        parts.append(f"DROP: EM {m['drop']['em']:.4f}, F1 {m['drop']['f1']:.4f}.")
    if "secondary" in m:
        s = m["secondary"]
        parts.append(
            f"<em>Secondary, not part of accuracy:</em> chrF++ corpus {s['chrf_corpus']:.2f}, "
            f"sentence mean {s['chrf_sentence_mean']:.2f} (n={s['n']}), "
            f"<code>{escape(s['signature'])}</code>."
        )
    return "".join(f"<p>{p}</p>" for p in parts)


def _channels(figures: dict[str, Any]) -> str:
    """The reasoning and answer channels (issue 33); "" when no request thought."""
    rows = channel_table.channel_rows(figures)
    if not rows:
        return ""
    table = html_table(channel_table.HEADER, rows)
    return f'{table}<p class="note">{escape(channel_table.NOTE)}</p>'


def serving_section(figures: dict[str, Any], curves: str) -> str:
    """The few serving figures that matter and the curves (issue 14), the rest folded below."""
    knee = serving.knee_note(figures)
    lead = [
        "<h3>Serving</h3>",
        html_table(serving.key_header(figures), serving.key_rows(figures)),
        f'<p class="note">{escape(serving.KEY_NOTE)}</p>',
        _channels(figures),
        f'<div class="charts">{curves}</div>' if curves else "",
        f'<p class="note">{escape(knee)}</p>' if knee else "",
    ]
    rows = [[k, v] for k, v in tables.flatten(serving.main_rows(figures))]
    folded = ["<h4>Main pass</h4>" + html_table(["metric", "value"], rows)]
    header, levels = serving.level_table(figures)
    if levels:
        folded.append("<h4>Load levels</h4>" + html_table(header, levels))
    what = "the main pass and every load level" if levels else "the main pass"
    summary = f"All serving figures: {what} ({len(rows) + len(levels)} rows)"
    return "".join(lead) + f"<details><summary>{summary}</summary>{''.join(folded)}</details>"


def details(w: WorkloadInputs) -> str:
    """Breakdown tables, serving metrics, failures and the error analysis."""
    out = []
    keys = ["n", "failed"] if w.kind == "prompts" else list(tables.ACCURACY_KEYS)
    for facet in sorted(w.metrics.get("breakdowns", {})):
        rows = [
            [value]
            + [percent(cell.get(k)) if k.startswith("accuracy") else cell.get(k) for k in keys]
            for value, cell in tables.breakdown_items(w.metrics, facet)
        ]
        header = [tables.COLUMN_NAMES.get(k, k) for k in keys]
        out.append(f"<h3>By {escape(facet)}</h3>" + html_table([facet, *header], rows))
    if w.serving:
        out.append(serving_section(w.serving, serving.serving_charts(w)))
    failures = sorted((w.metrics.get("failures") or {}).items())
    if failures:
        shown = [[k, v] for k, v in failures[:MAX_FAILURES]]
        more = len(failures) - MAX_FAILURES
        tail = f'<p class="note">… and {more} more.</p>' if more > 0 else ""
        out.append("<h3>Failed requests</h3>" + html_table(["record", "kind"], shown) + tail)
    examples = tables.error_examples(w.scored)
    if examples:
        rows = [[e["key"], e["prompt"], e["gold"], e["extracted"], e["why"]] for e in examples]
        header = ["record", "prompt (excerpt)", "gold", "extracted", "why"]
        out.append("<h3>Error analysis</h3>" + html_table(header, rows))
    return "".join(out)


def run_section(workloads: list[WorkloadInputs]) -> str:
    """Per model revision: the decoding all its workloads share, then a table of the rest."""
    out = []
    for run in runs.model_runs(workloads):
        line = runs.sentence(run, lambda text: f"<code>{escape(text)}</code>")
        out.append(f"<p>{line}</p>" + html_table(run.header, run.rows()))
    return "".join(out)


def render_html(workloads: list[WorkloadInputs], check: dict[str, Any] | None) -> str:
    """The whole ``report.html``."""
    body = [
        "<h1>Inference Atlas report</h1>",
        "<h2>Run</h2>" + run_section(workloads),
        '<h2>Summary</h2><p class="note">Each workload stands alone; there is no combined '
        f"score. {escape(tables.FLEXIBLE_NOTE)}</p>",
        html_table(summary_header(workloads), summary_rows(workloads)),
    ]
    if check is not None:
        body.append(
            f"<p>Corpus check: {escape(str(check.get('datasets', '?')))} datasets, "
            f"{escape(str(check.get('failures', '?')))} failures.</p>"
        )
    body.append(audit_html(defaults={w.name: w.dataset for w in workloads}))  # issues 13, 19
    for w in workloads:
        body.append(
            f'<section id="{escape(w.name)}"><h2>{escape(w.name)}</h2>'
            f"{headline(w)}{charts(w)}{details(w)}</section>"
        )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Inference Atlas report</title><style>{STYLE}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )
