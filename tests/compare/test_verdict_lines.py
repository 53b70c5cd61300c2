"""Verdict lines are split at "\n" only: an answer may carry characters str.splitlines takes for
line ends (issue 34's export found `atlas compare` unable to read such a file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stages.compare.pairs import read_verdicts
from stages.compare.revisions import Revision
from tests.conftest import REPO


@pytest.mark.parametrize("odd", ["\x85", "\u2028", "\u2029", "a\u2028b\u2029c\x85"])
def test_an_answer_with_a_unicode_line_separator_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, odd: str
) -> None:
    committed = (REPO / "metrics" / "verdicts" / "math.jsonl").read_text(encoding="utf-8")
    lines = [json.loads(line) for line in committed.split("\n") if line]
    lines[0]["extracted"] = f"{lines[0]['extracted']}{odd}"
    folder = tmp_path / "metrics" / "verdicts"
    folder.mkdir(parents=True)
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    assert odd in text  # written raw, as `atlas score` writes
    (folder / "math.jsonl").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    items = read_verdicts(Revision("workspace", None), "math")
    assert items is not None and len(items) == len(lines)
    assert sorted(item.extracted for item in items.values()) == sorted(
        line["extracted"] for line in lines
    )
