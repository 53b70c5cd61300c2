"""``atlas dataset import``: CSV, JSONL and Parquet into an external, pinned dataset with a
recorded stratified sample; every defect names the file and line (spec 000 general knowledge and
translation tracks)."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import polars as pl
import pytest

from stages.cli import main
from stages.datasets.check import run_check
from stages.datasets.load import load_dataset
from stages.datasets.registry import publish
from stages.review.importer import import_dataset
from stages.review.sources import allocate

SUBJECTS = ["astronomy"] * 6 + ["biology"] * 3 + ["chemistry"]


def mc_records() -> list[dict[str, object]]:
    return [
        {
            "subject": s,
            "question": f"Question {n} about {s}?",
            "choices": [f"opt{n}a", f"opt{n}b", f"opt{n}c", f"opt{n}d"],
            "answer": n % 4,
        }
        for n, s in enumerate(SUBJECTS)
    ]


def write_csv(path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["subject", "question", "A", "B", "C", "D", "answer"])
        for r in mc_records():
            writer.writerow([r["subject"], r["question"], *r["choices"], "ABCD"[r["answer"]]])


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "datasets").mkdir()
    return tmp_path


def rows_of(dataset_id: str) -> list[dict[str, object]]:
    return load_dataset(dataset_id).rows


def test_allocation_is_proportional_with_named_tie_breaks() -> None:
    # 5 of 6/3/1: exact 3, 1.5, 0.5; the spare item goes to the first of the tied remainders.
    assert allocate({"astronomy": 6, "biology": 3, "chemistry": 1}, 5) == {
        "astronomy": 3,
        "biology": 2,
        "chemistry": 0,
    }
    assert allocate({"a": 1, "b": 1}, 2) == {"a": 1, "b": 1}


def test_csv_import_samples_by_subject_and_records_provenance(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = root / "mmlu.csv"
    write_csv(source)
    args = [
        "dataset",
        "import",
        str(source),
        "--id",
        "eval-mmlu5-v1",
        "--sample",
        "5",
        "--seed",
        "3",
        "--origin",
        "hendrycks/test",
        "--revision",
        "abc123",
        "--licence",
        "MIT",
    ]
    assert main(args) == 0
    assert "imported" in capsys.readouterr().out
    dataset = load_dataset("eval-mmlu5-v1")
    card = dataset.card
    assert card.external and card.generator is None and card.rows == 5
    assert card.source is not None
    assert card.source.sha256 == hashlib.sha256(source.read_bytes()).hexdigest()
    assert (card.source.origin, card.source.revision, card.source.licence) == (
        "hendrycks/test",
        "abc123",
        "MIT",
    )
    assert card.source.sample_seed == 3 and card.default_scorer == "mc"
    subjects = [r["meta"]["subject"] for r in dataset.rows]
    assert sorted(subjects) == ["astronomy"] * 3 + ["biology"] * 2
    assert subjects[:2] == ["astronomy", "biology"]  # strata interleaved for quick runs
    first = dataset.rows[0]
    n = first["meta"]["source_index"]
    assert first["answer"] == "ABCD"[n % 4] and first["scorer"] == "mc"
    assert f"A. opt{n}a\nB. opt{n}b" in first["prompt"]

    import_dataset(source, "eval-mmlu5-v2", sample=5, seed=3)
    assert rows_of("eval-mmlu5-v2") == dataset.rows  # same file, same seed: same sample
    publish("eval-mmlu5-v1")
    report = run_check(25, regenerate_all=True)
    assert report.failures == [] and report.rows["eval-mmlu5-v1"] == 5


def test_jsonl_and_parquet_give_the_same_rows(root: Path) -> None:
    jsonl = root / "mc.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in mc_records()))
    parquet = root / "mc.parquet"
    pl.DataFrame(mc_records()).write_parquet(parquet)
    import_dataset(jsonl, "eval-mcj-v1", sample=4, seed=9)
    import_dataset(parquet, "eval-mcj-v2", sample=4, seed=9)
    assert rows_of("eval-mcj-v1") == rows_of("eval-mcj-v2")
    assert load_dataset("eval-mcj-v2").card.source.file == "mc.parquet"  # type: ignore[union-attr]


def test_import_errors_name_file_and_line_and_leave_nothing(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = root / "bad.jsonl"
    records = mc_records()
    records[2]["answer"] = "Z"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["dataset", "import", str(source), "--id", "eval-bad-v1", "--sample", "10"]) == 2
    assert f"{source}:3: answer: 'Z' is not an index, letter or choice text" in (
        capsys.readouterr().err
    )
    assert list(Path("datasets").iterdir()) == []  # no dataset, no temporary directory
    records[2]["answer"] = 1
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["dataset", "import", str(source), "--id", "eval-bad-v1"]) == 2
    assert "cannot draw 300 items from 10" in capsys.readouterr().err
    import_dataset(source, "eval-bad-v1", sample=10)
    assert main(["dataset", "import", str(source), "--id", "eval-bad-v1", "--sample", "2"]) == 2
    assert "already exists; an import never overwrites" in capsys.readouterr().err


def test_translation_pairs_keep_references_variants_and_notes(root: Path) -> None:
    source = root / "pairs.csv"
    source.write_text(
        "direction,source,references,variants,note\n"
        'fr-bci,Bonjour.,"[""Akwaba.""]","[""Akwaba o.""]",Baoulé of Bouaké; Latin script\n'
        "bci-fr,Akwaba.,Bienvenue.,,\n"
    )
    import_dataset(source, "eval-baoule-v1", kind="translation", licence="CC-BY-4.0")
    rows = rows_of("eval-baoule-v1")
    first, second = rows
    assert first["answer"] == ["Akwaba.", "Akwaba o."] and first["scorer"] == "chrf"
    assert first["meta"]["direction"] == "fr-bci" and first["category"] == "fr-bci"
    assert first["meta"]["dialect_note"] == "Baoulé of Bouaké; Latin script"
    assert first["prompt"].startswith("Translate the following French text into Baoulé.")
    assert second["answer"] == ["Bienvenue."] and second["meta"]["variants"] == []
    card = load_dataset("eval-baoule-v1").card
    assert card.source is not None and card.source.sample_seed is None
    bad = root / "bad.csv"
    bad.write_text("direction,source,references\nfrench,Bonjour.,Hello.\n")
    with pytest.raises(Exception, match=r"bad.csv:2: direction: expected '<source>-<target>'"):
        import_dataset(bad, "eval-bad-v1", kind="translation")
