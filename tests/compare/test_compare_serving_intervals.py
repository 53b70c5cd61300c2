"""``atlas compare`` on serving figures with intervals (issue 23): B − A by MOVER from the two
bootstrap intervals, hand-checked, per scope (main pass, each level), with the verdict it allows."""

from __future__ import annotations

import math
import textwrap

import pytest

from stages.compare.render import MAX_DIFFER_SHOWN, interval_cells, interval_lines
from stages.compare.run import ServingRow
from stages.compare.serving import compare_intervals, mover, scopes


def _figure(value: float, low: float, high: float) -> dict[str, object]:
    return {"value": value, "ci95": {"low": low, "high": high}, "clamped": 0}


A = {
    "main": {
        "intervals": {
            "runs": 1,
            "ttft_s.p50": _figure(0.100, 0.090, 0.110),
            "itl_s.p50": _figure(0.010, 0.009, 0.011),
        }
    },
    "rate": {"4": {"intervals": {"runs": 3, "goodput_share": _figure(0.9, 0.85, 0.95)}}},
}
B = {
    "main": {
        "intervals": {
            "runs": 1,
            "ttft_s.p50": _figure(0.130, 0.125, 0.140),
            "itl_s.p50": _figure(0.0105, 0.0095, 0.0115),
        }
    },
    "rate": {
        "4": {"intervals": {"runs": 3, "goodput_share": _figure(0.6, 0.5, 0.7)}},
        "8": {"intervals": {"runs": 3, "goodput_share": _figure(0.1, 0.0, 0.2)}},
    },
}


def test_mover_combines_two_independent_intervals() -> None:
    low, high = mover((0.100, 0.090, 0.110), (0.130, 0.125, 0.140))
    # 0.03 - sqrt(0.005^2 + 0.010^2) and 0.03 + sqrt(0.010^2 + 0.010^2)
    assert low == pytest.approx(0.03 - math.sqrt(0.000125))
    assert high == pytest.approx(0.03 + math.sqrt(0.0002))


def test_figures_are_compared_in_every_scope_both_revisions_have() -> None:
    assert sorted(scopes(B)) == ["main", "rate 4", "rate 8"]
    entries = {(e["scope"], e["figure"]): e for e in compare_intervals(A, B)}
    assert sorted(entries) == [
        ("main", "itl_s.p50"),
        ("main", "ttft_s.p50"),
        ("rate 4", "goodput_share"),
    ]
    ttft = entries[("main", "ttft_s.p50")]
    assert (ttft["delta"], ttft["verdict"]) == (0.03, "B slower")
    assert ttft["ci95"] == {"low": 0.01882, "high": 0.044142}
    assert entries[("main", "itl_s.p50")]["verdict"] == "no detectable difference"
    goodput = entries[("rate 4", "goodput_share")]
    assert (goodput["verdict"], goodput["runs"]) == ("B worse", {"a": 3, "b": 3})
    cells = interval_cells(ServingRow("chat", {}, {}, [ttft]))
    assert cells[0] == [
        "chat",
        "main",
        "TTFT p50",
        "100 [90, 110]",
        "130 [125, 140]",
        "30 [18.8, 44.1]",
        "B slower",
    ]
    assert compare_intervals(None, B) == [] and compare_intervals({"main": {}}, B) == []


def test_the_terminal_lists_at_most_eight_figures_that_differ() -> None:
    """Twelve figures of three workloads differ: the terminal lists eight and says how many more
    (the README's compare output stays within 40 lines); one that does not differ is counted."""
    row = ["w", "main", "TTFT p50", "97 [49, 112]", "5 [2, 7]", "-92 [-107, -44]", "B faster"]
    same = [*row[:-1], "no difference"]
    lines = interval_lines([row] * 12 + [same], textwrap.TextWrapper(width=100))
    assert "13 serving figures compared with intervals, 12 differ:" in lines
    assert lines[-1] == "… 4 more that differ (all in --json and compare.md)"
    assert sum(line.startswith("w ") for line in lines) == MAX_DIFFER_SHOWN == 8
    assert interval_lines([same], textwrap.TextWrapper(width=100))[-1] == (
        "1 serving figures compared with intervals, 0 differ (all in --json and compare.md)"
    )
