"""The check stage: green on a good corpus, red with every problem named on a bad one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from stages.cli import main
from stages.datasets.check import run_check
from stages.datasets.registry import publish

ROWS = Path("datasets/eval-math-v1/rows.jsonl")


def _rewrite_line(
    path: Path, number: int, edit: dict[str, object] | None = None, raw: bytes | None = None
) -> None:
    lines = path.read_bytes().split(b"\n")
    if raw is not None:
        lines[number - 1] = raw
    else:
        row = json.loads(lines[number - 1])
        row.update(edit or {})
        lines[number - 1] = json.dumps(row, ensure_ascii=False).encode()
    path.write_bytes(b"\n".join(lines))


def test_clean_corpus_passes_and_writes_metrics(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert "budget:" in out and "of 25 MB" in out and "check: ok" in out
    metrics = json.loads(Path("metrics/check.json").read_text())
    assert metrics["rows"] == {"eval-math-v1": 180}
    assert metrics["failures"] == 0
    assert metrics["budget_bytes"] == 25_000_000


def test_26_mb_file_breaks_the_budget(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = Path("datasets/eval-math-v1/blob.bin")
    with big.open("wb") as handle:
        handle.truncate(26_000_000)
    assert main(["check", "--no-regen"]) == 2
    err = capsys.readouterr().err
    assert "over the 25 MB limit" in err
    assert "blob.bin: not listed in the card's files" in err


def test_one_changed_byte_in_a_published_dataset_fails(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish("eval-math-v1")
    assert main(["check"]) == 0
    data = bytearray(ROWS.read_bytes())
    data[data.index(b'"answer": "83"') + 12] = ord("4")
    ROWS.write_bytes(bytes(data))
    assert main(["check"]) == 2
    err = capsys.readouterr().err
    assert "eval-math-v1: datasets/eval-math-v1/rows.jsonl changed since publication" in err
    assert "needs a new -v2 id" in err
    assert (
        "not reproducible under PYTHONHASHSEED=1: row math-0001, field answer: "
        'committed "84", PYTHONHASHSEED=1 "83"' in err
    )
    assert "sha256 differs from the card" in err


def test_every_row_problem_is_reported_with_file_line_and_field(project: Path) -> None:
    _rewrite_line(ROWS, 2, {"difficulty": "extreme"})
    _rewrite_line(ROWS, 3, {"colour": "blue"})
    _rewrite_line(ROWS, 4, {"id": "math-0001"})
    _rewrite_line(ROWS, 5, raw=b'{"id": "math-0005", "broken": ')
    _rewrite_line(ROWS, 6, raw=b'{"id": "\xff"}')
    report = run_check(25, regenerate_all=False)
    joined = "\n".join(report.failures)
    assert f"{ROWS}:2: difficulty: Input should be 'easy', 'medium' or 'hard'" in joined
    assert f"{ROWS}:3: colour: Extra inputs are not permitted" in joined
    assert f"{ROWS}:4: id: duplicate id 'math-0001' (first on line 1)" in joined
    assert f"{ROWS}:5: invalid JSON" in joined


def test_non_utf8_row_names_file_and_line(project: Path) -> None:
    _rewrite_line(ROWS, 6, raw=b'{"id": "\xff"}')
    report = run_check(25, regenerate_all=False)
    assert any(f.startswith(f"{ROWS}:6: not UTF-8") for f in report.failures)


def test_missing_image_and_bad_card_count(project: Path) -> None:
    _rewrite_line(ROWS, 1, {"image": "images/nope.png"})
    card_path = Path("datasets/eval-math-v1/dataset.json")
    card = json.loads(card_path.read_text())
    card["rows"] = 181
    card_path.write_text(json.dumps(card))
    report = run_check(25, regenerate_all=False)
    joined = "\n".join(report.failures)
    assert f"{ROWS}: row math-0001: image: images/nope.png does not exist" in joined
    assert "rows: card says 181, rows.jsonl has 180" in joined


def test_regeneration_difference_names_row_id_and_field(project: Path) -> None:
    _rewrite_line(ROWS, 7, {"prompt": "What is 2 + 2?"})
    report = run_check(25)
    want = (
        'not reproducible under PYTHONHASHSEED=1: row math-0007, field prompt: committed "What '
        'is 2 + 2?", PYTHONHASHSEED=1 "A price of 780 rises by 27%. What is the new price?\\n\\nW...'
    )
    assert any(want in f for f in report.failures), report.failures


def test_published_dataset_removed_is_reported(project: Path) -> None:
    publish("eval-math-v1")
    shutil.rmtree("datasets/eval-math-v1")
    report = run_check(25, regenerate_all=False)
    assert report.failures == ["eval-math-v1: published dataset is missing from datasets"]


def test_params_typo_names_the_field(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path("params.yaml").write_text("check:\n  budget_mbb: 25\n", encoding="utf-8")
    assert main(["check"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "atlas: error: params.yaml: 2 problems (nothing was run):\n"
        "  params.yaml:1: check.budget_mb: missing (required)\n"
        "  params.yaml:2: check.budget_mbb: unknown key (did you mean 'budget_mb'?)\n"
    )


def test_invalid_json_in_a_published_dataset_is_a_message_with_regeneration(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 24: one changed byte making line 7 invalid JSON crashed the regeneration check
    publish("eval-math-v1")
    data = bytearray(ROWS.read_bytes())
    line_7 = data.index(b'"id": "math-0007"')
    data[line_7 - 1] = ord("[")  # the line's opening brace
    ROWS.write_bytes(bytes(data))
    assert main(["check", "--no-regen"]) == 2
    without = capsys.readouterr().err
    assert main(["check"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "JSONDecodeError" not in err
    for expected in (
        f"{ROWS}:7: invalid JSON",
        "eval-math-v1: datasets/eval-math-v1/rows.jsonl changed since publication; a published "
        "dataset is immutable, so a change needs a new -v2 id",
    ):
        assert expected in without and expected in err
    assert (
        "not reproducible under PYTHONHASHSEED=1: committed rows.jsonl line 7 is not a JSON "
        "object, PYTHONHASHSEED=1 it is" in err
    )
