"""The offline HTML review sheet, read as bytes: one per reviewer and pass, self-contained, and
holding nothing a reviewer must not see (issue 21). The browser tests are test_sheet_browser.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from stages.cli import main
from stages.review.rubrics import BUILTIN
from stages.review.sheet_html import label_keys

PACKAGES = Path("review/packages/demo")


def embedded_data(html: str) -> dict:
    match = re.search(r'<script type="application/json" id="sheet-data">(.*?)</script>', html, re.S)
    assert match is not None
    return json.loads(match.group(1))


def test_label_keys_follow_the_rubric() -> None:
    fields = BUILTIN["identity-0-2"].fields
    assert label_keys(fields["score"]) == {"0": "0", "1": "1", "2": "2"}
    assert label_keys(fields["premise"]) == {"corrected": "c", "accepted": "a"}
    assert label_keys(fields["fabrication"]) == {"no": "n", "yes": "y"}
    pass1 = BUILTIN["convert-pass1"].fields["converts"]
    assert label_keys(pass1) == {"yes": "y", "no": "n", "borderline": "b"}
    clash = pass1.model_copy(update={"labels": {"good": "", "great": "", "bad": ""}})
    assert label_keys(clash) == {"good": "1", "great": "2", "bad": "3"}


def test_one_self_contained_sheet_per_reviewer_and_pass(
    review_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "export", "--study", "demo"]) == 0
    out = capsys.readouterr().out
    key = json.loads(Path("results/review/demo/key.json").read_text())
    for reviewer in ("ana", "ben"):
        sheet = PACKAGES / reviewer / "pass1.html"
        assert f"sheet: {sheet} (open it in a browser" in out
        assert sheet.stat().st_mode & 0o222 == 0
        html = sheet.read_text(encoding="utf-8")
        # Nothing to fetch: no external script, style, image, font or link of any kind.
        assert re.findall(r"""(?:src|href)\s*=\s*["'](?!#)""", html) == []
        assert "@import" not in html and "url(" not in html
        assert "default-src 'none'" in html and "connect-src 'none'" in html
        data = embedded_data(html)
        assert [item["id"] for item in data["items"]] == key["order"][reviewer]["1"]
        assert data["header"] == {
            "study": "demo",
            "reviewer": reviewer,
            "pass": 1,
            "demo": True,
            "notice": data["header"]["notice"],
            "runs": {"identity": "a" * 64, "translation": "a" * 64},
        }
        assert data["target"] == f"review/verdicts/demo/{reviewer}.pass1.json"
        by_id = {item["id"]: item for item in data["items"]}
        for blind, item in key["items"].items():
            assert by_id[blind]["fields"] == item["fields"]["1"]
        assert set(data["rubrics"]) == {"Identity (0–2)", "Translation (0–4)"}


def test_the_sheet_holds_nothing_a_reviewer_must_not_see(review_project: Path) -> None:
    assert main(["review", "export", "--study", "demo"]) == 0
    key_text = Path("results/review/demo/key.json").read_text()
    key = json.loads(key_text)
    html = (PACKAGES / "ana" / "pass1.html").read_bytes()
    assert re.findall(rb"\bben\b", html) == []  # the other reviewer
    assert b"key.json" not in html and b"results/review" not in html
    for item in key["items"].values():
        assert item["row_id"].encode() not in html  # row ids map blind ids back
        assert item["key"].encode() not in html
    assert b"STALE OTHER MODEL" not in html  # another run's answers
    assert b'"seed"' not in html and b"20261201" not in html and b'"order"' not in html


def test_item_text_cannot_end_the_data_block(review_project: Path, journal: object) -> None:
    hostile = '</script><script>document.title="pwned"</script>{{SCRIPT}}\u2028'
    journal("translation", {f"translation-{n:04d}": hostile for n in range(1, 5)})  # type: ignore[operator]
    assert main(["review", "export", "--study", "demo"]) == 0
    html = (PACKAGES / "ana" / "pass1.html").read_text(encoding="utf-8")
    assert html.count("</script>") == 2  # the data block's and the script's own
    assert html.count('"use strict"') == 1
    responses = [
        text
        for item in embedded_data(html)["items"]
        for label, text in item["sections"]
        if label == "Response"
    ]
    assert responses.count(hostile) == 4


def test_accept_never_overwrites_other_labels_by_accident(
    review_project: Path, fill: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "export", "--study", "demo"]) == 0
    target = Path("review/verdicts/demo/ana.pass1.json")
    template = target.read_text()
    fill(target, lambda blind, field: {"score": "1", "premise": "accepted"}.get(field, "no"))  # type: ignore[operator]
    committed = target.read_text()
    other = tmp_path / "ana.pass1.json"
    other.write_text(committed.replace('"score": "1"', '"score": "2"'))
    assert main(["review", "accept", str(other), "--study", "demo"]) == 2
    err = capsys.readouterr().err
    assert f"{target}: already holds 18 label(s), 10 of them different or missing in {other}" in err
    assert target.read_text() == committed
    assert main(["review", "accept", str(other), "--study", "demo", "--replace"]) == 0
    assert target.read_text() == other.read_text() + "\n"  # a final newline is added
    # A file of another study's reviewer, or with a label outside the rubric, is refused.
    bad = tmp_path / "bad.json"
    bad.write_text(committed.replace('"score": "1"', '"score": "7"', 1))
    assert main(["review", "accept", str(bad), "--study", "demo", "--replace"]) == 2
    assert "label '7' is not in the rubric" in capsys.readouterr().err
    bad.write_text(template.replace('"reviewer": "ana"', '"reviewer": "zoe"'))
    assert main(["review", "accept", str(bad), "--study", "demo"]) == 2
    assert "'zoe', pass 1 is not a sheet of study demo" in capsys.readouterr().err
