"""``haystack_failures``: every recorded haystack fact is re-verified by rebuilding the document,
for haystack-v1 (own build.py, static files) and for eval rows carrying meta.haystack."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from stages.datasets.haystack_check import haystack_failures

REPO = Path(__file__).resolve().parents[2]
SMALL = 4  # the 1k rows: rebuilding them keeps these tests fast


def _copy(tmp_path: Path, dataset_id: str, rows: int) -> Path:
    """A copy of a committed dataset holding only its first ``rows`` rows."""
    source, target = REPO / "datasets" / dataset_id, tmp_path / "datasets" / dataset_id
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("static"))
    kept = _rows(target)[:rows]
    _write(target, kept)
    for row in kept:
        if row.get("static_file"):
            (target / "static").mkdir(exist_ok=True)
            shutil.copy(source / row["static_file"], target / row["static_file"])
    return target


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (path / "rows.jsonl").read_text("utf-8").splitlines()]


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    (path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")


@pytest.fixture
def haystack(tmp_path: Path) -> Path:
    return _copy(tmp_path, "haystack-v1", SMALL)


@pytest.fixture
def longctx(tmp_path: Path) -> Path:
    _copy(tmp_path, "haystack-v1", 0)
    return _copy(tmp_path, "eval-longctx-v1", 6)


def test_committed_haystack_datasets_verify() -> None:
    assert haystack_failures(REPO / "datasets" / "haystack-v1") == []
    assert haystack_failures(REPO / "datasets" / "eval-longctx-v1") == []


def test_other_datasets_are_not_haystack_datasets() -> None:
    assert haystack_failures(REPO / "datasets" / "eval-math-v1") == []


def test_clean_copies_pass(haystack: Path, tmp_path: Path) -> None:
    assert haystack_failures(haystack) == []
    # eval rows rebuild with the sibling haystack-v1/build.py
    assert haystack_failures(_copy(tmp_path, "eval-longctx-v1", 6)) == []


def test_wrong_digest_and_sizes_are_reported(haystack: Path) -> None:
    rows = _rows(haystack)
    rows[1]["sha256"] = "0" * 64
    rows[2]["chars"] += 1
    _write(haystack, rows)
    failures = haystack_failures(haystack)
    assert len(failures) == 2
    assert failures[0].startswith(
        f"{haystack / 'rows.jsonl'}:2: row hay-1k-d50: sha256: recorded '000"
    )
    assert (
        f":3: row hay-1k-d90: chars: recorded {rows[2]['chars']}, rebuilt {rows[2]['chars'] - 1}"
        in failures[1]
    )


def test_changed_recipe_no_longer_matches_its_digest(haystack: Path) -> None:
    rows = _rows(haystack)
    rows[0]["seed"] += 1
    _write(haystack, rows)
    (failure,) = [f for f in haystack_failures(haystack) if "sha256" in f]
    assert ":1: row hay-1k-d10: sha256: recorded" in failure


def test_moved_needle_line_is_reported(haystack: Path) -> None:
    rows = _rows(haystack)
    recorded = [n["line_number"] for n in rows[3]["needles"]]
    rows[3]["needles"][0]["line_number"] += 1
    _write(haystack, rows)
    (failure,) = haystack_failures(haystack)
    shifted = [recorded[0] + 1, *recorded[1:]]
    assert failure.endswith(f"needles.line_number: recorded {shifted}, rebuilt {recorded}")


def test_static_file_with_an_extra_newline_or_missing_is_reported(haystack: Path) -> None:
    with (haystack / "static" / "hay-1k-d10.txt").open("a", encoding="utf-8") as handle:
        handle.write("\n")
    (haystack / "static" / "hay-1k-d50.txt").unlink()
    failures = haystack_failures(haystack)
    assert [f.split(": ", 2)[-1] for f in failures] == [
        "static_file: static/hay-1k-d10.txt is not the rebuilt document plus one newline",
        "static_file: static/hay-1k-d50.txt does not exist",
    ]


def test_haystack_dataset_without_builder_fails(haystack: Path) -> None:
    (haystack / "build.py").unlink()
    assert haystack_failures(haystack) == [
        f"{haystack}: build.py: no haystack builder to rebuild the documents"
    ]


def test_longctx_row_with_document_in_prompt_or_wrong_digest_fails(longctx: Path) -> None:
    rows = _rows(longctx)
    rows[0]["prompt"] = "Some text.\n\n" + rows[0]["prompt"]
    rows[1]["meta"]["haystack"]["sha256"] = "f" * 64
    del rows[2]["meta"]["haystack"]["sha256"]
    _write(longctx, rows)
    failures = haystack_failures(longctx)
    assert [f.split(": ", 2)[-1].split(":")[0] for f in failures] == ["prompt", "sha256", "sha256"]
    assert failures[2].endswith("sha256: missing, so the document cannot be verified")


def test_longctx_without_any_builder_fails(longctx: Path) -> None:
    shutil.rmtree(longctx.parent / "haystack-v1")
    assert haystack_failures(longctx) == [
        f"{longctx}: build.py: no haystack builder to rebuild the documents"
    ]


def test_builder_that_raises_is_a_failure_not_a_crash(haystack: Path) -> None:
    (haystack / "build.py").write_text("def build(item):\n    raise ValueError('boom')\n")
    failures = haystack_failures(haystack)
    assert len(failures) == SMALL and failures[0].endswith("rebuild failed: ValueError: boom")
