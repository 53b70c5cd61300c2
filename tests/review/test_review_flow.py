"""``atlas review export`` and ``atlas review import`` on a responses study: blind sheets, the
key kept out of packages, templates never overwritten, every verdict defect named, adjudication
as its own file, 2-of-2 consensus and metrics (spec 000 review tracks)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sklearn.metrics import cohen_kappa_score

from stages.cli import main
from stages.review.keys import blind_id

VERDICTS = Path("review/verdicts/demo")
# Designed labels by row id: (ana, ben) per field.
SCORES = {
    "identity-0001": ("2", "2"),
    "identity-0002": ("1", "2"),
    "identity-0003": ("2", "2"),
    "identity-0004": ("2", "2"),
    "identity-0005": ("1", "1"),
    "identity-0006": ("0", "0"),
    "translation-0001": ("4", "4"),
    "translation-0002": ("3", "3"),
    "translation-0003": ("4", "3"),
    "translation-0004": ("2", "2"),
}
PREMISE = {"identity-0005": "corrected", "identity-0006": "accepted"}


def rows_by_blind() -> dict[str, str]:
    key = json.loads(Path("results/review/demo/key.json").read_text())
    return {b: item["row_id"] for b, item in key["items"].items()}


def fill_designed(fill: Any) -> dict[str, str]:
    rows = rows_by_blind()
    for index, reviewer in enumerate(("ana", "ben")):

        def label(blind: str, field: str, index: int = index) -> str:
            row = rows[blind]
            if field == "score":
                return SCORES[row][index]
            if field == "premise":
                return PREMISE[row]
            return "yes" if row == "identity-0006" else "no"

        fill(VERDICTS / f"{reviewer}.pass1.json", label)
    return {row: blind for blind, row in rows.items()}


def test_export_writes_key_packages_and_templates(review_project: Path) -> None:
    assert main(["review", "export", "--study", "demo"]) == 0
    key_text = Path("results/review/demo/key.json").read_text()
    key = json.loads(key_text)
    assert len(key["items"]) == 10
    for blind, item in key["items"].items():
        assert blind == blind_id("demo", 7, item["key"])
    assert key["items"][blind_id("demo", 7, "identity/identity-0005/0")]["fields"] == {
        "1": ["score", "premise", "fabrication"]
    }
    sheets = {r: Path(f"review/packages/demo/{r}/pass1.md") for r in ("ana", "ben")}
    for sheet in sheets.values():
        text = sheet.read_text()
        assert sheet.stat().st_mode & 0o222 == 0
        assert all(blind in text for blind in key["items"])
        assert "identity-00" not in text and "translation-00" not in text
        assert "STALE OTHER MODEL" not in text  # another run's records are not shown
        assert "[request failed: timeout]" in text
        assert "0 — unrelated, empty, or in the wrong language" in text.replace("`", "")
    assert sorted(key["order"]["ana"]["1"]) == sorted(key["order"]["ben"]["1"])
    assert key["order"]["ana"]["1"] != key["order"]["ben"]["1"]
    template = json.loads((VERDICTS / "ana.pass1.json").read_text())
    assert [v["id"] for v in template["verdicts"]] == key["order"]["ana"]["1"]
    assert template["runs"] == {"identity": "a" * 64, "translation": "a" * 64}

    (VERDICTS / "ana.pass1.json").write_text('{"edited": true}')
    assert main(["review", "export", "--study", "demo"]) == 0
    assert Path("results/review/demo/key.json").read_text() == key_text
    assert (VERDICTS / "ana.pass1.json").read_text() == '{"edited": true}'


def test_export_needs_every_response(
    review_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = Path("results/translation/responses.jsonl")
    lines = [ln for ln in journal.read_text().splitlines() if '"translation-0004"' not in ln]
    journal.write_text("\n".join(lines) + "\n")
    assert main(["review", "export", "--study", "demo"]) == 2
    err = capsys.readouterr().err
    assert "no response for row translation-0004 (repeat 0)" in err
    assert "atlas infer translation" in err


def test_import_names_file_line_and_item_of_every_defect(
    review_project: Path, fill: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "export", "--study", "demo"]) == 0
    blinds = fill_designed(fill)
    path = VERDICTS / "ana.pass1.json"
    data = json.loads(path.read_text())
    entries = {v["id"]: v for v in data["verdicts"]}
    entries[blinds["translation-0001"]]["score"] = 7
    entries[blinds["identity-0001"]]["premise"] = "corrected"
    data["verdicts"] = [v for v in data["verdicts"] if v["id"] != blinds["identity-0003"]]
    data["verdicts"].append({"id": "b-00000000", "score": 1})
    data["verdicts"].append(dict(entries[blinds["translation-0002"]]))
    path.write_text(json.dumps(data, indent=2))
    assert main(["review", "import", "--study", "demo"]) == 2
    err = capsys.readouterr().err
    text = path.read_text()

    def line(blind: str) -> int:
        return text[: text.index(f'"id": "{blind}"')].count("\n") + 1

    t1, i1, t2 = blinds["translation-0001"], blinds["identity-0001"], blinds["translation-0002"]
    assert "5 problem(s) in the verdicts" in err
    assert (
        f"{path}:{line(t1)}: item {t1}: score: label '7' is not in the rubric (0, 1, 2, 3, 4)"
        in err
    )
    assert f"{path}:{line(i1)}: item {i1}: premise: field is not asked for this item" in err
    assert f"{path}:{line('b-00000000')}: item b-00000000: id: unknown blind id" in err
    assert f"item {t2}: id: duplicate verdict for this item" in err
    assert f"{path}: 1 item(s) of the sheet have no verdict: {blinds['identity-0003']}" in err


def test_duplicate_json_key_and_wrong_run_are_refused(
    review_project: Path, fill: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "export", "--study", "demo"]) == 0
    fill_designed(fill)
    path = VERDICTS / "ben.pass1.json"
    good = path.read_text()
    path.write_text(good.replace('"score": "4"', '"score": "4", "score": "3"', 1))
    assert main(["review", "import", "--study", "demo"]) == 2
    assert f"{path}: duplicate key 'score'" in capsys.readouterr().err
    data = json.loads(good)
    data["runs"]["identity"] = "c" * 64
    path.write_text(json.dumps(data))
    assert main(["review", "import", "--study", "demo"]) == 2
    assert "runs.identity: the verdicts judge run cccccccccccc…" in capsys.readouterr().err


def test_adjudication_resolves_disagreements_into_metrics(
    review_project: Path, fill: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", "export", "--study", "demo"]) == 0
    blinds = fill_designed(fill)
    assert main(["review", "import", "--study", "demo"]) == 0
    assert "2 disagreement(s) await adjudication" in capsys.readouterr().out
    open_items = json.loads(Path("results/review/demo/disagreements.json").read_text())
    assert {d["id"] for d in open_items["pass1"]["decisions"]} == {
        blinds["identity-0002"],
        blinds["translation-0003"],
    }

    adjudication = VERDICTS / "adjudication.pass1.json"
    decisions = [
        {"id": blinds["identity-0002"], "field": "score", "label": 1, "why": "vague"},
        {"id": blinds["identity-0001"], "field": "score", "label": 2, "why": "x"},
    ]
    adjudication.write_text(json.dumps({"study": "demo", "pass": 1, "decisions": decisions}))
    assert main(["review", "import", "--study", "demo"]) == 2
    assert f"item {blinds['identity-0001']}: score: reviewers do not disagree here" in (
        capsys.readouterr().err
    )
    decisions[1] = {"id": blinds["translation-0003"], "field": "score", "label": 4, "why": "ok"}
    adjudication.write_text(json.dumps({"study": "demo", "pass": 1, "decisions": decisions}))
    assert main(["review", "import", "--study", "demo"]) == 0
    capsys.readouterr()

    metrics = json.loads(Path("metrics/review.demo.json").read_text())
    assert metrics["unresolved"] == 0 and metrics["demo"] is True
    identity = metrics["tracks"]["identity"]
    assert identity["score"]["mean"] == pytest.approx(round(8 / 6, 6))
    assert identity["score"]["resolved_by"] == {"adjudicated": 1, "consensus": 5}
    assert identity["premise"]["shares"] == {"corrected": 0.5, "accepted": 0.5}
    assert identity["fabrication"]["shares"]["yes"] == pytest.approx(round(1 / 6, 6))
    translation = metrics["tracks"]["translation"]
    assert translation["score"]["mean"] == 3.25
    assert translation["groups"]["fr-en"]["score"]["mean"] == 4.0
    assert translation["groups"]["en-fr"]["score"]["mean"] == 2.5
    quadratic = translation["score"]["agreement"]["cohen_quadratic"]["value"]
    expected = cohen_kappa_score(
        [4, 3, 4, 2], [4, 3, 3, 2], labels=[0, 1, 2, 3, 4], weights="quadratic"
    )
    assert quadratic == pytest.approx(expected, abs=1e-6)

    table = "results/review/demo/labels.csv"
    args = ["agreement", table, "--method", "cohen-quadratic", "--labels", "0,1,2,3,4"]
    assert main([*args, "--field", "translation.score", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == pytest.approx(expected)
