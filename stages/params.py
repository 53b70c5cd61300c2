"""``params.yaml``: typed, strict, and read one section at a time.

Each DVC stage reads only the keys it lists under ``params:`` in ``dvc.yaml``; the loaders below
validate just that section, so a typo elsewhere does not break an unrelated stage, while a typo in
the section a stage reads is an error naming the file and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from stages.datasets.card import ID_PATTERN
from stages.errors import AtlasError

PARAMS_FILE = Path("params.yaml")
_M = TypeVar("_M", bound=BaseModel)


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class CheckParams(_Section):
    """``check:`` — the corpus check stage."""

    budget_mb: float = Field(gt=0)
    """Size limit of ``datasets/`` plus ``_gen/``, in MB (10^6 bytes)."""


class ModelCard(_Section):
    """``model.card`` — what the model says about itself, for the identity track."""

    name: str
    """Model name as its developer publishes it."""
    developer: str
    """Organisation that trained it."""
    parameters: str
    """Parameter count as published (e.g. ``135M``)."""
    context_length: int = Field(gt=0)
    """Trained context window in tokens."""
    knowledge_cutoff: str
    """Training-data cutoff as published, or ``unknown``."""
    languages: list[str]
    """Languages the developer states the model supports."""


class ModelParams(_Section):
    """``model:`` — which model and endpoint inference talks to."""

    base_url: str | list[str]
    """``embedded`` (start the packaged SmolLM2 server), one OpenAI-compatible ``/v1`` URL, or a
    list of URLs that requests are spread over."""
    name: str
    """Model name sent in each request's ``model`` field."""
    revision: str = Field(min_length=1)
    """Pinned commit or file hash; for ``embedded``, the sha256 of the GGUF file (verified)."""
    api_key_env: str | None = None
    """Name of the environment variable holding the API key; the key itself is never written."""
    context_length: int = Field(default=8192, gt=0)
    """Context window the embedded server is started with (``n_ctx``)."""
    card: ModelCard | None = None
    """Published facts about the model, for the identity track."""

    @field_validator("base_url")
    @classmethod
    def _urls(cls, value: str | list[str]) -> str | list[str]:
        urls = [value] if isinstance(value, str) else value
        if not urls:
            raise ValueError("base_url list is empty")
        for url in urls:
            if url != "embedded" and not url.startswith(("http://", "https://")):
                raise ValueError(f"{url!r} is neither 'embedded' nor an http(s) URL")
        if isinstance(value, list) and "embedded" in value:
            raise ValueError("'embedded' cannot be part of a list of URLs")
        return value

    @property
    def is_embedded(self) -> bool:
        """True when the packaged model is served locally."""
        return self.base_url == "embedded"


class DecodingParams(_Section):
    """``decoding:`` — identical for every item of a run (greedy by default)."""

    temperature: float = Field(default=0.0, ge=0.0)
    """Sampling temperature; 0 is greedy."""
    top_p: float = Field(default=1.0, gt=0.0, le=1.0)
    """Nucleus sampling mass."""
    max_tokens: int = Field(default=256, gt=0)
    """Default output limit; a workload may lower or raise it."""
    seed: int | None = 0
    """Sampling seed sent with each request; required when temperature > 0."""
    repeats: int | None = None
    """How many times each item is sent; default 1 when greedy, 3 when sampling."""

    @model_validator(mode="after")
    def _sampling_needs_seed(self) -> DecodingParams:
        if self.temperature > 0 and self.seed is None:
            raise ValueError("temperature > 0 needs a seed so the run can be repeated")
        if self.repeats is not None and self.repeats < 1:
            raise ValueError("repeats must be at least 1")
        return self

    @property
    def effective_repeats(self) -> int:
        """Repeats actually run: the set value, else 1 (greedy) or 3 (sampling)."""
        if self.repeats is not None:
            return self.repeats
        return 1 if self.temperature == 0 else 3


