"""``atlas export HEAD`` on the project's own committed quick run (the embedded SmolLM2 run of
metrics/ at HEAD), both formats (issue 34).

Round trip: every figure read back from the export equals ``metrics/<w>.json`` at HEAD — the
score, the 95 % interval, the CR1 standard error and n — and the instance records of each
figure average to it. Structure: the export has every key the every_eval_ever repository's
example log has, but for the few named below, and (with the published JSON schemas at hand)
validates against them.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from export_helpers import (
    EXAMPLE,
    REPO,
    have_upstream,
    key_paths,
    read_eee,
    read_hf,
    upstream_dir,
    upstream_json,
)

from stages.cli import main
from stages.compare.pairs import workloads_at
from stages.compare.revisions import Revision

MODEL_ID = "HuggingFaceTB/SmolLM2-135M-Instruct"

# Key paths of the repository's 0.3.0 example log and its instance line (export_helpers.EXAMPLE,
# listed by export_helpers.key_paths; test_example_paths_are_the_example_s keeps them honest).
EXAMPLE_LOG_PATHS = {
    "detailed_evaluation_results", "detailed_evaluation_results.checksum",
    "detailed_evaluation_results.file_path", "detailed_evaluation_results.format",
    "detailed_evaluation_results.hash_algorithm", "detailed_evaluation_results.total_rows",
    "eval_library", "eval_library.name", "eval_library.version", "evaluation_id",
    "evaluation_results", "evaluation_results[].evaluation_name",
    "evaluation_results[].evaluation_result_id", "evaluation_results[].metric_config",
    "evaluation_results[].metric_config.lower_is_better",
    "evaluation_results[].metric_config.max_score", "evaluation_results[].metric_config.metric_id",
    "evaluation_results[].metric_config.metric_kind",
    "evaluation_results[].metric_config.metric_name",
    "evaluation_results[].metric_config.metric_unit",
    "evaluation_results[].metric_config.min_score",
    "evaluation_results[].metric_config.score_type", "evaluation_results[].score_details",
    "evaluation_results[].score_details.score", "evaluation_results[].source_data",
    "evaluation_results[].source_data.dataset_name",
    "evaluation_results[].source_data.source_type", "evaluation_results[].source_data.url",
    "evaluation_timestamp", "model_info", "model_info.additional_details",
    "model_info.additional_details.deployment_type",
    "model_info.additional_details.model_availability", "model_info.developer", "model_info.id",
    "model_info.name", "retrieved_timestamp", "schema_version", "source_metadata",
    "source_metadata.additional_details", "source_metadata.additional_details.source_role",
    "source_metadata.evaluator_relationship", "source_metadata.source_name",
    "source_metadata.source_organization_name", "source_metadata.source_type",
}  # fmt: skip
EXAMPLE_RECORD_PATHS = {
    "answer_attribution", "answer_attribution[].extracted_value",
    "answer_attribution[].extraction_method", "answer_attribution[].is_terminal",
    "answer_attribution[].source", "answer_attribution[].turn_idx", "evaluation",
    "evaluation.is_correct", "evaluation.score", "evaluation_id", "evaluation_name",
    "evaluation_result_id", "input", "input.formatted", "input.raw", "input.reference",
    "interaction_type", "metadata", "metadata.subject", "model_id", "output", "output.raw",
    "sample_hash", "sample_id", "schema_version", "token_usage", "token_usage.input_tokens",
    "token_usage.output_tokens", "token_usage.total_tokens",
}  # fmt: skip
NOT_EXPORTED = {
    # The datasets are generated and in git, not at a URL: source_type "other".
    "evaluation_results[].source_data.url",
    # Free-form details of the example's own.
    "source_metadata.additional_details.source_role",
    "metadata.subject",
    # The templated prompt is in no file the export reads.
    "input.formatted",
}
JOURNAL_ONLY = {
    # Token counts come from the DVC-tracked journal: absent without it (this checkout).
    "token_usage", "token_usage.input_tokens", "token_usage.output_tokens",
    "token_usage.total_tokens",
}  # fmt: skip


@pytest.fixture(autouse=True)
def _at_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # HEAD is the project's own


def export(tmp_path: Path, name: str, *args: str) -> Path:
    out = tmp_path / name
    assert main(["export", "HEAD", "--out", str(out), *args]) == 0
    return out


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The committed run exported in both formats, with prompts and without."""
    tmp = tmp_path_factory.mktemp("head")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)
        return {
            "eee": export(tmp, "eee", "--model-id", MODEL_ID),
            "prompts": export(tmp, "prompts", "-w", "math", "--with-prompts"),
            "hf": export(tmp, "hf", "--format", "hf-eval-results"),
        }


