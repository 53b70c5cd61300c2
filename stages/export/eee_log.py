"""The every_eval_ever aggregate log: scores with their uncertainty, generation settings, the
results of one run and the link to its instance-level file (``eval.schema.json``).

See :mod:`stages.export.eee_models` for where the fields come from.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from stages.export.eee_models import EvalLibrary, MetricConfig, SourceData, SourceMetadata
from stages.export.eee_parts import Details, ModelInfo, Strict

SAMPLES_PATH = (
    r"^data/[^/]+/[^/]+/[^/]+/[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}"
    r"-[0-9A-Fa-f]{12}_samples\.jsonl$"
)
"""Where an instance-level file sits in the datastore: data/<collection>/<dev>/<model>/<uuid4>."""


class StandardError(Strict):
    """The standard error of the score."""

    value: float
    """The standard error."""
    method: str | None = None
    """How it was computed (analytic, bootstrap, jackknife, cluster-robust...)."""


class ConfidenceInterval(Strict):
    """An interval for the score at a confidence level."""

    lower: float
    """The lower bound."""
    upper: float
    """The upper bound."""
    confidence_level: float | None = Field(default=None, ge=0, le=1)
    """The confidence level (0.95 for 95 %)."""
    method: str | None = None
    """How the interval was computed."""


class Uncertainty(Strict):
    """How uncertain the score is."""

    standard_error: StandardError | None = None
    """The score's standard error."""
    confidence_interval: ConfidenceInterval | None = None
    """An interval for the score."""
    standard_deviation: float | None = None
    """The standard deviation of the per-sample scores."""
    num_samples: int | None = None
    """How many samples the estimates use."""
    num_bootstrap_samples: int | None = None
    """How many bootstrap resamples were drawn, if any."""


class ScoreDetails(Strict):
    """The score and what goes with it."""

    score: float
    """The score."""
    details: Details | None = None
    """Further figures, every value a string."""
    uncertainty: Uncertainty | None = None
    """Its uncertainty."""


class AvailableTool(Strict):
    """A tool an agentic evaluation offered."""

    name: str | None = None
    """The tool's name (bash, calculator...)."""
    description: str | None = None
    """What it does."""
    parameters: Details | None = None
    """Its parameters, every value a string."""


class AgenticEvalConfig(Strict):
    """Settings of an agentic evaluation."""

    available_tools: list[AvailableTool] | None = None
    """The tools offered."""
    additional_details: Details | None = None
    """Further settings, every value a string."""


class EvalPlan(Strict):
    """The steps (solvers) an evaluation ran."""

    name: str | None = None
    """The plan's name."""
    steps: list[str] | None = None
    """Each step, JSON-serialised."""
    config: Details | None = None
    """Its settings, every value a string."""


class EvalLimits(Strict):
    """Limits put on the evaluation."""

    time_limit: int | None = None
    """A time limit."""
    message_limit: int | None = None
    """A limit on messages."""
    token_limit: int | None = None
    """A limit on tokens."""


class Sandbox(Strict):
    """The sandbox the evaluation ran in."""

    type: str | None = None
    """Its kind (docker...)."""
    config: str | None = None
    """Its configuration file."""


class GenerationArgs(Strict):
    """The settings the answers were generated with (a fixed set; the rest goes to details)."""

    temperature: float | None = None
    """Sampling temperature."""
    top_p: float | None = None
    """Nucleus sampling threshold."""
    top_k: float | None = None
    """Top-k sampling."""
    max_tokens: int | None = Field(default=None, ge=1)
    """The most tokens an answer may have."""
    execution_command: str | None = None
    """The command that ran the model."""
    reasoning: bool | None = None
    """Whether reasoning (chain of thought) was used."""
    prompt_template: str | None = None
    """The prompt template of the task."""
    agentic_eval_config: AgenticEvalConfig | None = None
    """Agentic settings."""
    eval_plan: EvalPlan | None = None
    """The evaluation's steps."""
    eval_limits: EvalLimits | None = None
    """Its limits."""
    sandbox: Sandbox | None = None
    """Its sandbox."""
    max_attempts: int | None = None
    """How many attempts a submission had."""
    incorrect_attempt_feedback: str | None = None
    """Feedback given after a wrong attempt."""


class GenerationConfig(Strict):
    """How the answers were generated."""

    generation_args: GenerationArgs | None = None
    """The typed settings."""
    additional_details: Details | None = None
    """Every other setting, every value a string."""


class EvaluationResult(Strict):
    """One figure of the run: an evaluation, its dataset, its metric and its score."""

    evaluation_result_id: str | None = None
    """A stable id of the result within the run; instance records point to it."""
    evaluation_name: str
    """The evaluation's name."""
    source_data: SourceData = Field(discriminator="source_type")
    """The dataset evaluated."""
    evaluation_timestamp: str | None = None
    """When the evaluation ran."""
    metric_config: MetricConfig
    """What the score measures."""
    score_details: ScoreDetails
    """The score."""
    generation_config: GenerationConfig | None = None
    """How the answers were generated."""


class DetailedEvaluationResults(Strict):
    """The instance-level file of the run."""

    format: Literal["jsonl"]
    """Always ``jsonl``."""
    file_path: str = Field(pattern=SAMPLES_PATH)
    """The file's path in the datastore, from ``data/``."""
    hash_algorithm: Literal["sha256", "md5"] | None = None
    """The hash of ``checksum`` (and of the records' ``sample_hash``)."""
    checksum: str | None = None
    """The file's hash."""
    total_rows: int | None = None
    """How many lines the file has."""
    additional_details: Details | None = None
    """Further facts, every value a string."""


class EvaluationLog(Strict):
    """One evaluation run of one model: the aggregate every_eval_ever record."""

    schema_version: str
    """The schema version the record follows."""
    evaluation_id: str
    """A stable id of the run."""
    evaluation_timestamp: str | None = None
    """When the run happened."""
    retrieved_timestamp: str
    """When this record was made (Unix time)."""
    source_metadata: SourceMetadata
    """Who reports it."""
    model_info: ModelInfo
    """The evaluated model."""
    eval_library: EvalLibrary
    """The harness."""
    evaluation_results: list[EvaluationResult]
    """The figures."""
    detailed_evaluation_results: DetailedEvaluationResults | None = None
    """The instance-level file, when there is one."""
