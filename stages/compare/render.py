"""Text views of a comparison: the terminal table (at most 100 columns), ``--json`` and
``compare.md``. Accuracy and F1 are shown in percent and their differences in percentage points;
chrF++ keeps its own 0-100 scale."""

from __future__ import annotations

import json
import textwrap
from dataclasses import asdict
from typing import Any

from stages.compare import exhausted
from stages.compare.display import DASH, interval_text, mde_text, p_text, scale
from stages.compare.judged import judge_blocks, judge_notes
from stages.compare.row import NOT_TESTED, Row
from stages.compare.run import Comparison, ServingRow
from stages.markdown_text import inline

WIDTH = 100
HEADER = ["workload", "n", "A", "B", "Δ", "95% CI of Δ", "p adj", "flips", "MDE", "verdict"]
FAILED = "failed A/B"
RIGHT = {1, 2, 3, 4, 6, 8}  # right-aligned columns
MEASURE_LABEL = {"accuracy": "", "f1": " F1", "chrf": " chrF", "score": " score"}


def label(row: Row) -> str:
    if row.category is not None:
        return f"  {row.category}"
    name = row.workload if row.level is None else f"{row.workload} @{row.level}"
    return name + MEASURE_LABEL.get(row.measure, f" {row.measure}")


def verdict_text(row: Row) -> str:
    return f"{row.verdict} *" if row.carried_by_failures else row.verdict


def cells(row: Row, failures: bool = False) -> list[str]:
    k = scale(row)
    flips = (
        f"-{len(row.right_to_wrong)}/+{len(row.wrong_to_right)}"
        if row.measure in ("accuracy", exhausted.MEASURE)
        else ""
    )
    numbers = (
        [DASH, DASH, DASH]
        if row.a is None or row.b is None or row.delta is None
        else [f"{k * row.a:.1f}", f"{k * row.b:.1f}", f"{k * row.delta:+.1f}"]
    )
    out = [label(row), str(row.n), *numbers, interval_text(row), p_text(row.p_adjusted),
           flips, mde_text(row)]  # fmt: skip
    if failures:
        out.append(f"{row.failed_a}/{row.failed_b}")
    return [*out, verdict_text(row)]


def header(rows: list[Row]) -> tuple[list[str], set[int], bool]:
    """The table header, its right-aligned columns, and whether the failure column is shown
    (only when some row has a failed request)."""
    failures = any(r.failed_a or r.failed_b for r in rows)
    if not failures:
        return HEADER, RIGHT, False
    return [*HEADER[:-1], FAILED, HEADER[-1]], RIGHT | {9}, True


def fit(header: list[str], body: list[list[str]], right: set[int], width: int = WIDTH) -> list[str]:
    """Aligned columns, two spaces apart when that fits in ``width``, else one; the first column
    is cut with an ellipsis if the table is still too wide."""
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    gap = 2 if sum(widths) + 2 * (len(widths) - 1) <= width else 1
    excess = sum(widths) + gap * (len(widths) - 1) - width
    if excess > 0:
        widths[0] = max(8, widths[0] - excess)
    lines = []
    for cells_ in [header, *body]:
        parts = []
        for i, cell in enumerate(cells_):
            text = cell if len(cell) <= widths[i] else cell[: widths[i] - 1] + "…"
            parts.append(text.rjust(widths[i]) if i in right else text.ljust(widths[i]))
        lines.append((" " * gap).join(parts).rstrip())
    return lines


def _ratio(a: float | None, b: float | None, digits: int) -> str:
    if a is None and b is None:
        return "—"
    left = "—" if a is None else f"{a:.{digits}f}"
    right = "—" if b is None else f"{b:.{digits}f}"
    change = f" ({100 * (b - a) / a:+.0f}%)" if a and b is not None else ""
    return f"{left} -> {right}{change}"


def serving_cells(row: ServingRow, answer: bool = False) -> list[str]:
    """``answer``: with the TTFA column (a side that did not think has TTFA = TTFT)."""
    ttfa = [
        row.a.get("ttfa_p50_s", row.a["ttft_p50_s"]),
        row.b.get("ttfa_p50_s", row.b["ttft_p50_s"]),
    ]
    return [
        row.workload,
        _ratio(row.a["ttft_p50_s"], row.b["ttft_p50_s"], 3),
        *([_ratio(ttfa[0], ttfa[1], 3)] if answer else []),
        _ratio(row.a["itl_p50_s"], row.b["itl_p50_s"], 4),
        _ratio(row.a["output_tokens_per_s"], row.b["output_tokens_per_s"], 1),
    ]


SERVING_HEADER = ["workload", "TTFT p50 s", "ITL p50 s", "output tokens/s"]


