"""The serving figures that comparisons and headlines show, read in one place so that a change
of the serving metrics layout (issue 14) is adapted here only; and the comparison of their
bootstrap intervals between two revisions (issue 23).

``metrics/<w>.serving.json`` keeps the main pass's figures at ``main.ttft_s.p50``,
``main.itl_s.p50`` and ``main.output_tokens_per_s.aggregate``; files written before that layout
have them at the top level, which is read when there is no ``main`` block.
"""

from __future__ import annotations

from typing import Any

#: Figure name -> its path inside the main pass's block.
FIGURES: dict[str, tuple[str, str]] = {
    "ttft_p50_s": ("ttft_s", "p50"),
    "itl_p50_s": ("itl_s", "p50"),
    "output_tokens_per_s": ("output_tokens_per_s", "aggregate"),
}


def _number(node: Any, path: tuple[str, ...]) -> float | None:
    for part in path:
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    if isinstance(node, int | float) and not isinstance(node, bool):
        return float(node)
    return None


def serving_figures(doc: dict[str, Any] | None) -> dict[str, float | None]:
    """``{ttft_p50_s, itl_p50_s, output_tokens_per_s}`` of a serving metrics file (None: absent),
    and ``ttfa_p50_s`` when its main pass has a time to first answer token."""
    if not doc:
        return dict.fromkeys(FIGURES)
    main = doc["main"] if isinstance(doc.get("main"), dict) else doc
    figures = {name: _number(main, path) for name, path in FIGURES.items()}
    if isinstance(main.get("ttfa_s"), dict):  # issue 33: only a pass where a request thought
        figures["ttfa_p50_s"] = _number(main, ("ttfa_s", "p50"))
    return figures


#: The figures with intervals, as ``intervals`` blocks name them; lower is better for each.
INTERVAL_FIGURES = (
    "ttft_s.p50",
    "ttft_s.p99",
    "itl_s.p50",
    "itl_s.p99",
    "latency_s.p50",
    "latency_s.p99",
)
SAME = "no detectable difference"


def _interval(block: Any) -> tuple[float, float, float] | None:
    """(value, low, high) of one figure of an ``intervals`` block; None when incomplete."""
    if not isinstance(block, dict) or not isinstance(block.get("ci95"), dict):
        return None
    value, ci = block.get("value"), block["ci95"]
    numbers = (value, ci.get("low"), ci.get("high"))
    if any(not isinstance(x, int | float) or isinstance(x, bool) for x in numbers):
        return None
    return float(value), float(ci["low"]), float(ci["high"])  # type: ignore[arg-type]


def scopes(doc: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """``{"main": intervals, "rate 4": intervals, "concurrency 8": ...}`` of a serving file."""
    if not doc:
        return {}
    out: dict[str, dict[str, Any]] = {}
    main = doc.get("main") if isinstance(doc.get("main"), dict) else None
    if main and isinstance(main.get("intervals"), dict):
        out["main"] = main["intervals"]
    for mode in ("concurrency", "rate"):
        for label, level in (doc.get(mode) or {}).items():
            if isinstance(level, dict) and isinstance(level.get("intervals"), dict):
                out[f"{mode} {label}"] = level["intervals"]
    return out


def mover(a: tuple[float, float, float], b: tuple[float, float, float]) -> tuple[float, float]:
    """95 % interval of b − a from the two independent intervals (MOVER: Zou & Donner 2008; for
    two proportions it is Newcombe's hybrid score interval)."""
    (va, la, ua), (vb, lb, ub) = a, b
    delta = vb - va
    low = delta - ((vb - lb) ** 2 + (ua - va) ** 2) ** 0.5
    high = delta + ((ub - vb) ** 2 + (va - la) ** 2) ** 0.5
    return low, high


def compare_intervals(a_doc: dict[str, Any] | None, b_doc: dict[str, Any] | None) -> list[Any]:
    """One entry per figure both revisions measured with an interval, in each scope both have:
    A and B with their intervals, B − A with its interval, and a verdict (``B faster``, ``B
    slower``, or no detectable difference when the interval holds 0; goodput share: ``B
    better``/``B worse``)."""
    at_a, at_b = scopes(a_doc), scopes(b_doc)
    out = []
    for scope in [s for s in at_a if s in at_b]:
        for figure in (*INTERVAL_FIGURES, "goodput_share"):
            a, b = _interval(at_a[scope].get(figure)), _interval(at_b[scope].get(figure))
            if a is None or b is None:
                continue
            low, high = mover(a, b)
            higher, lower = (
                ("B better", "B worse")
                if figure == "goodput_share"
                else (
                    "B slower",
                    "B faster",
                )
            )
            verdict = higher if low > 0 else lower if high < 0 else SAME
            runs = (at_a[scope].get("runs"), at_b[scope].get("runs"))
            out.append(
                {
                    "scope": scope,
                    "figure": figure,
                    "a": {"value": a[0], "low": a[1], "high": a[2]},
                    "b": {"value": b[0], "low": b[1], "high": b[2]},
                    "delta": round(b[0] - a[0], 6),
                    "ci95": {"low": round(low, 6), "high": round(high, 6)},
                    "verdict": verdict,
                    "runs": {"a": runs[0], "b": runs[1]},
                }
            )
    return out
