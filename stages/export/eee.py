"""A scored run as one every_eval_ever log: the aggregate JSON and its instance-level JSONL.

One log per run (one model, every exported workload a result in it), laid out as the
every_eval_ever datastore lays it: ``data/inference_atlas/<developer>/<model>/<uuid>.json`` and
``<uuid>_samples.jsonl`` beside it. The uuid is derived from the ``evaluation_id`` (the model and
a digest of the exported metrics and verdict files), so exporting the same run twice names the
same files. docs/exporting.md maps every
field.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import dataclass
from typing import Any

from stages.compare.revisions import Revision
from stages.errors import AtlasError
from stages.export.eee_log import (
    ConfidenceInterval,
    DetailedEvaluationResults,
    EvaluationLog,
    EvaluationResult,
    GenerationArgs,
    GenerationConfig,
    ScoreDetails,
    StandardError,
    Uncertainty,
)
from stages.export.eee_models import (
    SCHEMA_VERSION,
    EvalLibrary,
    MetricConfig,
    SourceDataOther,
    SourceMetadata,
)
from stages.export.eee_records import evaluation_name, records_of
from stages.export.figures import Figure
from stages.export.model_facts import model_info, run_signature
from stages.export.run_files import ScoredWorkload

COLLECTION = "inference_atlas"
"""The datastore collection (first directory under ``data/``) of every export."""
WILSON = "Wilson score interval on the effective sample size over clusters (docs/comparing.md)"
CR1 = "cluster-robust (CR1) over item clusters; none below 20 clusters"


@dataclass(frozen=True)
class Export:
    """What ``atlas export`` was asked for."""

    revision: Revision
    workloads: list[ScoredWorkload]
    figures: list[Figure]
    model_id: str | None
    """The model in Hub form (``owner/name``); None: the name the run used."""
    with_prompts: bool
    organization: str
    """Who publishes the figures (``source_organization_name``)."""
    evaluated_at: int | None
    """When the figures were committed (Unix seconds); None for the workspace."""
    retrieved_at: int
    """When the export is made (Unix seconds)."""
    digest: str
    """sha256 of the exported metrics and verdict files (the run's identity in the log)."""


def _strings(values: dict[str, Any]) -> dict[str, str]:
    """The schema's string maps: text as it is, anything else as JSON, nothing for null."""
    return {
        k: v if isinstance(v, str) else json.dumps(v, sort_keys=True)
        for k, v in values.items()
        if v is not None
    }


def _result(figure: Figure, export: Export) -> EvaluationResult:
    signature = figure.workload.signature
    dataset, decoding = figure.workload.dataset, signature.get("decoding") or {}
    low, high = figure.interval or (None, None)
    uncertainty = Uncertainty(
        confidence_interval=None
        if low is None or high is None
        else ConfidenceInterval(lower=low, upper=high, confidence_level=0.95, method=WILSON),
        standard_error=None
        if figure.standard_error is None
        else StandardError(value=figure.standard_error, method=CR1),
        num_samples=figure.n,
    )
    source = _strings(
        {
            "sha256": dataset.get("sha256"),
            "rows": f"datasets/{dataset.get('id')}/rows.jsonl",
            "generator": f"_gen/{dataset.get('id')}.py",
            "commit": export.revision.commit,
        }
    )
    return EvaluationResult(
        evaluation_result_id=figure.result_id,
        evaluation_name=evaluation_name(figure),
        source_data=SourceDataOther(
            dataset_name=str(dataset.get("id")), source_type="other", additional_details=source
        ),
        evaluation_timestamp=None if export.evaluated_at is None else str(export.evaluated_at),
        metric_config=MetricConfig(
            evaluation_description=f"{figure.measure} of workload {figure.workload.name}",
            metric_id=figure.measure,
            metric_name=figure.measure,
            metric_kind=figure.measure,
            metric_unit="proportion" if figure.scale == (0.0, 1.0) else "points",
            lower_is_better=False,
            score_type="continuous",
            min_score=figure.scale[0],
            max_score=figure.scale[1],
            additional_details=_strings({"scorers": signature.get("scorers")}),
        ),
        score_details=ScoreDetails(
            score=figure.score, details=_strings(figure.details), uncertainty=uncertainty
        ),
        generation_config=GenerationConfig(
            generation_args=GenerationArgs(
                temperature=decoding.get("temperature"),
                top_p=decoding.get("top_p"),
                max_tokens=decoding.get("max_tokens"),
            ),
            additional_details=_strings(
                {
                    "seed": decoding.get("seed"),
                    "repeats": decoding.get("repeats"),
                    "stream": decoding.get("stream"),
                    "run_key": signature.get("run_key"),
                }
            ),
        ),
    )


def _component(text: str) -> str:
    """A portable directory name (the datastore refuses ``data`` and odd characters)."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "unknown"
    return "data_" if name == "data" else name


def build(export: Export) -> dict[str, bytes]:
    """The export's files by path under ``--out``: the aggregate JSON and the instance JSONL."""
    signature = run_signature(export.workloads)
    info = model_info(signature, export.model_id)
    developer, _, model = info.id.rpartition("/")
    folder = f"data/{COLLECTION}/{_component(developer or 'unknown')}/{_component(model)}"
    # Keyed on the figures' content, not on the commit: exporting the same run again, at a
    # later commit or from the workspace, gives the same id and the same file names.
    evaluation_id = f"{COLLECTION}/{info.id}/{export.digest[:16]}"
    digest = hashlib.sha256(evaluation_id.encode()).digest()
    file_uuid = str(uuid.UUID(bytes=digest[:16], version=4))
    records = records_of(export.figures, evaluation_id, info.id, export.with_prompts)
    if not records:
        raise AtlasError(f"{export.revision.short}: no scored item to export")
    lines = b"".join(
        json.dumps(r.model_dump(mode="json", exclude_none=True), ensure_ascii=False).encode()
        + b"\n"
        for r in records
    )
    samples = f"{folder}/{file_uuid}_samples.jsonl"
    log = EvaluationLog(
        schema_version=SCHEMA_VERSION,
        evaluation_id=evaluation_id,
        evaluation_timestamp=None if export.evaluated_at is None else str(export.evaluated_at),
        retrieved_timestamp=str(export.retrieved_at),
        source_metadata=SourceMetadata(
            source_name="Inference Atlas",
            source_type="evaluation_run",
            source_organization_name=export.organization,
            evaluator_relationship="third_party",
            additional_details=_strings(
                {"revision": export.revision.label, "commit": export.revision.commit}
            ),
        ),
        model_info=info,
        eval_library=EvalLibrary(name="inference-atlas", version=_version()),
        evaluation_results=[_result(figure, export) for figure in export.figures],
        detailed_evaluation_results=DetailedEvaluationResults(
            format="jsonl",
            file_path=samples,
            hash_algorithm="sha256",
            checksum=hashlib.sha256(lines).hexdigest(),
            total_rows=len(records),
        ),
    )
    aggregate = json.dumps(log.model_dump(mode="json", exclude_none=True), indent=2)
    return {f"{folder}/{file_uuid}.json": (aggregate + "\n").encode(), samples: lines}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("inference-atlas")
    except PackageNotFoundError:
        return "unknown"
