"""``atlas report`` shows answers that ran out while thinking (issue 33): an ``exhausted``
column in the summary table and a sentence per workload, in report.md and report.html; a report
of runs that never ran out keeps its table."""

from __future__ import annotations

import json
from pathlib import Path

from stages.cli import main
from stages.scoring.stage import score_workload
from tests.report.conftest import RK, fake_score

HEADER = (
    "| workload | dataset | kind | n | correct | accuracy | flexible | 95 % CI | clustered SE | "
    "failed |"
)


def _run_out(workload: str, item: str) -> None:
    """Make ``item`` run out inside its thinking, then score its workload again."""
    journal = Path(f"results/{workload}/responses.jsonl")
    line = {"run_key": RK, "id": item, "repeat": 0, "error": None,
            "output": "<think>first, 2 + 2", "finish_reason": "length"}  # fmt: skip
    journal.write_text(journal.read_text() + json.dumps(line) + "\n")
    score_workload(workload, fake_score, {"exact": "exact-test"})


def test_no_column_where_nothing_ran_out(scored_project: Path) -> None:
    assert main(["report"]) == 0
    md = Path("report.md").read_text()
    assert HEADER + "\n" in md and "exhausted" not in md.lower()


def test_the_summary_and_the_workload_say_how_many_ran_out(scored_project: Path) -> None:
    _run_out("math", "m-2")  # it answered "5" (wrong); now its thinking never ended
    _run_out("mix", "p-3")  # a serving workload counts them too
    assert main(["report"]) == 0
    md = Path("report.md").read_text()
    assert HEADER + " exhausted |\n" in md
    assert (
        "| math | eval-tiny-v1 | eval | 4 | 2 | 50.0 % | 50.0 % | 15.0 % – 85.0 % | 28.9 pts | 1 "
        "| 1 (25.0 %) |" in md
    )
    assert "| mix | prompts-tiny-v1 | prompts | 3 | — | — | — | — | — | 0 | 1 (33.3 %) |" in md
    assert "| lc | eval-lc-v1 | eval | 4 | 3 | 75.0 % |" in md and " | 1 | 0 |\n" in md
    sentence = (
        "Exhausted while thinking: **25.0 %** (1/4 records) ran out of tokens before any answer "
        "text; counted apart from wrong answers and failed requests, and never correct "
        "(accuracy keeps them in its denominator)."
    )
    assert sentence in md
    page = Path("report.html").read_text()
    assert "<th>exhausted</th>" in page and "1 (25.0 %)" in page
    assert sentence.replace("**", "") in page
