"""``report.md``: the run in tables a reviewer can diff (issue 4, "Report").

Sections: run (model revision and decoding, :mod:`stages.report.runs`), one summary table with
counts and intervals, then per workload its breakdown tables, long-context grid, timings,
failures and a short error analysis.
"""

from __future__ import annotations

import json
from typing import Any

from stages.datasets.audit_report import audit_markdown, fresh_markdown
from stages.markdown_text import code_span, inline
from stages.report import channel_table, runs, serving, tables
from stages.report.inputs import WorkloadInputs

MAX_FAILURES = 30


def cell(value: Any) -> str:
    """A value as one markdown table cell: newlines folded, and markup escaped (cells quote
    model outputs and dataset text: :mod:`stages.markdown_text`)."""
    if value is None:
        return "—"
    if isinstance(value, float):
        text = f"{value:.4f}".rstrip("0").rstrip(".") if value % 1 else str(int(value))
    elif isinstance(value, str):
        text = value
    else:
        text = json.dumps(value, ensure_ascii=False)
    return inline(text)


def table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return lines + [""]


def percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f} %"


def interval(metrics: dict[str, Any]) -> str:
    wilson = metrics.get("wilson_95")
    return f"{percent(wilson['low'])} – {percent(wilson['high'])}" if wilson else "—"


def run_lines(workloads: list[WorkloadInputs]) -> list[str]:
    """Per model revision: the decoding all its workloads share, then a table of the rest."""
    out: list[str] = []
    for run in runs.model_runs(workloads):
        out += [runs.sentence(run, code_span), "", *table(run.header, run.rows())]
    return out


def clustered_se(metrics: dict[str, Any]) -> str:
    """The cluster-robust standard error of accuracy in percentage points, or ``—``."""
    block = metrics.get("clustered") or {}
    se = block.get("se")
    return "—" if se is None else f"{100 * se:.1f} pts"


def clustered_sentence(metrics: dict[str, Any]) -> str | None:
    """One sentence on the cluster-robust standard error (or why there is none)."""
    block = metrics.get("clustered")
    if not block:
        return None
    if block.get("se") is None:
        return f"Cluster-robust standard error: none ({block.get('note')})."
    ci = block.get("ci95") or {}
    size = f" on an effective {block['n_eff']:g} items" if block.get("n_eff") is not None else ""
    return (
        f"Cluster-robust standard error {100 * block['se']:.1f} points over "
        f"{block['clusters']} clusters (95 % interval {percent(ci.get('low'))} – "
        f"{percent(ci.get('high'))}{size})."
    )


SUMMARY_HEADER = [
    "workload", "dataset", "kind", "n", "correct", "accuracy", "flexible", "95 % CI",
    "clustered SE", "failed",
]  # fmt: skip


def _any_exhausted(workloads: list[WorkloadInputs]) -> bool:
    return any(w.metrics.get("exhausted") for w in workloads)


def summary_header(workloads: list[WorkloadInputs]) -> list[str]:
    """:data:`SUMMARY_HEADER`, with an ``exhausted`` column when some workload's answers ran out
    while thinking (issue 33; a report without any keeps its table)."""
    return [*SUMMARY_HEADER, "exhausted"] if _any_exhausted(workloads) else SUMMARY_HEADER


def summary_rows(workloads: list[WorkloadInputs]) -> list[list[Any]]:
    rows = []
    shown = _any_exhausted(workloads)
    for w in workloads:
        m = w.metrics
        rows.append(
            [
                w.name,
                w.dataset,
                w.kind,
                m.get("n"),
                m.get("correct"),
                percent(m.get("accuracy")) + (" UNSAFE" if tables.unsafe(m) else ""),
                percent(m.get("accuracy_flexible")),
                interval(m),
                clustered_se(m),
                m.get("failed"),
                *([tables.exhausted_cell(m)] if shown else []),
            ]
        )
    return rows


def headline_lines(w: WorkloadInputs) -> list[str]:
    """Counts, accuracy with its interval, DROP means and the secondary chrF++ block."""
    m = w.metrics
    out = [
        f"Dataset {code_span(w.dataset)} ({w.kind}): {m.get('n', 0)} records, "
        f"{m.get('failed', 0)} failed."
    ]
    if "accuracy" in m:
        out.append(
            f"Accuracy **{percent(m['accuracy'])}** ({m['correct']}/{m['n']}), "
            f"95 % Wilson interval {interval(m)}."
        )
    if "accuracy_flexible" in m:
        out.append(tables.flexible_sentence(m))
    ran_out = tables.exhausted_sentence(m)
    if ran_out:
        out.append(ran_out)
    if "integrity" in m:
        out.append(tables.integrity_sentence(m["integrity"]))
    out += tables.load_sentences(m)
    sandboxed = tables.sandbox_sentence(m)
    if sandboxed:
        out.append(sandboxed)
    clustered = clustered_sentence(m)
    if clustered:
        out.append(clustered)
    if "drop" in m:
        drop = m["drop"]
        out.append(f"DROP: EM {drop['em']:.4f}, F1 {drop['f1']:.4f} (n={drop['n']}).")
    if "secondary" in m:
        s = m["secondary"]
        out.append(
            f"Secondary, not part of accuracy: chrF++ corpus {s['chrf_corpus']:.2f}, sentence mean "
            f"{s['chrf_sentence_mean']:.2f} (n={s['n']}), {code_span(s['signature'])}."
        )
    return [line for text in out for line in (text, "")]


