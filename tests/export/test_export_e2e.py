"""``atlas export`` of runs against the loopback stub endpoint (issue 34), on the two-revision
DVC project of tests/compare/test_pipeline_e2e.py (its module fixture, reused: revision A
answers "Answer: 42", B "Answer: 7", the experiment ``my-exp`` "Answer: 13").

From the fresh clone (raw results pulled from the DVC remote, no server running) each revision
and the experiment export, and every figure reads back equal to ``metrics/<w>.json`` at that
revision; the answers are the full ones of that revision's run, taken from the journal.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from export_helpers import read_eee, read_hf

sys.path.append(str(Path(__file__).resolve().parents[1] / "compare"))
import test_pipeline_e2e as project  # noqa: E402
from test_pipeline_e2e import Pipeline  # noqa: E402

pipeline = project.pipeline  # the module fixture: the project built once for these tests too


def committed(p: Pipeline, cwd: Path, revision: str, workload: str) -> dict:
    return json.loads(p.run(cwd, f"git show {revision}:metrics/{workload}.json").stdout)


@pytest.mark.parametrize(
    ("revision", "answer", "math_accuracy"),
    [("HEAD", "Answer: 7", 20 / 30), ("HEAD~1", "Answer: 42", 4 / 30)],
)
def test_each_revision_reads_back_equal_with_its_own_answers(
    pipeline: Pipeline, tmp_path: Path, revision: str, answer: str, math_accuracy: float
) -> None:
    out = tmp_path / "eee"
    pipeline.run(pipeline.clone, f"atlas export {revision} --out {out} --model-id stub/model")
    log, records, _, _ = read_eee(out)
    results = {r.evaluation_result_id: r for r in log.evaluation_results}
    assert sorted(results) == ["code/accuracy", "math/accuracy"]  # mix is a serving workload
    for workload in ("math", "code"):
        metrics = committed(pipeline, pipeline.clone, revision, workload)
        details = results[f"{workload}/accuracy"].score_details
        assert details.uncertainty is not None
        interval = details.uncertainty.confidence_interval
        assert interval is not None and details.uncertainty.num_samples == metrics["n"]
        wilson = metrics["wilson_95"]
        assert (details.score, interval.lower, interval.upper) == (
            metrics["accuracy"],
            wilson["low"],
            wilson["high"],
        )
        mine = [r for r in records if r.evaluation_result_id == f"{workload}/accuracy"]
        assert sum(r.evaluation.score for r in mine) / len(mine) == pytest.approx(
            metrics["accuracy"], abs=5e-7
        )
    assert results["math/accuracy"].score_details.score == round(math_accuracy, 6)
    assert {r.output.raw[0] for r in records if r.output} == {answer}
    assert {r.metadata["answer_source"] for r in records if r.metadata} == {"journal"}
    # Token counts and timings come from the journal line scoring read (the run's last one).
    run_key = committed(pipeline, pipeline.clone, revision, "math")["signature"]["run_key"]
    journal = {}
    for line in (pipeline.clone / "results/math/responses.jsonl").read_text().splitlines():
        entry = json.loads(line)
        if entry["run_key"] == run_key:
            journal[entry["id"]] = entry
    math = [r for r in records if r.evaluation_result_id == "math/accuracy"]
    for record in math:
        entry = journal[record.sample_id]
        assert record.token_usage is not None and record.performance is not None
        usage = record.token_usage
        assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (
            entry["usage"]["prompt_tokens"],
            entry["usage"]["completion_tokens"],
            entry["usage"]["total_tokens"],
        )
        assert record.performance.latency_ms == round(entry["latency_s"] * 1000, 3)
    model = "stub-b" if revision == "HEAD" else "stub-a"
    assert log.model_info.name == model and log.model_info.id == "stub/model"
    # A remote endpoint: the export cannot tell how it is deployed.
    assert log.model_info.additional_details.deployment_type == "unknown"


def test_an_experiment_exports_in_both_formats(pipeline: Pipeline, tmp_path: Path) -> None:
    origin = pipeline.origin
    eee, hf = tmp_path / "eee", tmp_path / "hf"
    pipeline.run(origin, f"atlas export my-exp --out {eee}")
    pipeline.run(origin, f"atlas export my-exp --out {hf} --format hf-eval-results")
    refs = pipeline.run(origin, "git for-each-ref --format=%(refname) refs/exps").stdout.split()
    (ref,) = [r for r in refs if r.endswith("/my-exp")]  # other tests add experiments of their own
    metrics = committed(pipeline, origin, ref, "math")
    log, records, _, _ = read_eee(eee)
    (math,) = [r for r in log.evaluation_results if r.evaluation_result_id == "math/accuracy"]
    assert math.score_details.score == metrics["accuracy"] == 0.2  # "13" is right on rows 24-29
    assert log.model_info.name == "stub-c"
    (entry,) = read_hf(hf)["math.yaml"]
    assert entry["dataset"] == {"id": "inference-atlas/eval-e2e-math-v1", "task_id": "math"}
    assert entry["value"] == 20.0