class RunParams(_Section):
    """``run:`` — how hard and how long inference pushes."""

    concurrency: int = Field(default=4, ge=1)
    """Requests in flight at once."""
    timeout_s: float = Field(default=120.0, gt=0)
    """Per-request timeout; a timed-out request is recorded as failed."""
    max_retries: int = Field(default=3, ge=0)
    """Retries on 429, 5xx and connection errors (exponential backoff with jitter)."""
    limit: int | None = Field(default=None, ge=1)
    """Items per workload for quick runs, unless a workload sets its own; null runs all."""
    sweep: list[int] | None = None
    """Concurrency levels for a serving sweep (perf workloads only), e.g. ``[1, 4, 16]``."""


class WorkloadParams(_Section):
    """``workloads.<name>:`` — one dataset sent to the model."""

    dataset: str = Field(pattern=ID_PATTERN)
    """Dataset id under ``datasets/``."""
    limit: int | None = Field(default=None, ge=1)
    """Items to send, overriding ``run.limit``: the first N rows, or for a ``perf`` workload N
    rows evenly spaced over the dataset so that every length bucket is represented."""
    concurrency: int | None = Field(default=None, ge=1)
    """Requests in flight for this workload; overrides ``run.concurrency``."""
    timeout_s: float | None = Field(default=None, gt=0)
    """Per-request timeout for this workload (long generations); overrides ``run.timeout_s``."""
    max_tokens: int | None = Field(default=None, gt=0)
    """Output limit for this workload; overrides ``decoding.max_tokens``."""
    stream: bool = True
    """Stream with SSE (needed for time to first token)."""
    perf: bool = False
    """A serving workload: report per-bucket latency and run the concurrency sweep if set."""
    fresh_seeds: list[int] | None = None
    """Seeds of fresh instances of the dataset (``atlas dataset fresh``) sent besides the public
    set; the metrics then compare public and fresh accuracy (a contamination probe)."""

    @field_validator("fresh_seeds")
    @classmethod
    def _distinct_seeds(cls, value: list[int] | None) -> list[int] | None:
        if value is not None and (not value or len(set(value)) != len(value)):
            raise ValueError("fresh_seeds must be a non-empty list of distinct integers")
        return value


def load_params(path: Path = PARAMS_FILE) -> dict[str, Any]:
    """Read params.yaml as a plain mapping, naming the file on a syntax error."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise AtlasError(f"{path}: file not found (run from the project root)") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        raise AtlasError(f"{path}{where}: invalid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise AtlasError(f"{path}: expected a mapping at the top level")
    return data


def _describe(error: ValidationError, prefix: str) -> str:
    first = error.errors()[0]
    field = ".".join(str(part) for part in (prefix, *first["loc"]) if part != "")
    return f"{field}: {first['msg']}"


def section(model: type[_M], key: str, path: Path = PARAMS_FILE) -> _M:
    """Validate one dotted section (``"model"``, ``"workloads.math"``) of params.yaml."""
    node: Any = load_params(path)
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            raise AtlasError(f"{path}: no '{key}' section (missing '{part}')")
        node = node[part]
    try:
        return model.model_validate(node)
    except ValidationError as exc:
        raise AtlasError(f"{path}: {_describe(exc, key)}") from exc


def dataset_ids(path: Path = PARAMS_FILE) -> list[str]:
    """The generated datasets listed under ``datasets:`` (one ``gen-<id>`` stage each)."""
    ids = load_params(path).get("datasets")
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise AtlasError(f"{path}: 'datasets' must be a list of dataset ids")
    return ids


def workload_names(path: Path = PARAMS_FILE) -> list[str]:
    """Names of the workloads under ``workloads:``."""
    workloads = load_params(path).get("workloads") or {}
    if not isinstance(workloads, dict):
        raise AtlasError(f"{path}: 'workloads' must be a mapping of name to workload")
    return list(workloads)


def workload(name: str, path: Path = PARAMS_FILE) -> WorkloadParams:
    """One workload's params, with a clear error for an unknown name."""
    names = workload_names(path)
    if name not in names:
        known = ", ".join(names) or "none"
        raise AtlasError(f"unknown workload {name!r} (params.yaml lists: {known})")
    return section(WorkloadParams, f"workloads.{name}", path)
