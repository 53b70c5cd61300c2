"""The Kouman run report: per-track scores with their own rates, chrF++ as a labelled secondary
figure over adjudicated items, agreement, run settings, error analysis, and a total that is only
shown under its components (spec 000, "Run report")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sacrebleu.metrics import CHRF

from stages.cli import main
from stages.review.kouman import kouman_report

ADJUDICATION = {"identity-0002": 1, "translation-0003": 4}
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
    "translation-0004": ("2", "1"),
}


def run_study(fill: Any) -> None:
    journal = Path("results/translation/responses.jsonl")
    journal.write_text(
        journal.read_text().replace('"output": "Merci."', '"output": "Merci beaucoup"')
    )
    assert main(["review", "export", "--study", "demo"]) == 0
    key = json.loads(Path("results/review/demo/key.json").read_text())
    rows = {b: i["row_id"] for b, i in key["items"].items()}
    for index, reviewer in enumerate(("ana", "ben")):

        def label(blind: str, field: str, index: int = index) -> str:
            if field == "score":
                return SCORES[rows[blind]][index]
            if field == "premise":
                return "corrected" if rows[blind] == "identity-0005" else "accepted"
            return "yes" if rows[blind] == "identity-0006" else "no"

        fill(Path(f"review/verdicts/demo/{reviewer}.pass1.json"), label)
    decisions = [
        {"id": b, "field": "score", "label": ADJUDICATION[r], "why": "adjudicated"}
        for b, r in rows.items()
        if r in ADJUDICATION
    ]
    Path("review/verdicts/demo/adjudication.pass1.json").write_text(
        json.dumps({"study": "demo", "pass": 1, "adjudicator": "cy", "decisions": decisions})
    )
    # translation-0004 stays split (2 vs 1): unresolved, out of every figure.
    assert main(["review", "import", "--study", "demo"]) == 0


def test_kouman_report_components_rates_and_secondary_chrf(
    review_project: Path, fill: Any, no_lists: Any
) -> None:
    run_study(fill)
    report = kouman_report(
        "demo", out=Path("report-kouman.md"), metrics_path=Path("metrics/kouman.json")
    )
    metrics = report.metrics
    identity = metrics["tracks"]["identity"]
    assert identity["review"]["score"]["mean"] == pytest.approx(round(8 / 6, 6))
    assert identity["false_premise_correction_rate"] == 0.5
    assert identity["unsupported_claim_fabrication_rate"] == pytest.approx(round(1 / 6, 6))
    translation = metrics["tracks"]["translation"]
    assert translation["review"]["score"]["mean"] == pytest.approx(11 / 3, abs=1e-6)
    assert translation["review"]["score"]["unresolved"] == 1
    chrf = translation["chrf_pp_secondary"]
    assert chrf["fr-en"] == {"chrf_pp": 100.0, "items": 2, "signature": chrf["fr-en"]["signature"]}
    # en-fr: only translation-0002 ("Bonjour.") is final; translation-0004 is unresolved.
    assert chrf["en-fr"]["items"] == 1
    assert chrf["en-fr"]["chrf_pp"] == round(
        CHRF(word_order=2).corpus_score(["Bonjour"], [["Bonjour"]]).score, 2
    )
    components = metrics["total"]["components"]
    assert components == {"identity": round(8 / 12, 4), "translation": round(11 / 12, 4)}
    assert metrics["total"]["value"] == round((round(8 / 12, 4) + round(11 / 12, 4)) / 2, 4)
    assert metrics["unresolved"] == 1

    text = Path("report-kouman.md").read_text()
    assert "**DEMO DATA.**" in text
    assert (
        "| identity | 6 | 1.33 | 0–2 review | false-premise correction 50.0 % (n=2); "
        "unsupported-claim fabrication 16.7 % (n=6) |" in text
    )
    assert (
        "| translation fr-en | 2 | 4.00 | 0–4 review | chrF++ 100.0 (secondary, after "
        "adjudication) |" in text
    )
    assert "| total (components: identity 0.667, translation 0.917) |" in text
    run = "## Run\n\nModel `SmolLM2-135M-Instruct-Q4_1` revision `deadbeef`:\n\n"
    decoding = "decoding max_tokens=64, seed=0, temperature=0.0, top_p=1.0"
    assert (
        f"{run}- **identity**: {decoding}; run `aaaaaaaaaaaa`\n"
        f"- **translation**: {decoding}; run `aaaaaaaaaaaa`\n\n## Scores" in text
    )  # the model and revision once, not once per track
    assert "1 disagreement(s) await adjudication" in text
    assert "score 0 by category: false_premise 1" in text
    assert "false premises accepted about: name (1)" in text
    saved = json.loads(Path("metrics/kouman.json").read_text())
    assert saved["total"] == metrics["total"]
    assert no_lists(saved) == []
    assert no_lists(json.loads(Path("metrics/review.demo.json").read_text())) == []


def test_report_needs_the_import_first(
    review_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from stages.errors import AtlasError

    with pytest.raises(AtlasError, match="run `atlas review import --study demo` first"):
        kouman_report("demo")


def test_general_knowledge_accuracy_by_subject(
    review_project: Path, fill: Any, journal: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys
    import types

    from stages.review.importer import import_dataset

    source = Path("gk.jsonl")
    records = [
        {"subject": s, "question": f"Q{n}?", "choices": ["a", "b", "c"], "answer": n % 3}
        for n, s in enumerate(["art"] * 4 + ["law"] * 2)
    ]
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    import_dataset(source, "eval-gk-v1", sample=6, seed=1, origin="tests", revision="r1")
    params = Path("params.yaml")
    params.write_text(params.read_text() + "  gk:\n    dataset: eval-gk-v1\n")
    study = Path("review/studies/demo.yaml")
    study.write_text(study.read_text() + "general: {workload: gk}\n")
    rows = [json.loads(x) for x in Path("datasets/eval-gk-v1/rows.jsonl").read_text().splitlines()]
    # Right on every art item but the first, wrong on every law item.
    art = [r["id"] for r in rows if r["meta"]["subject"] == "art"]
    outputs = {r["id"]: r["answer"] if r["id"] in art[1:] else "Z" for r in rows}
    journal("gk", outputs)
    fake = types.ModuleType("stages.scoring.registry")

    def score_row(row: dict[str, Any], response: dict[str, Any], _dir: Path) -> Any:
        return types.SimpleNamespace(correct=response["output"] == row["answer"])

    fake.score_row = score_row  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "stages.scoring.registry", fake)
    run_study(fill)
    metrics = kouman_report("demo", out=Path("k.md"), metrics_path=Path("k.json")).metrics
    general = metrics["general"]
    assert general["items"] == 6 and general["accuracy"] == 0.5
    assert general["by_subject"] == {
        "art": {"items": 4, "accuracy": 0.75},
        "law": {"items": 2, "accuracy": 0.0},
    }
    assert general["sample"]["sample_seed"] == 1 and general["sample"]["origin"] == "tests"
    assert metrics["total"]["components"]["general"] == 0.5
    text = Path("k.md").read_text()
    run = text[text.index("## Run") : text.index("## Scores")]
    assert run.count("revision `deadbeef`") == 1  # the general run is grouped with the tracks
    assert "- **general**: decoding max_tokens=64, seed=0, temperature=0.0, top_p=1.0" in run
    assert "different model or decoding settings" not in run
    assert "| general knowledge | 6 | 0.500 | accuracy (mc) | fixed sample" in text
    assert "| art | 4 | 0.750 |" in text and "Keep it apart from any full-benchmark result." in text


def test_run_section_names_each_model_revision_once() -> None:
    from stages.review.kouman_md import run_lines

    def run(name: str, key: str, max_tokens: int) -> dict[str, Any]:
        model = {"name": name, "revision": "r1"}
        return {"model": model, "decoding": {"max_tokens": max_tokens}, "run_key": key * 64}

    runs = {"identity": run("m", "a", 128), "translation": run("m", "b", 96)}
    runs["general"] = run("other", "c", 16)
    assert run_lines(runs, {"identity", "translation"}) == [
        "Model `m` revision `r1`:",
        "",
        "- **identity**: decoding max_tokens=128; run `aaaaaaaaaaaa`",
        "- **translation**: decoding max_tokens=96; run `bbbbbbbbbbbb`",
        "",
        "Model `other` revision `r1`:",
        "",
        "- **general**: decoding max_tokens=16; run `cccccccccccc`",
        "",
        "The tracks were run with different model or decoding settings.",
        "",
    ]