def committed() -> dict[str, dict[str, Any]]:
    """``metrics/<w>.json`` at HEAD of every eval workload with verdicts."""
    head = Revision("HEAD", Revision.of("HEAD").commit)
    found = {}
    for name in workloads_at(head):
        text = head.text(f"metrics/{name}.json") if "." not in name else None
        metrics = json.loads(text) if text else {}
        if metrics.get("kind") == "eval":
            found[name] = metrics
    return found


def expected_figures() -> dict[str, tuple[float, Any, Any, int]]:
    """result id -> (score, interval, standard error, n), from the committed metrics."""
    found = {}
    for name, m in committed().items():
        if m.get("accuracy") is not None:
            wilson, se = m["wilson_95"], m["clustered"]["se"]
            found[f"{name}/accuracy"] = (m["accuracy"], (wilson["low"], wilson["high"]), se, m["n"])
        if m.get("drop"):
            found[f"{name}/f1"] = (m["drop"]["f1"], None, None, m["drop"]["n"])
        if (m.get("secondary") or {}).get("chrf_sentence_mean") is not None:
            secondary = m["secondary"]
            found[f"{name}/chrf"] = (secondary["chrf_sentence_mean"], None, None, secondary["n"])
    return found


def test_every_committed_figure_reads_back_equal(exported: dict[str, Path]) -> None:
    log, records, _, _ = read_eee(exported["eee"])
    expected = expected_figures()
    assert len(expected) == 18  # 16 accuracies, DROP's F1 and translation's chrF++
    found = {}
    for result in log.evaluation_results:
        details, uncertainty = result.score_details, result.score_details.uncertainty
        assert uncertainty is not None and uncertainty.num_samples is not None
        interval = uncertainty.confidence_interval
        found[result.evaluation_result_id] = (
            details.score,
            None if interval is None else (interval.lower, interval.upper),
            None if uncertainty.standard_error is None else uncertainty.standard_error.value,
            uncertainty.num_samples,
        )
        assert interval is None or interval.confidence_level == 0.95
    assert found == expected
    by_result: dict[str, list[float]] = {}
    for record in records:
        by_result.setdefault(str(record.evaluation_result_id), []).append(record.evaluation.score)
    for result_id, (score, _, _, n) in expected.items():
        scores = by_result[result_id]
        assert len(scores) == n
        assert sum(scores) / n == pytest.approx(score, abs=5e-7)  # metrics keep 6 decimals


def test_the_log_names_the_run_its_model_and_engine(exported: dict[str, Path]) -> None:
    log, records, _, _ = read_eee(exported["eee"])
    assert re.fullmatch(f"inference_atlas/{MODEL_ID}/[0-9a-f]{{16}}", log.evaluation_id)
    assert {r.evaluation_id for r in records} == {log.evaluation_id}
    assert {r.model_id for r in records} == {MODEL_ID}
    assert log.model_info.developer == "HuggingFaceTB"
    math = committed()["math"]["signature"]
    details = log.model_info.additional_details
    assert (details.deployment_type, details.model_availability) == (
        "self_deployed",
        "open_weights",
    )
    assert (log.model_info.name, details.model_extra["revision"]) == (  # type: ignore[index]
        math["model"]["name"], math["model"]["revision"])  # fmt: skip
    assert log.model_info.inference_engine is not None
    assert log.model_info.inference_engine.version == "0.5.0-dev 0c1e5709"
    results = {r.evaluation_result_id: r for r in log.evaluation_results}
    math_result = results["math/accuracy"]
    assert math_result.generation_config is not None
    args = math_result.generation_config.generation_args
    assert args is not None
    assert (args.temperature, args.top_p, args.max_tokens) == (0.0, 1.0, 192)
    assert log.detailed_evaluation_results is not None
    path = log.detailed_evaluation_results.file_path
    folder = "data/inference_atlas/HuggingFaceTB/SmolLM2-135M-Instruct"
    match = re.fullmatch(rf"{folder}/(.+)_samples\.jsonl", path)
    assert match and uuid.UUID(match.group(1)).version == 4
    assert (exported["eee"] / path.replace("_samples.jsonl", ".json")).is_file()


