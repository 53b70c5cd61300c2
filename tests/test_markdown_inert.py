"""Model text in report.md and compare.md is inert in a CommonMark renderer (issue 31): before,
one report.md rendered 16 live ``<script>`` and 10 ``<img onerror>``. Hostile strings (see
``tests/markdown_check.py``) go into every place these files quote outside text: an answer's
extraction, the scorer's reason, the gold answer and prompt excerpt of a wrong item, the model
name, a failed record, a server's fingerprint in a warning, both answers of a flip. Rendered with
markdown-it-py, no element but the file's own appears, and each cell reads as the text itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from stages.compare import flips as flip_views
from stages.compare import render as compare_render
from stages.compare.revisions import Revision
from stages.compare.run import Comparison
from stages.report.inputs import WorkloadInputs
from stages.report.markdown import render_markdown
from tests.markdown_check import cells, folded, hostile_text, live

RELAXED = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _workload(extracted: str, why: str, gold: str, prompt: str, model: str) -> WorkloadInputs:
    scored = [
        {"id": "q-1", "repeat": 0, "scorer": "exact", "correct": False, "failed": None,
         "extracted": extracted, "why": why, "gold": gold, "prompt_excerpt": prompt},
    ]  # fmt: skip
    metrics = {"kind": "eval", "n": 1, "correct": 0, "failed": 0, "accuracy": 0.0}
    manifest = {"model": {"name": model, "revision": "r1"}, "decoding": {"temperature": 0.0},
                "dataset": {"id": "eval-t-v1"}}  # fmt: skip
    return WorkloadInputs("w", metrics, manifest, scored, None)


@RELAXED
@given(extracted=hostile_text, why=hostile_text, gold=hostile_text, prompt=hostile_text,
       model=hostile_text)  # fmt: skip
def test_report_md_quotes_model_text_inertly(
    extracted: str, why: str, gold: str, prompt: str, model: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)  # no audit or check files: only the workload's sections
    markdown = render_markdown([_workload(extracted, why, gold, prompt, model)], None)
    assert live(markdown) == []
    shown = cells(markdown)
    error_row = shown[shown.index("q-1") : shown.index("q-1") + 5]
    assert error_row == ["q-1", folded(prompt), folded(gold), folded(extracted), folded(why)]


def _comparison(warning: str, model: str) -> Comparison:
    result = Comparison(Revision("HEAD~1", "a" * 40), Revision("HEAD", "b" * 40))
    result.warnings = [f"provenance differs: [('http://h/v1', None, {warning!r})] (w)"]
    result.runs = {f"{model} @ r1 -> {model} @ r2": ["w"]}
    return result


@RELAXED
@given(a=hostile_text, b=hostile_text, gold=hostile_text, prompt=hostile_text,
       fingerprint=hostile_text)  # fmt: skip
def test_compare_md_quotes_model_text_inertly(
    a: str, b: str, gold: str, prompt: str, fingerprint: str
) -> None:
    flip = flip_views.Flip("w", "q-1", flip_views.DOWN, prompt, gold, a, b, None, None)
    lines = flip_views.markdown_lines([flip])
    markdown = compare_render.markdown(_comparison(fingerprint, fingerprint), lines)
    assert live(markdown) == []
    shown = cells(markdown)
    row = shown[shown.index("q-1") - 1 : shown.index("q-1") + 6]
    answers = [flip_views._short(x, 60) for x in (a, b)]  # compare.md clips answers at 60
    assert row == ["w", "q-1", flip_views.DOWN, folded(gold), *answers, folded(prompt)]
