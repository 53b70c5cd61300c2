"""Pieces the every_eval_ever records share: the strict base model, string maps, the model.

See :mod:`stages.export.eee_models` for where the fields come from.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Details = dict[str, str]
"""The schema's ``additional_details``: a map whose every value is a string."""


class Strict(BaseModel):
    """A record part that refuses unknown keys and values of the wrong type."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class InferenceEngine(Strict):
    """The engine that served the model locally (vLLM, Ollama, here llama.cpp)."""

    name: str | None = None
    """The engine's name."""
    version: str | None = None
    """The engine's version."""


class ModelDetails(BaseModel):
    """The model's ``additional_details``: two required deployment facts, then any strings."""

    model_config = ConfigDict(extra="allow", use_attribute_docstrings=True)
    __pydantic_extra__: dict[str, str]

    deployment_type: Literal["self_deployed", "externally_managed", "unknown"]
    """Whether the evaluator ran the weights itself or called someone's service."""
    model_availability: Literal["open_weights", "closed_weights", "unknown"]
    """Whether the weights are published."""


class ModelInfo(Strict):
    """The evaluated model: names, where it ran, and how."""

    name: str
    """The model's name as the evaluation knew it."""
    id: str
    """The model in Hugging Face form (``owner/name``)."""
    developer: str | None = None
    """The organisation that made the model."""
    inference_platform: str | None = None
    """The service or platform that gave access to the model."""
    inference_engine: InferenceEngine | None = None
    """The engine that ran it locally."""
    additional_details: ModelDetails
    """Deployment facts (required) and further facts, every value a string."""