def serving_table(rows: list[ServingRow]) -> tuple[list[str], list[list[str]]]:
    """Header and cells of the serving rows; a TTFA column beside TTFT (the first token of any
    channel) when either side of a row thought (issue 33)."""
    answer = any("ttfa_p50_s" in r.a or "ttfa_p50_s" in r.b for r in rows)
    header = [*SERVING_HEADER[:2], "TTFA p50 s", *SERVING_HEADER[2:]] if answer else SERVING_HEADER
    return header, [serving_cells(r, answer) for r in rows]


INTERVAL_HEADER = ["workload", "at", "figure", "A", "B", "B-A [95%]", "verdict"]
INTERVAL_NOTE = (
    "Serving figures in ms with 95% bootstrap intervals (the main pass: within its run; a level "
    "with repeats: across its runs); B-A by MOVER from the two intervals; no difference: its "
    "interval holds 0. docs/serving.md"
)


def _ms(value: float, low: float | None = None, high: float | None = None) -> str:
    def text(x: float) -> str:
        return f"{1000 * x:.3g}"

    return (
        text(value) if low is None or high is None else f"{text(value)} [{text(low)}, {text(high)}]"
    )


FIGURE_NAMES = {"ttft_s": "TTFT", "itl_s": "ITL", "latency_s": "E2E"}
SHORT_VERDICTS = {"no detectable difference": "no difference"}


def _figure_name(figure: str) -> str:
    if figure == "goodput_share":
        return "goodput"
    name, q = figure.split(".")
    return f"{FIGURE_NAMES.get(name, name)} {q}"


def interval_cells(row: ServingRow) -> list[list[str]]:
    """One line per figure both revisions measured with an interval."""
    out = []
    for entry in row.intervals:
        a, b, ci = entry["a"], entry["b"], entry["ci95"]
        share = entry["figure"] == "goodput_share"
        shown = (lambda x: f"{x:.2f}") if share else _ms
        out.append(
            [
                row.workload,
                entry["scope"],
                _figure_name(entry["figure"]),
                f"{shown(a['value'])} [{shown(a['low'])}, {shown(a['high'])}]",
                f"{shown(b['value'])} [{shown(b['low'])}, {shown(b['high'])}]",
                f"{shown(entry['delta'])} [{shown(ci['low'])}, {shown(ci['high'])}]",
                SHORT_VERDICTS.get(entry["verdict"], entry["verdict"]),
            ]
        )
    return out


def _interval_rows(result: Comparison) -> list[list[str]]:
    return [line for s in result.serving for line in interval_cells(s)]


def notes(result: Comparison) -> list[str]:
    """Warnings, refusals, one-sided workloads, unpaired items and untrusted clustered figures."""
    out = [f"warning: {w}" for w in result.warnings]
    out += [f"refused {name}: {reason}" for name, reason in result.refused.items()]
    out += [f"not compared {name}: {reason}" for name, reason in result.skipped.items()]
    out += [
        f"{name}: {a} items at A only and {b} at B only were left out"
        for name, (a, b) in result.unpaired.items()
    ]
    out += [text for r in result.rows if (text := exhausted.sentence(r)) is not None]
    out += [f"{label(r).strip()}: {r.note}" for r in result.rows if r.note and r.category is None]
    out += judge_notes(result.paired)
    out += [
        f"{label(r).strip()}: * {r.verdict} is carried by failed requests ({r.failed_a} at A, "
        f"{r.failed_b} at B): without those pairs no difference is detected"
        for r in result.rows
        if r.carried_by_failures
    ]
    if any(r.verdict == NOT_TESTED for r in result.rows):
        out.append(
            "not tested: a category or pass@k row is tested only when its workload row says "
            "B better or B worse"
        )
    return out


EXHAUSTED_LEGEND = (
    "exhausted rows: % of answered records that ran out while thinking (a rise is a loss: "
    "B worse); flips there: -stopped/+started running out."
)


def legend(result: Comparison) -> list[str]:
    out = [
        f"A = {result.a.short}, B = {result.b.short}",
        "A, B: accuracy % (F1 %, chrF++ 0-100); Δ = B - A in points; 95% CI of Δ: paired score "
        "interval, cluster-aware; p adj: McNemar exact (independent items) or the clustered "
        "score test, adjusted over the whole table; flips: -right->wrong/+wrong->right; MDE: "
        "true |Δ| found with 80% power (>: not even at that size). docs/comparing.md",
    ]
    if any(r.measure == exhausted.MEASURE for r in result.rows):
        out.append(EXHAUSTED_LEGEND)
    return out


