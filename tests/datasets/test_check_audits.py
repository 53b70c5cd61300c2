"""``atlas check`` with the issue-19 audits: green on a clean hand-made dataset, red on each
planted artifact, every finding named, and the audit table in ``metrics/audit.json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stages.cli import main
from stages.scoring import registry
from tests.datasets import planted
from tests.datasets.test_strength import _substring


def _clean() -> list[dict[str, object]]:
    return (
        planted.clean_mc(24, seed=1) + planted.clean_numeric(24, seed=2)
        + planted.number_words("exact") + [planted.code_row("code-001", planted.STRONG)]
    )  # fmt: skip


def test_check_passes_a_clean_dataset_and_fails_every_planted_artifact(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    planted.write(Path("datasets/eval-clean-v1"), _clean())
    assert main(["check", "--no-regen"]) == 0
    clean = json.loads(Path("metrics/audit.json").read_text())["datasets"]["eval-clean-v1"]
    assert clean["status"] == "pass"
    assert clean["mutation"]["score"] == 1.0
    assert clean["strength"]["derived"]["held"] == clean["strength"]["derived"]["tried"]
    assert clean["fresh"]["failed"]["1901"] == "generator _gen/eval-clean-v1.py not found"
    capsys.readouterr()

    artifacts = {
        "eval-centroid-v1": planted.centroid_mc(24, seed=3),
        "eval-twice-v1": planted.twice_mc(24, seed=4),
        "eval-contains-v1": planted.number_words("contains"),
        "eval-echo-v1": planted.echoing_rows(),
        "eval-mutant-v1": [planted.code_row("code-001", planted.WEAK)],
    }
    for name, rows in artifacts.items():
        planted.write(Path("datasets") / name, rows)
    # the contains scorer reads "trente et un" as its own answer (issue 30): plant a lenient one
    monkeypatch.setitem(registry.SCORERS, "contains", _substring)
    assert main(["check", "--no-regen"]) == 2
    err = capsys.readouterr().err
    for line in [
        "audit: eval-centroid-v1: mc: learned baseline 1.000 vs chance 0.250 (+75.0 pt",
        "audit: eval-twice-v1: mc: learned baseline 0.958 vs chance 0.250 (+70.8 pt",
        "audit: eval-contains-v1: derived: words-000: derived near miss 'Answer: trente et un'"
        ": strict True, flexible True",
        "audit: eval-echo-v1: echoes: echo-001: echo 'Hoje é quinta-feira.",
        "audit: eval-mutant-v1: mutation: code-001 mutant 'sums the whole matrix': survives "
        "every hidden test",
    ]:
        assert line in err
    audit = json.loads(Path("metrics/audit.json").read_text())
    assert audit["failed"] == sorted(artifacts)
    assert audit["datasets"]["eval-clean-v1"]["status"] == "pass"
    blocks = audit["datasets"]
    assert blocks["eval-centroid-v1"]["formats"]["mc"]["learned"]["margin"] == 0.75
    assert blocks["eval-mutant-v1"]["mutation"]["score"] == pytest.approx(2 / 3, abs=1e-4)
    echoes = blocks["eval-echo-v1"]["strength"]["echoes"]
    assert (echoes["tried"], echoes["held"]) == (7, 4)  # echo-001's 3 of the 7 failed


def test_lineages_read_before_to_after() -> None:
    from stages.datasets.audit import audit_rows
    from stages.datasets.audit_metrics import corpus_metrics

    before = audit_rows("eval-order-v1", planted.centroid_mc(24, seed=3), Path("."), True)
    after = audit_rows("eval-order-v2", planted.clean_mc(24, seed=1), Path("."), False)
    lineage = corpus_metrics({"eval-order-v2": after, "eval-order-v1": before})["lineages"]
    assert [line["id"] for line in lineage["eval-order"]] == ["eval-order-v1", "eval-order-v2"]
    first, second = lineage["eval-order"]
    assert (first["status"], first["learned"]["mc"]["margin"]) == ("flawed", 0.75)
    assert first["learned"]["mc"]["fails"] and not second["learned"]["mc"]["fails"]
    # 143 derived near misses and 912 adversarial ones (issue 30)
    assert second["status"] == "pass" and second["near_misses_rejected"] == "1055/1055"
    assert first["mutation_score"] is None
