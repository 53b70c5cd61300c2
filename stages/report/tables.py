"""Tables derived for the report and the DVC plot files (issue 4 "Report", issue 6 plots).

Every table is a list of flat dicts, the shape DVC ``plots`` reads. Timings come from the scored
records (which carry each journal record's ``ttft_s``/``latency_s``) and use successful requests
only; percentiles interpolate linearly between closest ranks (numpy's default method).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from stages.datasets.tokens import BUCKETS
from stages.scoring.metrics import NON_BINARY_SCORERS, record_key

Record = dict[str, Any]
DIGITS = 6
#: Accuracy columns of a breakdown table, strict first (issue 12), and how they are headed.
ACCURACY_KEYS = ("n", "correct", "accuracy", "accuracy_flexible")
COLUMN_NAMES = {"accuracy_flexible": "flexible"}
FLEXIBLE_NOTE = (
    "accuracy is the strict extraction (spec 001); flexible re-reads the same outputs leniently "
    "(markdown emphasis, \\boxed, LaTeX and number formats); the gap measures format-following."
)


def flexible_sentence(metrics: dict[str, Any]) -> str:
    """One sentence with the flexible accuracy and its count."""
    value = metrics.get("accuracy_flexible")
    shown = "—" if value is None else f"{100 * value:.1f} %"
    return (
        f"Flexible extraction: {shown} ({metrics.get('correct_flexible')}/{metrics.get('n')}) "
        "— the same outputs read leniently."
    )


def unsafe(metrics: dict[str, Any]) -> bool:
    """Whether a workload's figures rest on code run in the basic sandbox."""
    return bool((metrics.get("sandbox") or {}).get("unsafe"))


def sandbox_sentence(metrics: dict[str, Any]) -> str | None:
    """Which sandbox the code verdicts ran in; an UNSAFE warning when any ran in the basic one
    (issue 24), None for a workload without code verdicts."""
    block = metrics.get("sandbox")
    if not block:
        return None
    modes = ", ".join(f"{mode} {n}" for mode, n in block["isolation"].items())
    if block.get("unsafe"):
        return (
            f"**UNSAFE**: code_exec verdicts by sandbox: {modes}. The basic sandbox (opted in "
            "with --unsafe-sandbox) runs the model's code as the user, without namespaces: "
            "these figures cannot be trusted like the others."
        )
    return f"code_exec verdicts by sandbox: {modes}."


def exhausted_cell(metrics: dict[str, Any]) -> str:
    """The summary table's ``exhausted`` cell: ``3 (25.0 %)``; ``0`` for a workload whose
    metrics have no block (none ran out, or it was scored before issue 33)."""
    block = metrics.get("exhausted")
    if not block:
        return "0"
    return f"{block['count']} ({100 * block['share']:.1f} %)"


def exhausted_sentence(metrics: dict[str, Any]) -> str | None:
    """Answers that ran out while thinking (issue 33), None where none did."""
    block = metrics.get("exhausted")
    if not block:
        return None
    return (
        f"Exhausted while thinking: **{100 * block['share']:.1f} %** ({block['count']}/"
        f"{block['n']} records) ran out of tokens before any answer text; counted apart from "
        "wrong answers and failed requests, and never correct (accuracy keeps them in its "
        "denominator)."
    )


def integrity_sentence(integrity: dict[str, Any]) -> str:
    """Long generations: the intact share and the intact-and-complete share."""

    def part(block: dict[str, Any]) -> str:
        value = block.get("share")
        shown = "—" if value is None else f"{100 * value:.1f} %"
        return f"**{shown}** ({block.get('count')}/{block.get('n')})"

    return (
        f"Long generations: intact {part(integrity['intact'])}; intact and complete "
        f"{part(integrity['intact_complete'])} ({integrity.get('rule', '')})."
    )


def load_sentences(metrics: dict[str, Any]) -> list[str]:
    """Correctness under load (issue 23): each level paired with the baseline level."""
    block = metrics.get("load") or {}
    out = []
    for label, level in (block.get("levels") or {}).items():
        paired = (level.get("vs_baseline") or {}).get("accuracy")
        if not paired:
            continue
        ci = paired.get("ci95") or {}
        interval = (
            f"95 % CI {100 * ci['low']:+.1f} to {100 * ci['high']:+.1f}" if ci else "no interval"
        )
        p_adj = paired.get("p_adjusted")
        shown_p = "—" if p_adj is None else f"{p_adj:.3f}"
        out.append(
            f"Under load ({block.get('mode')} {label} against {block.get('baseline')}, the same "
            f"items paired): accuracy {100 * paired['level']:.1f} % vs "
            f"{100 * paired['baseline']:.1f} %, Δ {100 * paired['delta']:+.1f} pt, {interval}, "
            f"flips -{len(paired['right_to_wrong'])}/+{len(paired['wrong_to_right'])}, "
            f"**{paired['verdict']}** ({paired['test']}, p adj {shown_p})."
        )
    return out


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``values`` by linear interpolation."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def is_binary(record: Record) -> bool:
    """True when a scored record counts towards accuracy."""
    scorer = record.get("scorer")
    return scorer is not None and scorer not in NON_BINARY_SCORERS


def timings(records: list[Record], field: str) -> list[float]:
    """``ttft_s`` or ``latency_s`` of every successful request that has one."""
    return [
        float(r[field]) for r in records if r.get("failed") is None and r.get(field) is not None
    ]


