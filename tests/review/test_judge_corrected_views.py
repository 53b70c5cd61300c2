"""Where the corrected judge figure is shown (issue 34): beside the κ gate in the Kouman report and
in the notes and ``--json`` of ``atlas compare``, from the ``corrected`` block that ``atlas judge``
writes into ``metrics/<w>.judge.json``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from stages.cli import main
from stages.judge.corrected import corrected_block
from stages.review.kouman_md import render_markdown

CALIBRATION = {
    "status": "calibrated",
    "reason": None,
    "resolved": 50,
    "kappa_quadratic": {"value": 0.8, "reason": None, "items": 50},
    "confusion": {"0": {"0": 18, "1": 2, "unparsed": 0}, "1": {"0": 3, "1": 27, "unparsed": 0}},
}
BLOCK = corrected_block(CALIBRATION, ["0", "1"], ["0"] * 1600 + ["1"] * 2400, 0.1)


def judge_entry(corrected: dict[str, Any] | None, status: str = "calibrated") -> dict[str, Any]:
    """A track's ``judge`` entry of metrics/kouman.json."""
    return {
        "status": status, "withheld": None if status == "calibrated" else "κ 0.2 < min_kappa 0.6",
        "provisional": True, "prompt": "rubric-judge-1", "judges": ["big"], "items": 4050,
        "unparsed": 0, "mean": 0.6, "groups": {}, "human_groups": {}, "corrected": corrected,
        "calibration": {"study": "s", "demo": False, "resolved": 50, "unparsed": 0,
                        "exact_agreement": 0.9, "reason": None, "kappa_quadratic": 0.8,
                        "bias": -0.02},
    }  # fmt: skip


def metrics(judge: dict[str, Any]) -> dict[str, Any]:
    review = {"items": 50, "score": {"mean": 0.62, "scale_max": 1.0}}
    return {
        "study": "s", "demo": False, "runs": {}, "general": None, "unresolved": 0,
        "tracks": {"facts": {"review": review, "judge": judge}},
        "total": {"value": 0.62, "formula": "mean", "components": {"facts": 0.62}},
    }  # fmt: skip


def test_the_report_shows_corrected_beside_uncorrected_and_the_kappa() -> None:
    ci = BLOCK["ci95"]
    report = render_markdown(metrics(judge_entry(BLOCK)), {})
    cell = f"0.62 [{ci['low']:.2f}, {ci['high']:.2f}]"
    row = f"| facts | 0.62 | 0.60 | {cell} | 0.800 | 50 | 0 | -0.02 | big, prompt rubric-judge-1 |"
    assert row in report
    raw = BLOCK["uncorrected"]["ci95"]
    assert (
        f"- **facts** judge corrected {cell} beside uncorrected 0.60 [{raw['low']:.2f}, "
        f"{raw['high']:.2f}] on 4000 judge-only item(s), judge error from 50 calibration item(s); "
        "287 human labels (237 more) for a 95 % interval 0.10 wide" in report
    )


def test_the_report_withholds_both_figures_with_the_reason() -> None:
    withheld = {**BLOCK, "status": "withheld", "reason": "κ 0.2 < min_kappa 0.6"}
    report = render_markdown(metrics(judge_entry(withheld, status="withheld")), {})
    assert "| facts | 0.62 | withheld | withheld | 0.800 |" in report
    assert (
        "- **facts** judge withheld, uncorrected and corrected figures alike: "
        "κ 0.2 < min_kappa 0.6" in report
    )


def git(*args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        check=True, capture_output=True,
    )  # fmt: skip


def _revision(doc: dict[str, Any], grades: list[str], message: str) -> None:
    Path("metrics/verdicts").mkdir(parents=True, exist_ok=True)
    Path("metrics/facts.judge.json").write_text(json.dumps(doc))
    lines = [
        {"id": f"q{i}", "repeat": 0, "cluster": f"q{i}", "correct": None, "failed": None,
         "score": float(g), "measure": "judge", "scale": [0.0, 1.0], "grade": g}
        for i, g in enumerate(grades)
    ]  # fmt: skip
    text = "".join(json.dumps(line) + "\n" for line in lines)
    Path("metrics/verdicts/facts.judge.jsonl").write_text(text)
    git("add", "metrics")
    git("commit", "-qm", message)


def test_compare_notes_the_gate_and_the_corrected_figure_of_each_revision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    git("init", "-q")
    signature = {"dataset": {"id": "facts-v1", "sha256": "ab" * 32}, "judge": {"prompt": {}}}
    old = {"signature": signature, "calibration": CALIBRATION, "withheld": None}
    _revision(old, ["0", "1"] * 20, "A: judged before issue 34")
    new = {**old, "corrected": BLOCK}
    _revision(new, ["1", "1", "0", "1"] * 10, "B: judged with the correction")
    capsys.readouterr()
    assert main(["compare", "HEAD~1", "HEAD"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert (
        "facts.judge judge at A: κ 0.800 on 50 calibration item(s); corrected figure: not "
        "computed (judge metrics written before it existed)" in out
    )
    assert "facts.judge judge at B: κ 0.800 on 50 calibration item(s); corrected 0.62 [" in out
    assert "287 human labels (237 more) for a 95 % interval 0.10 wide" in out
    assert main(["compare", "HEAD~1", "HEAD", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["judge_corrected"] == {"facts.judge": {"a": None, "b": BLOCK}}
