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


def test_headlines_are_one_small_flat_file_per_workload(scored_project: Path) -> None:
    assert main(["report"]) == 0
    files = sorted(p.name for p in Path("metrics/summary").iterdir())
    assert files == ["lc.json", "math.json", "mix.json"]
    headline = {p.stem: json.loads(p.read_text()) for p in Path("metrics/summary").iterdir()}
    assert all(_no_lists(h) and not any(isinstance(v, dict) for v in h.values()) for h in
               headline.values())  # fmt: skip
    assert headline["math"] == {
        "accuracy": 0.5, "flexible": 0.5, "ci95_lo": 0.15, "ci95_hi": 0.85, "n": 4, "failed": 1,
    }  # fmt: skip
    # Serving figures come from the serving metrics file; mix.serving.json has no p50 of ITL.
    assert headline["mix"] == {"n": 3, "failed": 0}
    Path("metrics/mix.serving.json").write_text(
        json.dumps({"main": {"ttft_s": {"p50": 0.123456}, "itl_s": {"p50": 0.03125}}})
    )
    assert main(["report"]) == 0
    mix = json.loads(Path("metrics/summary/mix.json").read_text())
    assert mix == {"n": 3, "failed": 0, "ttft_p50": 0.1235, "itl_p50": 0.0312}


def test_report_timings_come_from_the_journal(scored_project: Path) -> None:
    """Timings are not in scored.jsonl; the report joins them from the journal that DVC pulls,
    so a fresh clone reports them without the local timings.jsonl."""
    assert "latency_s" not in Path("results/math/scored.jsonl").read_text()
    assert main(["report"]) == 0
    expected = "Latency of 3 successful requests: p50 2.000 s, p90 2.800 s, max 3.000 s."
    first = Path("report.md").read_bytes()
    assert expected in first.decode()
    Path("results/math/timings.jsonl").unlink()
    assert main(["report"]) == 0
    assert Path("report.md").read_bytes() == first


def test_markdown_has_tables_failures_and_error_analysis(scored_project: Path) -> None:
    assert main(["report"]) == 0
    md = Path("report.md").read_text()
    assert md.startswith(
        "# Inference Atlas report\n\n## Run\n\nModel `tiny-model` revision `rev-42`. Decoding of "
        'all its workloads: `{"max_tokens": 16, "temperature": 0.0}`.\n\n| workloads |\n|---|\n'
        "| math, mix, lc |\n\n## Summary\n"
    )
    assert (
        "| math | eval-tiny-v1 | eval | 4 | 2 | 50.0 % | 50.0 % | 15.0 % – 85.0 % | 28.9 pts | 1 |"
        in md
    )
    assert "| mix | prompts-tiny-v1 | prompts | 3 | — | — | — | — | — | 0 |" in md
    # sample variance of (1, 0, 0, 1) is 1/3: se = sqrt(1/12) = 28.9 points over 4 clusters
    assert "Cluster-robust standard error 28.9 points over 4 clusters (95 % interval" in md
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
def test_a_failed_report_keeps_the_previous_one(
    scored_project: Path, capsys: pytest.CaptureFixture[str], missing: str, message: str
) -> None:
    assert main(["report"]) == 0
    outputs = [Path("report.md"), Path("report.html"), *sorted(Path("metrics").rglob("*.json"))]
    before = {p: p.read_bytes() for p in outputs if p.name != Path(missing).name}
    Path(missing).unlink()
    assert main(["report"]) == 2
    assert message in capsys.readouterr().err
    assert {p: p.read_bytes() for p in before} == before
    assert not list(Path(".").rglob("*.tmp"))


def test_optional_inputs_may_be_absent(scored_project: Path) -> None:
    Path("metrics/check.json").unlink()
    Path("metrics/mix.serving.json").unlink()
    assert main(["report"]) == 0
    assert "Corpus check" not in Path("report.md").read_text()
    assert "Serving metrics" not in Path("report.md").read_text()


def test_stale_headlines_are_removed(scored_project: Path) -> None:
    stale = Path("metrics/summary/gone.json")
    stale.parent.mkdir(parents=True)
    stale.write_text("{}")
    assert main(["report"]) == 0
    assert not stale.exists()


def test_a_render_failure_writes_nothing(
    scored_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15: the last good report survives a report that breaks half-way."""
    from stages.report import run

    assert main(["report"]) == 0
    before = {p: p.read_bytes() for p in [Path("report.md"), *Path("metrics").rglob("*.json")]}
    Path("metrics/math.json").write_text(
        Path("metrics/math.json").read_text().replace('"accuracy": 0.5', '"accuracy": 0.75')
    )

    def broken(*args: object) -> str:
        raise RuntimeError("html renderer broke")

    monkeypatch.setattr(run, "render_html", broken)
    with pytest.raises(RuntimeError, match="html renderer broke"):
        run.run_report()
    after = {p: p.read_bytes() for p in before}
    assert after == {**before, Path("metrics/math.json"): after[Path("metrics/math.json")]}
    assert after[Path("metrics/math.json")] != before[Path("metrics/math.json")]
