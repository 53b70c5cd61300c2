"""Serving curves in the report and as DVC plots (issue 14, "Outputs").

From ``metrics/<w>.serving.json`` (see :mod:`stages.serving.load`): the latency–throughput
curve (each load level's throughput against its TTFT and end-to-end latency, p50 and p99, timed
from the scheduled send) and goodput against the offered rate, with the knee marked. Plot data
goes to ``metrics/plots/latency_throughput/<w>.json`` and ``metrics/plots/goodput_rate/<w>.json``
(flat rows, the shape DVC ``plots`` reads); the same curves are drawn inline in ``report.html``,
and the level table goes into both reports. ``report.html`` leads each workload's serving part
with :func:`key_rows` and the curves, the full figures folded below them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stages.io import dumps_pretty
from stages.report.inputs import WorkloadInputs
from stages.report.line_svg import Series, line_chart

PLOTS_DIR = Path("metrics/plots")
PLOT_KINDS = ("latency_throughput", "goodput_rate")
LEVEL_KEYS = ("concurrency", "rate", "knee")
MODES = ("concurrency", "rate")


def _p(block: dict[str, Any], name: str, q: str) -> Any:
    return (block.get(name) or {}).get(q)


def _levels(serving: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(mode, level, figures) of every load level, levels in numeric order."""
    return [
        (mode, level, figures)
        for mode in MODES
        for level, figures in sorted((serving.get(mode) or {}).items(), key=lambda i: float(i[0]))
    ]


def latency_throughput(serving: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "mode": mode,
            "level": float(level),
            "throughput_rps": figures.get("requests_per_s"),
            "ttft_p50_s": _p(figures, "ttft_from_scheduled_s", "p50"),
            "ttft_p99_s": _p(figures, "ttft_from_scheduled_s", "p99"),
            "latency_p50_s": _p(figures, "latency_from_scheduled_s", "p50"),
            "latency_p99_s": _p(figures, "latency_from_scheduled_s", "p99"),
        }
        for mode, level, figures in _levels(serving)
        if figures.get("requests_per_s") is not None
    ]


def goodput_rate(serving: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "offered_rate": float(level),
            "achieved_rate": figures.get("achieved_rate"),
            "goodput_rps": figures["goodput"]["requests_per_s"],
            "goodput_share": figures["goodput"]["share"],
        }
        for mode, level, figures in _levels(serving)
        if mode == "rate" and (figures.get("goodput") or {}).get("requests_per_s") is not None
    ]


def serving_plot_files(workloads: list[WorkloadInputs], root: Path = PLOTS_DIR) -> dict[Path, str]:
    """``{<root>/<kind>/<workload>.json: text}`` for both curves of every workload with load
    levels (stale files are removed by the report stage with the other plot kinds)."""
    files = {}
    for w in workloads:
        for kind, rows in (
            ("latency_throughput", latency_throughput(w.serving or {})),
            ("goodput_rate", goodput_rate(w.serving or {})),
        ):
            if rows:
                files[root / kind / f"{w.name}.json"] = dumps_pretty(rows)
    return files


def serving_charts(w: WorkloadInputs) -> str:
    """The two curves as inline SVG ("" when the workload has no load levels)."""
    serving, out = w.serving or {}, []
    curve = latency_throughput(serving)
    if curve:
        series: list[Series] = []
        for field, name, colour, dash in (
            ("latency_p50_s", "E2E p50", "#4c78a8", ""),
            ("latency_p99_s", "E2E p99", "#4c78a8", "5 3"),
            ("ttft_p50_s", "TTFT p50", "#e45756", ""),
            ("ttft_p99_s", "TTFT p99", "#e45756", "5 3"),
        ):
            points = [
                (
                    r["throughput_rps"],
                    r[field],
                    f"{r['mode']} {r['level']:g}: {r[field]} s at {r['throughput_rps']} req/s",
                )
                for r in curve
                if r[field] is not None
            ]
            tags = tuple(f"{r['level']:g}" for r in curve if r[field] is not None)
            series.append(Series(name, colour, points, dash, tags if not series else ()))
        title = "Latency against throughput (from the scheduled send)"
        out.append(line_chart(series, title, "throughput (successful requests/s)", "seconds"))
    good = goodput_rate(serving)
    if good:
        offered = [
            (r["offered_rate"], r["offered_rate"], f"offered {r['offered_rate']:g}/s") for r in good
        ]
        points = [
            (
                r["offered_rate"],
                r["goodput_rps"],
                f"{r['offered_rate']:g}/s offered: goodput {r['goodput_rps']}/s "
                f"({r['goodput_share']:.0%} met the SLO)",
            )
            for r in good
        ]
        series = [Series("offered", "#999", offered, "3 3"), Series("goodput", "#2a9d3a", points)]
        knee = (serving.get("knee") or {}).get("rate")
        mark = (knee, f"knee {knee:g}/s") if knee is not None else None
        title = "Goodput against offered rate"
        out.append(line_chart(series, title, "offered rate (requests/s)", "requests/s", mark))
    return "".join(out)


