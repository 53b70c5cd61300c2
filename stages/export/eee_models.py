"""The every_eval_ever aggregate record (``eval.schema.json``), as pydantic models of our own.

Written field by field from the published JSON schema of evaleval/every_eval_ever at the
version pinned in :data:`SCHEMA_VERSION` (the repository's commit is named in
docs/exporting.md). Its Python package does not install here, and the export must not depend on
it. Every model forbids unknown keys, so a record that validates here has no field the schema
lacks; the schema's conditional rules (a continuous metric needs both bounds, a ``levels``
metric its level names) are model validators. Judge configuration and agentic settings are
modelled too, so that the repository's own example files validate, although this project
writes neither. The instance-level record is in :mod:`stages.export.eee_instance`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from stages.export.eee_parts import Details, ModelInfo, Strict

SCHEMA_VERSION = "0.3.0"
"""The every_eval_ever schema version these models follow and every export declares."""

Bound = float | Literal["Infinity", "-Infinity"] | None


class SourceMetadata(Strict):
    """Who reports the figures and how they came to be."""

    source_name: str | None = None
    """The platform or tool that produced the evaluation."""
    source_type: Literal["documentation", "evaluation_run"]
    """``evaluation_run`` when the per-item outputs are at hand, else ``documentation``."""
    source_organization_name: str
    """The organisation that publishes the data."""
    source_organization_url: str | None = None
    """That organisation's web address."""
    source_organization_logo_url: str | None = None
    """The address of its logo."""
    evaluator_relationship: Literal["first_party", "third_party", "collaborative", "other"]
    """Who ran the evaluation, relative to the model's developer."""
    additional_details: Details | None = None
    """Further facts, every value a string."""


class EvalLibrary(Strict):
    """The harness that ran the evaluation."""

    name: str
    """Its name (``inspect_ai``, ``lm_eval``, here ``inference-atlas``)."""
    version: str
    """Its version; ``unknown`` when not known."""
    additional_details: Details | None = None
    """Further facts, every value a string."""


class SourceDataUrl(Strict):
    """A dataset found at one or more web addresses."""

    dataset_name: str
    """The dataset's name."""
    source_type: Literal["url"]
    """Always ``url``."""
    url: list[str] = Field(min_length=1)
    """Where the dataset is, at least one address."""
    additional_details: Details | None = None
    """Further facts, every value a string."""


class SourceDataHf(Strict):
    """A dataset on the Hugging Face Hub."""

    dataset_name: str
    """The dataset's name."""
    source_type: Literal["hf_dataset"]
    """Always ``hf_dataset``."""
    hf_repo: str | None = None
    """The Hub repository (``owner/name``)."""
    hf_split: str | None = None
    """The split used (train, val or test)."""
    samples_number: int | None = None
    """How many samples the dataset has."""
    sample_ids: list[str] | None = None
    """The ids of the samples evaluated."""
    additional_details: Details | None = None
    """Further facts, every value a string."""


class SourceDataOther(Strict):
    """A dataset that is neither at a web address nor on the Hub (here: generated, in git)."""

    dataset_name: str
    """The dataset's name."""
    source_type: Literal["other"]
    """Always ``other``."""
    additional_details: Details | None = None
    """Where and how to get it, every value a string."""


SourceData = SourceDataUrl | SourceDataHf | SourceDataOther


class JudgeConfig(Strict):
    """One model judge (or juror) of an LLM-scored metric."""

    model_info: ModelInfo
    """The judge model, described as fully as the evaluated one."""
    temperature: float | None = None
    """The judge's sampling temperature."""
    weight: float | None = None
    """Its weight in a jury."""
    additional_details: Details | None = None
    """Further facts, every value a string."""


class LlmScoring(Strict):
    """How a model judge scored the answers."""

    judges: list[JudgeConfig] = Field(min_length=1)
    """One judge, or several for a jury."""
    input_prompt: str
    """The judging prompt template."""
    aggregation_method: Literal["majority_vote", "average", "weighted_average", "median"] | None = (
        None
    )
    """How a jury's scores combine."""
    expert_baseline: float | None = None
    """A human expert's score on the same data."""
    additional_details: Details | None = None
    """Further facts, every value a string."""


class MetricConfig(Strict):
    """What the score measures and on which scale."""

    evaluation_description: str | None = None
    """A sentence on what is evaluated."""
    metric_id: str | None = None
    """A stable metric id (``accuracy``, ``f1``; namespaced when specific to a benchmark)."""
    metric_name: str | None = None
    """The metric's display name."""
    metric_kind: str | None = None
    """The metric's family, for safe aggregation."""
    metric_unit: str | None = None
    """The unit of the score (``proportion``, ``points``)."""
    metric_parameters: dict[str, str | float | bool | None] | None = None
    """Metric-specific parameters (``{"k": 1}`` for pass@k)."""
    lower_is_better: bool
    """Whether a lower score is better."""
    score_type: Literal["binary", "continuous", "levels"] | None = None
    """Binary, continuous or levels."""
    level_names: list[str] | None = None
    """The names of the levels (``levels`` only)."""
    level_metadata: list[str] | None = None
    """A description of each level."""
    has_unknown_level: bool | None = None
    """Whether a score of -1 means unknown (``levels`` only)."""
    min_score: Bound = None
    """The lowest possible score (``-Infinity`` when unbounded)."""
    max_score: Bound = None
    """The highest possible score (``Infinity`` when unbounded)."""
    llm_scoring: LlmScoring | None = None
    """The model judge, when one scored the answers."""
    additional_details: Details | None = None
    """Further facts, every value a string."""

    @model_validator(mode="after")
    def _conditional_fields(self) -> MetricConfig:
        # The schema's if/then: levels need their names, a continuous score both bounds.
        if self.score_type == "levels" and (
            self.level_names is None or self.has_unknown_level is None
        ):
            raise ValueError("a levels metric needs level_names and has_unknown_level")
        if self.score_type == "continuous" and (self.min_score is None or self.max_score is None):
            raise ValueError("a continuous metric needs min_score and max_score")
        return self