def test_records_refer_to_items_without_their_text_unless_asked(
    exported: dict[str, Path],
) -> None:
    _, records, _, _ = read_eee(exported["eee"])
    rows = {}
    for line in (REPO / "datasets/eval-math-v4/rows.jsonl").read_bytes().splitlines():
        rows[json.loads(line)["id"]] = (line, json.loads(line))
    math = [r for r in records if r.evaluation_result_id == "math/accuracy"]
    first = math[0]
    line, row = rows[first.sample_id]
    assert first.metadata is not None
    assert first.sample_hash == first.metadata["row_sha256"] == hashlib.sha256(line).hexdigest()
    assert (first.metadata["dataset_id"], first.metadata["repeat"]) == ("eval-math-v4", "0")
    assert first.metadata["cluster"] == first.sample_id
    assert (first.input.raw, first.input.reference) == ("", [])
    assert {(r.input.raw, tuple(r.input.reference)) for r in records} == {("", ())}
    _, with_prompts, _, _ = read_eee(exported["prompts"])
    shown = with_prompts[0]
    assert (shown.input.raw, shown.input.reference) == (row["prompt"], [row["answer"]])
    verdict = json.loads((REPO / "metrics/verdicts/math.jsonl").read_text().splitlines()[0])
    assert shown.answer_attribution[0].extracted_value == verdict["extracted"]
    assert shown.answer_attribution[0].extraction_method == "numeric"


def test_the_export_has_the_example_s_structure(exported: dict[str, Path]) -> None:
    _, _, raw, data = read_eee(exported["eee"])
    assert key_paths(raw) >= EXAMPLE_LOG_PATHS - NOT_EXPORTED
    record_paths = set().union(*(key_paths(json.loads(line)) for line in data.splitlines()))
    journal = (REPO / "results/math/responses.jsonl").is_file()
    expected = EXAMPLE_RECORD_PATHS - NOT_EXPORTED - (set() if journal else JOURNAL_ONLY)
    assert record_paths >= expected


@pytest.mark.skipif(not have_upstream(), reason="no copy of the every_eval_ever files")
def test_example_paths_are_the_example_s_and_the_export_meets_the_published_schemas(
    exported: dict[str, Path],
) -> None:
    import jsonschema

    assert key_paths(upstream_json(f"{EXAMPLE}.json")) == EXAMPLE_LOG_PATHS
    line = (upstream_dir() / f"{EXAMPLE}_samples.jsonl").read_text().splitlines()[0]
    assert key_paths(json.loads(line)) == EXAMPLE_RECORD_PATHS
    _, _, raw, data = read_eee(exported["eee"])
    jsonschema.Draft7Validator(upstream_json("eval.schema.json")).validate(raw)
    instance = jsonschema.Draft7Validator(upstream_json("instance_level_eval.schema.json"))
    for text in data.splitlines():
        instance.validate(json.loads(text))


def test_hf_eval_results_hold_each_figure_as_the_hub_documents(exported: dict[str, Path]) -> None:
    files = read_hf(exported["hf"])
    expected = expected_figures()
    assert len(files) == len(expected)
    head = Revision.of("HEAD").commit
    for result_id, (score, interval, _, n) in expected.items():
        workload, measure = result_id.split("/")
        task = workload if measure == "accuracy" else f"{workload}-{measure}"
        (entry,) = files[f"{task}.yaml"]
        assert set(entry) == {"dataset", "value", "date", "notes"}
        dataset = committed()[workload]["signature"]["dataset"]["id"]
        assert entry["dataset"] == {"id": f"inference-atlas/{dataset}", "task_id": task}
        scale = 1 if measure == "chrf" else 100
        assert entry["value"] / scale == pytest.approx(score, abs=1e-12)
        assert isinstance(entry["date"], str) and entry["date"].endswith("Z")
        assert f"n={n}" in entry["notes"] and head is not None and head[:12] in entry["notes"]
        if interval is not None:
            low, high = (round(v * 100, 4) for v in interval)
            assert f"95% CI {low}-{high}" in entry["notes"]