def breakdown_lines(w: WorkloadInputs) -> list[str]:
    """One table per facet the rows carry, then the long-context grid."""
    out: list[str] = []
    keys = ["n", "failed"] if w.kind == "prompts" else list(tables.ACCURACY_KEYS)
    for facet in sorted(w.metrics.get("breakdowns", {})):
        rows = [
            [value] + [percent(c.get(k)) if k.startswith("accuracy") else c.get(k) for k in keys]
            for value, c in tables.breakdown_items(w.metrics, facet)
        ]
        header = [tables.COLUMN_NAMES.get(k, k) for k in keys]
        out += [f"### By {facet}", "", *table([facet, *header], rows)]
    grid = tables.haystack_cells(w.scored)
    if grid:
        header = ["target tokens", "depth", "n", "correct", "accuracy"]
        rows = [
            [r["target_tokens"], r["depth"], r["n"], r["correct"], percent(r["accuracy"])]
            for r in grid
        ]
        out += ["### Long-context accuracy (length × depth)", "", *table(header, rows)]
    return out


def timing_lines(w: WorkloadInputs) -> list[str]:
    """TTFT by bucket, the latency spread and the serving metrics file, when present."""
    out: list[str] = []
    ttft = tables.ttft_by_bucket(w.scored)
    if ttft:
        keys = ["bucket", "n", "ttft_p50_s", "ttft_p90_s", "ttft_mean_s"]
        rows = [[r[k] for k in keys] for r in ttft]
        out += ["### Time to first token by bucket (s)", "", *table(keys, rows)]
    latency = tables.timings(w.scored, "latency_s")
    if latency:
        p50, p90 = tables.percentile(latency, 0.5), tables.percentile(latency, 0.9)
        out += [
            f"Latency of {len(latency)} successful requests: p50 {p50:.3f} s, p90 {p90:.3f} s, "
            f"max {max(latency):.3f} s.",
            "",
        ]
    if w.serving:
        rows = [[k, v] for k, v in tables.flatten(serving.main_rows(w.serving))]
        out += ["### Serving metrics", "", *table(["metric", "value"], rows)]
        channels = channel_table.channel_rows(w.serving)
        if channels:  # issue 33: only when a request thought
            lines = table(channel_table.HEADER, channels)
            out += ["### Reasoning and answer channels", "", *lines, channel_table.NOTE, ""]
        header, levels = serving.level_table(w.serving)
        if levels:
            out += ["### Load levels", "", *table(header, levels), serving.knee_note(w.serving), ""]
    return out


def failure_lines(w: WorkloadInputs) -> list[str]:
    """Failed requests (capped) and a few wrong answers with prompt, gold and extraction."""
    out: list[str] = []
    failures = w.metrics.get("failures") or {}
    if failures:
        shown = [[k, v] for k, v in sorted(failures.items())[:MAX_FAILURES]]
        out += ["### Failed requests", "", *table(["record", "kind"], shown)]
        if len(failures) > MAX_FAILURES:
            out += [f"… and {len(failures) - MAX_FAILURES} more in metrics/{w.name}.json.", ""]
    examples = tables.error_examples(w.scored)
    if examples:
        header = ["record", "prompt (excerpt)", "gold", "extracted", "why"]
        rows = [[e["key"], e["prompt"], e["gold"], e["extracted"], e["why"]] for e in examples]
        out += ["### Error analysis", "", *table(header, rows)]
    return out


def workload_lines(w: WorkloadInputs) -> list[str]:
    """The section of one workload."""
    return [
        f"## {w.name}",
        "",
        *headline_lines(w),
        *fresh_markdown(w.metrics),  # public vs fresh instances (#13)
        *breakdown_lines(w),
        *timing_lines(w),
        *failure_lines(w),
    ]


def render_markdown(workloads: list[WorkloadInputs], check: dict[str, Any] | None) -> str:
    """The whole ``report.md``."""
    out = ["# Inference Atlas report", "", "## Run", ""] + run_lines(workloads)
    out += ["## Summary", "", "Each workload stands alone; there is no combined score.", ""]
    out += [tables.FLEXIBLE_NOTE, ""]
    out += table(summary_header(workloads), summary_rows(workloads))
    if check is not None:
        out += [
            f"Corpus check: {check.get('datasets', '?')} datasets, "
            f"{check.get('failures', '?')} failures.",
            "",
        ]
    out += audit_markdown(defaults={w.name: w.dataset for w in workloads})  # issues 13, 19
    for w in workloads:
        out += workload_lines(w)
    return "\n".join(out).rstrip("\n") + "\n"