KEY_HEADER = [
    "pass", "requests", "failed", "TTFT p50 (s)", "TTFT p99 (s)", "ITL p50 (s)", "ITL p99 (s)",
    "E2E p50 (s)", "E2E p99 (s)", "output tokens/s",
]  # fmt: skip
KEY_NOTE = (
    "The main pass times TTFT and E2E from the actual send, load levels from the scheduled send "
    "(where a server's queue shows). Output tokens/s: the tokens of all answers per second of the "
    "pass (of a level's measured window), not per request."
)


TTFA_HEADER = ["TTFA p50 (s)", "TTFA p99 (s)"]
"""Added after the TTFT columns when a pass or level of the file thought (issue 33): time to
the first answer token beside TTFT, the first token of any channel."""


def thought(serving: dict[str, Any]) -> bool:
    """Some pass or level of the serving file has a reasoning channel (its ``ttfa_s``)."""
    main = serving.get("main")
    blocks = [main if isinstance(main, dict) else serving] + [f for _, _, f in _levels(serving)]
    return any("ttfa_s" in block for block in blocks)


def key_header(serving: dict[str, Any]) -> list[str]:
    """:data:`KEY_HEADER`, with the TTFA columns when the file has them."""
    if not thought(serving):
        return list(KEY_HEADER)
    return [*KEY_HEADER[:5], *TTFA_HEADER, *KEY_HEADER[5:]]


def _key_row(
    label: str, figures: dict[str, Any], ttft: str, latency: str, ttfa: str | None = None
) -> list[Any]:
    tokens = figures.get("output_tokens_per_s")
    # a block without TTFA did not think: its first answer token is its first token
    answer = [] if ttfa is None else [ttfa if ttfa in figures else ttft]
    return [
        label,
        figures.get("requests"),
        figures.get("requests_failed"),
        _p(figures, ttft, "p50"),
        _p(figures, ttft, "p99"),
        *[_p(figures, name, q) for name in answer for q in ("p50", "p99")],
        _p(figures, "itl_s", "p50"),
        _p(figures, "itl_s", "p99"),
        _p(figures, latency, "p50"),
        _p(figures, latency, "p99"),
        tokens.get("aggregate") if isinstance(tokens, dict) else tokens,
    ]


def key_rows(serving: dict[str, Any]) -> list[list[Any]]:
    """The figures a reader wants first (:func:`key_header`): the main pass, then each level."""
    main = serving.get("main")
    main = main if isinstance(main, dict) else main_rows(serving)  # files before issue 14: flat
    concurrency = main.get("concurrency")
    label = "main" if concurrency is None else f"main (concurrency {concurrency})"
    answer = thought(serving)
    rows = [_key_row(label, main, "ttft_s", "latency_s", "ttfa_s" if answer else None)]
    for mode, level, figures in _levels(serving):
        ttft = "ttft_from_scheduled_s" if "ttft_from_scheduled_s" in figures else "ttft_s"
        latency = (
            "latency_from_scheduled_s" if "latency_from_scheduled_s" in figures else "latency_s"
        )
        ttfa = ttft.replace("ttft", "ttfa") if answer else None
        rows.append(_key_row(f"{mode} {level}", figures, ttft, latency, ttfa))
    return rows


def main_rows(serving: dict[str, Any]) -> dict[str, Any]:
    """The serving file without its load levels (they get :func:`level_table`)."""
    return {k: v for k, v in serving.items() if k not in LEVEL_KEYS}


def level_table(serving: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """One row per load level: the figures a reader compares across levels."""
    header = [
        "mode",
        "level",
        "achieved rate",
        "req/s",
        "TTFT p50",
        "TTFT p99",
        "E2E p50",
        "E2E p99",
        "TPOT p50",
        "ITL p50",
        "lag p99",
        "goodput share",
        "failed",
    ]
    rows = [
        [
            mode,
            level,
            figures.get("achieved_rate"),
            figures.get("requests_per_s"),
            _p(figures, "ttft_from_scheduled_s", "p50"),
            _p(figures, "ttft_from_scheduled_s", "p99"),
            _p(figures, "latency_from_scheduled_s", "p50"),
            _p(figures, "latency_from_scheduled_s", "p99"),
            _p(figures, "tpot_s", "p50"),
            _p(figures, "itl_s", "p50"),
            _p(figures, "schedule_lag_s", "p99"),
            (figures.get("goodput") or {}).get("share"),
            figures.get("requests_failed"),
        ]
        for mode, level, figures in _levels(serving)
    ]
    return header, rows


def knee_note(serving: dict[str, Any]) -> str:
    """One sentence on the knee, or "" without one."""
    knee = serving.get("knee")
    if not knee:
        return ""
    slo = ", ".join(f"{k} <= {v:g}" for k, v in sorted(knee["slo"].items()))
    rate = "none of the rates" if knee["rate"] is None else f"{knee['rate']:g} req/s"
    return (
        f"Knee: {rate} (highest offered rate up to which at least {knee['goodput_target']:.0%} "
        f"of requests met every objective: {slo}; times from the scheduled send)."
    )
