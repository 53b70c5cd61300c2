"""The reasoning and answer channels of a serving file, one row per pass (issue 33).

Only passes and levels where a request thought have a ``channels`` block
(:mod:`stages.serving.channel_figures`); a file without any gets no table, so the report of a
model that does not think is what it was. TTFT is of any channel, TTFA of the answer; the main
pass times both from the actual send, load levels from the scheduled send, as the key table does.
"""

from __future__ import annotations

from typing import Any

from stages.report.serving import _levels, _p

HEADER = [
    "pass", "thinking", "TTFT p50 (s)", "TTFA p50 (s)", "reasoning ITL p50 (s)",
    "reasoning TPOT p50 (s)", "answer ITL p50 (s)", "answer TPOT p50 (s)", "reasoning tokens",
    "answer tokens", "reasoning tokens from",
]  # fmt: skip
NOTE = (
    "TTFT: the first token of any channel; TTFA: the first answer token. Reasoning tokens come "
    "from the engine's usage, else its tokenizer, else are approximate (reasoning deltas, or "
    "characters / 4 of an answer not streamed): docs/serving.md."
)


def _sources(tokens: dict[str, Any]) -> str:
    named = (("from_usage", "usage"), ("from_tokenizer", "tokenizer"), ("approximate", "approx."))
    return ", ".join(f"{label} {tokens[k]}" for k, label in named if tokens.get(k))


def _row(label: str, figures: dict[str, Any], scheduled: bool) -> list[Any]:
    channels = figures["channels"]
    reasoning, answer = channels["reasoning"], channels["answer"]
    ttft, ttfa = ("ttft_s", "ttfa_s")
    if scheduled and "ttfa_from_scheduled_s" in figures:
        ttft, ttfa = ("ttft_from_scheduled_s", "ttfa_from_scheduled_s")
    return [
        label,
        f"{channels['requests_thinking']} of {figures.get('requests')}",
        _p(figures, ttft, "p50"),
        _p(figures, ttfa, "p50"),
        _p(reasoning, "itl_s", "p50"),
        _p(reasoning, "tpot_s", "p50"),
        _p(answer, "itl_s", "p50"),
        _p(answer, "tpot_s", "p50"),
        reasoning["tokens"]["total"],
        answer["tokens"]["total"],
        _sources(reasoning["tokens"]),
    ]


def channel_rows(serving: dict[str, Any]) -> list[list[Any]]:
    """One row (:data:`HEADER`) per pass or level that has channel figures."""
    main = serving.get("main")
    main = main if isinstance(main, dict) else serving
    rows = [_row("main", main, False)] if isinstance(main.get("channels"), dict) else []
    for mode, level, figures in _levels(serving):
        if isinstance(figures.get("channels"), dict):
            rows.append(_row(f"{mode} {level}", figures, True))
    return rows
