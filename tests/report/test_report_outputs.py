"""``atlas report`` end to end on a scored temp project: summary.json, report.md, report.html,
plot files, and errors that name the missing file."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from stages.cli import main


def _no_lists(node: Any) -> bool:
    if isinstance(node, list):
        return False
    if isinstance(node, dict):
        return all(_no_lists(v) for v in node.values())
    return True


def test_summary_keeps_each_workload_apart(scored_project: Path) -> None:
    assert main(["report"]) == 0
    summary = json.loads(Path("metrics/summary.json").read_text())
    assert _no_lists(summary)
    assert summary["check"] == {"datasets": 3, "failures": 0}
    assert summary["workloads"]["math"] == {
        "dataset": "eval-tiny-v1",
        "kind": "eval",
        "model": {"name": "tiny-model", "revision": "rev-42"},
        "n": 4,
        "correct": 2,
        "accuracy": 0.5,
        "wilson_95": {"low": 0.150039, "high": 0.849961},
        "failed": 1,
        "latency_p50_s": 2.0,
    }
    assert summary["workloads"]["mix"] == {
        "dataset": "prompts-tiny-v1",
        "kind": "prompts",
        "model": {"name": "tiny-model", "revision": "rev-42"},
        "n": 3,
        "failed": 0,
        "ttft_p50_s": 0.3,
        "latency_p50_s": 0.7,
    }
    assert "accuracy" not in summary and "accuracy" not in summary["workloads"]["mix"]


def test_markdown_has_tables_failures_and_error_analysis(scored_project: Path) -> None:
    assert main(["report"]) == 0
    md = Path("report.md").read_text()
    assert '- `tiny-model` revision `rev-42`, decoding `{"max_tokens": 16, ' in md
    assert "| math | eval-tiny-v1 | eval | 4 | 2 | 50.0 % | 50.0 % | 15.0 % – 85.0 % | 1 |" in md
    assert "| mix | prompts-tiny-v1 | prompts | 3 | — | — | — | — | 0 |" in md
    assert "| category | n | correct | accuracy | flexible |" in md
    assert "| arith | 2 | 1 | 50.0 % | 50.0 % |" in md
    assert "Flexible extraction: 50.0 % (2/4) — the same outputs read leniently." in md
    assert "| m-3 | timeout |" in md
    assert "| l-4 | context_overflow |" in md
    assert "| m-2 | Question m-2? | 4 | 5 | differs |" in md
    assert "| m-3 | Question m-3? | cat | — | request failed |" in md
    # buckets in size order, not alphabetical
    assert md.index("| xs | 2 | 0 |") < md.index("| s | 1 | 0 |")
    assert "| 8192 | 50% | 1 | 0 | 0.0 % |" in md
    assert "| ttft_s.xs.p50 | 0.2 |" in md


def test_html_is_self_contained_with_charts(scored_project: Path) -> None:
    assert main(["report"]) == 0
    page = Path("report.html").read_text()
    assert "http://" not in page and "https://" not in page
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert re.search(r"""(src|href)\s*=\s*["'](?!#)""", page) is None
    svgs = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    titles = [ET.fromstring(s).findtext("title") for s in svgs]  # each chart is well-formed XML
    assert titles == [
        "Accuracy by category",
        "Latency distribution",
        "Time to first token by bucket (median)",
        "Latency distribution",
        "Accuracy by category",
        "Accuracy by document length (rows) × needle depth (columns)",
    ]
    assert "<title>8192 tokens @ 50%: 0% of 1</title>" in page


def test_plot_files_are_tables_per_workload(scored_project: Path) -> None:
    assert main(["report"]) == 0
    plots = Path("metrics/plots")
    assert sorted(str(p.relative_to(plots)) for p in plots.rglob("*.json")) == [
        "accuracy_by_category/lc.json",
        "accuracy_by_category/math.json",
        "haystack_grid/lc.json",
        "latency_histogram/math.json",
        "latency_histogram/mix.json",
        "ttft_by_bucket/mix.json",
    ]
    assert json.loads((plots / "ttft_by_bucket/mix.json").read_text()) == [
        {"bucket": "xs", "n": 2, "ttft_p50_s": 0.2, "ttft_p90_s": 0.28, "ttft_mean_s": 0.2},
        {"bucket": "s", "n": 1, "ttft_p50_s": 0.8, "ttft_p90_s": 0.8, "ttft_mean_s": 0.8},
    ]
    assert json.loads((plots / "accuracy_by_category/math.json").read_text()) == [
        {"category": "arith", "n": 2, "correct": 1, "accuracy": 0.5},
        {"category": "words", "n": 2, "correct": 1, "accuracy": 0.5},
    ]
    grid = json.loads((plots / "haystack_grid/lc.json").read_text())
    assert [(c["cell"], c["accuracy"]) for c in grid] == [
        ("1024 tokens @ 0%", 1.0),
        ("1024 tokens @ 50%", 1.0),
        ("8192 tokens @ 0%", 1.0),
        ("8192 tokens @ 50%", 0.0),
    ]


def test_stale_plot_files_are_removed(scored_project: Path) -> None:
    stale = Path("metrics/plots/ttft_by_bucket/gone.json")
    stale.parent.mkdir(parents=True)
    stale.write_text("[]")
    assert main(["report"]) == 0
    assert not stale.exists()


@pytest.mark.parametrize(
    ("missing", "message"),
    [
        ("metrics/math.json", "metrics/math.json: file not found"),
        ("results/lc/scored.jsonl", "results/lc/scored.jsonl: file not found"),
        ("results/mix/manifest.json", "results/mix/manifest.json: file not found"),
    ],
)
def test_missing_input_names_the_file(
    scored_project: Path, capsys: pytest.CaptureFixture[str], missing: str, message: str
) -> None:
    Path(missing).unlink()
    assert main(["report"]) == 2
    assert message in capsys.readouterr().err
    assert not Path("report.html").exists()


def test_optional_inputs_may_be_absent(scored_project: Path) -> None:
    Path("metrics/check.json").unlink()
    Path("metrics/mix.serving.json").unlink()
    assert main(["report"]) == 0
    assert "check" not in json.loads(Path("metrics/summary.json").read_text())
    assert "Serving metrics" not in Path("report.md").read_text()
