"""What a workload will send: params, dataset rows, request bodies and their keys (issue 3).

Everything is decided before the first request: the first ``limit`` rows (``--limit``, else
``workloads.<w>.limit``, else ``run.limit``), each repeated ``decoding.effective_repeats`` times,
with bodies serialised once as canonical JSON — the exact bytes that are sent and hashed into the
journal key. Repeat r of a sampling run carries ``seed + r`` in its body, so a server that honours
seeds draws a new sample per repeat (greedy runs have one repeat, sending ``seed``). With
``model.api: responses`` each body is the chat body said in the Responses API's words
(:mod:`stages.protocol.responses_api`), and that is what is sent and hashed.

Items go out repeat by repeat (every row's repeat 0, then every row's repeat 1, ...), never the
same prompt twice in a row: llama-cpp-python's server reuses the previous request's KV cache, and
for a prompt identical to the previous one it computes only the last prompt token, alone, which
changes the logits enough to flip greedy tokens (measured: docs/engine.md#what-changes-an-output).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages.datasets.load import DATASETS_DIR, ROWS_FILE, Dataset
from stages.datasets.verified import load_verified
from stages.inference.journal import canonical, key_prefix, request_key, run_key
from stages.inference.requests import Sampling, build_body, engine_fields
from stages.params import (
    PARAMS_FILE,
    DecodingParams,
    ModelParams,
    RunParams,
    WorkloadParams,
    model_params,
    section,
    workload,
)
from stages.protocol.engines import EMBEDDED, budget_field, fields_for
from stages.protocol.responses_api import responses_body


@dataclass(frozen=True)
class Item:
    """One request to send: a row, a repeat index, its journal key and body bytes."""

    row_id: str
    repeat: int
    key: str
    body: bytes
    seed: int | None
    """The seed in ``body`` (``decoding.seed + repeat``), None when no seed is sent."""


@dataclass(frozen=True)
class Plan:
    name: str
    workload: WorkloadParams
    model: ModelParams
    run: RunParams
    dataset: Dataset
    decoding: dict[str, Any]
    """Decoding as it enters the keys: temperature, top_p, max_tokens (after the workload's
    override), seed, repeats (effective) and stream; ``api: responses`` for a Responses-API run
    (absent for chat, so chat runs keep the keys they always had); the reasoning controls and the
    engine's ``neutral_sampling`` knobs only when set (absent, the keys of a run before them)."""
    run_key: str
    limit: int | None
    items: list[Item]
    seeds: list[int]
    """The seed of each repeat (empty when no seed is sent)."""
    engine: str | None = None
    """The engine kind the bodies were built for (:mod:`stages.protocol.engines`)."""

    @property
    def max_failed_share(self) -> float:
        own = self.workload.max_failed_share
        return self.run.max_failed_share if own is None else own

    @property
    def slots(self) -> int:
        """Parallel slots the embedded server runs this workload with."""
        return self.workload.slots or self.model.slots

    @property
    def concurrency(self) -> int:
        """Requests in flight in the main pass: the workload's, ``run``'s, else one per slot of
        the embedded server (4 for a remote endpoint)."""
        default = self.slots if self.model.is_embedded else 4
        return self.workload.concurrency or self.run.concurrency or default

    @property
    def keys(self) -> set[str]:
        return {item.key for item in self.items}


def select_rows(
    rows: list[dict[str, Any]], limit: int | None, spread: bool
) -> list[dict[str, Any]]:
    """The rows a limited run sends: the first ``limit`` rows, or for a serving (``perf``)
    workload ``limit`` rows evenly spaced over the dataset so every length bucket is measured."""
    if not limit or limit >= len(rows):
        return rows
    if not spread:
        return rows[:limit]
    return [rows[i * len(rows) // limit] for i in range(limit)]


def plan_workload(
    name: str,
    params_path: Path = PARAMS_FILE,
    datasets_root: Path = DATASETS_DIR,
    limit: int | None = None,
    engine: str | None = None,
) -> Plan:
    """Validate the params a workload reads, load its dataset (checked at the door: see
    :mod:`stages.datasets.verified`) and build every request; ``limit`` overrides the params.
    ``engine`` is the kind a remote endpoint showed (:mod:`stages.protocol.engines`; None:
    unidentified, no engine field); the embedded model is always the embedded kind."""
    spec = workload(name, params_path)
    model = model_params(params_path)
    decoding_params = section(DecodingParams, "decoding", params_path)
    run = section(RunParams, "run", params_path)
    dataset = load_verified(spec.dataset, datasets_root)
    limit = limit or spec.limit or run.limit
    spread = spec.perf if spec.select is None else spec.select == "spread"
    rows = select_rows(dataset.rows, limit, spread=spread)
    repeats = decoding_params.effective_repeats
    kind = EMBEDDED if model.is_embedded else engine
    neutral = fields_for(kind, decoding_params.temperature)
    controls = decoding_params.reasoning_controls()
    sampling = Sampling(
        model=model.name,
        temperature=decoding_params.temperature,
        top_p=decoding_params.top_p,
        max_tokens=spec.max_tokens or decoding_params.max_tokens,
        seed=decoding_params.seed,
        stream=spec.stream,
        extra=engine_fields(neutral, controls, budget_field(kind)),
    )
    decoding: dict[str, Any] = {
        "temperature": sampling.temperature,
        "top_p": sampling.top_p,
        "max_tokens": sampling.max_tokens,
        "seed": sampling.seed,
        "repeats": repeats,
        "stream": sampling.stream,
        **controls,  # each only when set: with none, the run key of a run before they existed
    }
    responses = model.api == "responses"
    if responses:  # the run key records the protocol; a chat run's keys stay what they were
        decoding["api"] = "responses"
    if neutral:
        decoding["neutral_sampling"] = neutral
    base = decoding_params.seed
    # the Responses API takes no seed: none is sent, and each repeat is the same body
    seeds = [] if base is None or responses else [base + repeat for repeat in range(repeats)]
    rows_path = dataset.path / ROWS_FILE
    prefix = key_prefix(model.name, model.revision, decoding)
    bodies = []
    for row in rows:
        where = f"{rows_path}: id {row['id']}"
        body = build_body(row, dataset.card.kind, dataset.id, dataset.path, sampling, where)
        if responses:
            body = responses_body(body)
        bodies.append((row["id"], body, canonical(body)))
    items = []
    for repeat in range(repeats):  # repeat-major: a prompt is never sent right after itself
        seed = seeds[repeat] if seeds else None
        for row_id, body, raw in bodies:
            sent = raw if repeat == 0 or responses else canonical({**body, "seed": seed})
            items.append(Item(row_id, repeat, request_key(prefix, sent, repeat), sent, seed))
    return Plan(
        name=name,
        workload=spec,
        model=model,
        run=run,
        dataset=dataset,
        decoding=decoding,
        run_key=run_key(model.name, model.revision, decoding),
        limit=limit,
        engine=kind,
        items=items,
        seeds=seeds,
    )


def for_engine(plan: Plan, kind: str | None, params_path: Path = PARAMS_FILE) -> Plan:
    """``plan`` with the bodies a remote endpoint of ``kind`` gets (its neutral sampling knobs,
    its thinking-budget field): the same plan when nothing changes (the embedded model's, or a
    kind the plan was built for). ``params_path`` is the file ``plan`` was built from."""
    if plan.model.is_embedded or kind == plan.engine:
        return plan
    root = plan.dataset.path.parent  # the datasets root the plan was built from
    return plan_workload(plan.name, params_path, root, limit=plan.limit, engine=kind)