MAX_DIFFER_SHOWN = 8
"""Serving figures that differ listed in the terminal at most (the table stays one screen)."""


def interval_lines(compared: list[list[str]], wrap: textwrap.TextWrapper) -> list[str]:
    """The terminal's part on figures with intervals: how many differ, and the first
    :data:`MAX_DIFFER_SHOWN` of them; --json and compare.md show all."""
    if not compared:
        return []
    differ = [row for row in compared if row[-1] != "no difference"]
    lines = ["", *wrap.wrap(INTERVAL_NOTE)]
    lines.append(
        f"{len(compared)} serving figures compared with intervals, {len(differ)} differ"
        + (":" if differ else " (all in --json and compare.md)")
    )
    if differ:
        lines += fit(INTERVAL_HEADER, differ[:MAX_DIFFER_SHOWN], set())
    if len(differ) > MAX_DIFFER_SHOWN:
        more = len(differ) - MAX_DIFFER_SHOWN
        lines.append(f"… {more} more that differ (all in --json and compare.md)")
    return lines


def terminal(result: Comparison, show_flips: bool = False, flips: list[str] | None = None) -> str:
    """The whole terminal view, every line at most :data:`WIDTH` characters."""
    wrap = textwrap.TextWrapper(width=WIDTH, subsequent_indent="  ", break_on_hyphens=False)
    lines = [line for text in legend(result) for line in wrap.wrap(text)] + [""]
    head, right, failures = header(result.rows)
    lines += fit(head, [cells(r, failures) for r in result.rows], right)
    if result.serving:
        lines += ["", "Serving headline figures (medians; intervals below where measured):"]
        lines += fit(*serving_table(result.serving), set())
    lines += interval_lines(_interval_rows(result), wrap)
    runs = [f"run {text}: {', '.join(names)}" for text, names in result.runs.items()]
    extra = runs + notes(result)
    if extra:
        lines.append("")
        lines += [line for text in extra for line in wrap.wrap(text)]
    if show_flips and flips:
        lines += ["", *flips]
    return "\n".join(lines) + "\n"


def _row_json(row: Row) -> dict[str, Any]:
    data = asdict(row)
    data["ci95"] = None if row.ci95 is None else {"low": row.ci95[0], "high": row.ci95[1]}
    data["scale"] = list(row.scale)
    return data


def as_json(result: Comparison, flips: dict[str, Any] | None = None) -> str:
    """``--json``: rows, serving figures and notes."""
    data = {
        "a": {"name": result.a.label, "commit": result.a.commit},
        "b": {"name": result.b.label, "commit": result.b.commit},
        "rows": [_row_json(r) for r in result.rows],
        "serving": [asdict(s) for s in result.serving],
        "refused": result.refused,
        "skipped": result.skipped,
        "unpaired": {k: {"a_only": a, "b_only": b} for k, (a, b) in result.unpaired.items()},
        "runs": result.runs,
        "warnings": result.warnings,
        "judge_corrected": judge_blocks(result.paired),
    }
    if flips is not None:
        data["flips"] = flips
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def md_cell(text: str) -> str:
    """One line of compare.md: notes quote what servers say about themselves, cells model names
    (markup escaped: :mod:`stages.markdown_text`)."""
    return inline(text)


def md_table(header: list[str], body: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(md_cell(c) for c in row) + " |" for row in body] + [""]


def md_cells(row: Row, failures: bool = False) -> list[str]:
    """A row's cells for Markdown, where an indent does not show: a category row is named
    ``workload / category``."""
    out = cells(row, failures)
    if row.category is not None:
        out[0] = f"{row.workload} / {row.category}"
    return out


def markdown(result: Comparison, flip_lines: list[str]) -> str:
    """``compare.md``: legend, the table, serving figures, notes and the flips."""
    out = [f"# Comparison: {inline(result.b.short)} against {inline(result.a.short)}", ""]
    out += [*legend(result), ""]
    head, _, failures = header(result.rows)
    out += md_table(head, [md_cells(r, failures) for r in result.rows])
    if result.serving:
        out += ["## Serving", ""]
        out += md_table(*serving_table(result.serving))
    if _interval_rows(result):
        out += [INTERVAL_NOTE, ""]
        out += md_table(INTERVAL_HEADER, _interval_rows(result))
    runs = [f"run {text}: {', '.join(names)}" for text, names in result.runs.items()]
    if runs or notes(result):
        out += ["## Notes", "", *[f"- {md_cell(n)}" for n in runs + notes(result)], ""]
    if flip_lines:
        out += ["## Flips", "", *flip_lines, ""]
    return "\n".join(out).rstrip("\n") + "\n"