#: Facets whose values have a natural order (others sort alphabetically).
NATURAL_ORDER = {"bucket": list(BUCKETS), "difficulty": ["easy", "medium", "hard"]}


def facet_order(facet: str, value: str) -> tuple[int, list[tuple[int, str]]]:
    """Sort key of a breakdown value: buckets by size, difficulty easy to hard, else by name
    with digit runs compared as numbers (``2k`` before ``16k``)."""
    order = NATURAL_ORDER.get(facet, [])
    parts = re.split(r"(\d+)", value)
    natural = [(int(p), "") if p.isdigit() else (-1, p) for p in parts if p]
    return (order.index(value) if value in order else len(order), natural)


def breakdown_items(metrics: dict[str, Any], facet: str) -> list[tuple[str, dict[str, Any]]]:
    """``(value, cell)`` pairs of one breakdown in :func:`facet_order`."""
    cells = metrics.get("breakdowns", {}).get(facet, {})
    return sorted(cells.items(), key=lambda item: facet_order(facet, item[0]))


def accuracy_by(metrics: dict[str, Any], facet: str) -> list[Record]:
    """``[{facet: value, n, correct, accuracy}]`` from a metrics breakdown, in key order."""
    return [
        {facet: value, "n": cell["n"], "correct": cell["correct"], "accuracy": cell["accuracy"]}
        for value, cell in breakdown_items(metrics, facet)
        if "accuracy" in cell
    ]


def ttft_by_bucket(records: list[Record]) -> list[Record]:
    """Time to first token per length bucket: n, p50, p90 and mean in seconds."""
    groups: dict[str, list[float]] = {}
    for record in records:
        bucket = record.get("facets", {}).get("bucket")
        if bucket is not None and record.get("failed") is None and record.get("ttft_s") is not None:
            groups.setdefault(bucket, []).append(float(record["ttft_s"]))
    return [
        {
            "bucket": bucket,
            "n": len(values),
            "ttft_p50_s": round(percentile(values, 0.5), DIGITS),
            "ttft_p90_s": round(percentile(values, 0.9), DIGITS),
            "ttft_mean_s": round(sum(values) / len(values), DIGITS),
        }
        for bucket, values in sorted(
            groups.items(), key=lambda item: facet_order("bucket", item[0])
        )
    ]


def latency_histogram(records: list[Record], bins: int = 10) -> list[Record]:
    """Equal-width histogram of request latency; the last bin includes its upper edge."""
    values = timings(records, "latency_s")
    if not values:
        return []
    low, high = min(values), max(values)
    count = bins if high > low else 1
    width = (high - low) / count if high > low else 0.0
    counts = [0] * count
    for value in values:
        index = min(int((value - low) / width), count - 1) if width else 0
        counts[index] += 1
    rows = []
    for i, n in enumerate(counts):
        lo, hi = low + i * width, (low + (i + 1) * width if width else high)
        label = f"{lo:.4g}-{hi:.4g} s"
        rows.append(
            {"latency_bin": label, "lo_s": round(lo, DIGITS), "hi_s": round(hi, DIGITS), "count": n}
        )
    return rows


def depth_order(depth: str) -> float:
    """Sort key of a depth column (``"25%"``); the multi-needle column ``multi`` goes last."""
    return float(depth.rstrip("%")) if depth != "multi" else math.inf


def haystack_cells(records: list[Record]) -> list[Record]:
    """Accuracy per (document length, needle depth) cell of long-context records."""
    cells: dict[tuple[int, str], list[bool]] = {}
    for record in records:
        cell = record.get("haystack")
        if cell and is_binary(record):
            key = (int(cell["target_tokens"]), str(cell["depth"]))
            cells.setdefault(key, []).append(record.get("correct") is True)
    ordered = sorted(cells.items(), key=lambda item: (item[0][0], depth_order(item[0][1])))
    return [
        {
            "target_tokens": tokens,
            "depth": depth,
            "cell": f"{tokens} tokens @ {depth}",
            "n": len(hits),
            "correct": sum(hits),
            "accuracy": round(sum(hits) / len(hits), DIGITS),
        }
        for (tokens, depth), hits in ordered
    ]


def _short(value: Any, width: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def error_examples(records: list[Record], limit: int = 5) -> list[Record]:
    """A few wrong items: wrong answers first (they teach most), then failed requests."""
    wrong = [r for r in records if is_binary(r) and r.get("correct") is False]
    chosen = [r for r in wrong if r.get("failed") is None] + [r for r in wrong if r.get("failed")]
    return [
        {
            "key": record_key(r["id"], int(r.get("repeat", 0))),
            "prompt": r.get("prompt_excerpt", ""),
            "gold": _short(r.get("gold")),
            "extracted": None if r.get("extracted") is None else _short(r["extracted"]),
            "why": _short(r.get("why", "")),
            "failed": r.get("failed"),
        }
        for r in chosen[:limit]
    ]


def flatten(data: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Scalar leaves of nested dicts as ``(dotted.key, value)``, e.g. a serving metrics file."""
    if isinstance(data, dict):
        out: list[tuple[str, Any]] = []
        for key in sorted(data):
            out.extend(flatten(data[key], f"{prefix}.{key}" if prefix else str(key)))
        return out
    return [(prefix, data)] if not isinstance(data, list) else []
