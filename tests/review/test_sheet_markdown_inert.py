"""The review's reading package (``pass1.md``) quotes every model response inertly (issue 31):
hostile responses exported for real, the sheet rendered with markdown-it-py; nothing is live and
each response reads back whole, byte for byte, inside its code block."""

from __future__ import annotations

import json
from pathlib import Path

from stages.cli import main
from tests.markdown_check import live, parse, render
from tests.review.conftest import write_run

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>\n\n<svg onload=alert(1)>",
    "```\n</code></pre><script>alert(2)</script>\n```",
    "````html\n<img src=x onerror=alert(3)>\n`````",
    "[click](javascript:alert(4)) and <javascript:alert(5)>",
    "~~~\n<iframe src=javascript:alert(6)></iframe>",
]


def test_pass1_md_shows_hostile_responses_as_text(review_project: Path) -> None:
    lines = Path("datasets/eval-identity-v1/rows.jsonl").read_text().splitlines()
    rows = [json.loads(x) for x in lines][:6]
    write_run("identity", {r["id"]: text for r, text in zip(rows, HOSTILE, strict=True)})
    assert main(["review", "export", "--study", "demo"]) == 0
    for reviewer in ("ana", "ben"):
        sheet = (review_project / "review/packages/demo" / reviewer / "pass1.md").read_text()
        assert live(sheet) == []
        html = render(sheet)
        blocks = ["".join(parse(part.split("</pre>")[0]).text) for part in html.split("<pre>")[1:]]
        for text in HOSTILE:
            assert text + "\n" in blocks, (reviewer, text)
