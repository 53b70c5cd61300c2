"""Sending judge requests: the inference stage's own machinery, pointed at a judge (issue 21).

Each judge is an OpenAI-compatible endpoint described like ``model:`` (``embedded`` starts the
packaged model through :func:`stages.inference.endpoint.open_endpoint`, whichever engine serves
it). Its requests are planned as a workload of their own and sent by
:func:`stages.inference.run.run_pass`, so they are journaled in
``results/<w>/judge/<judge>.jsonl`` exactly like inference: keyed by the sha256 of (judge model,
revision, decoding, request body), never sent twice, resumed after a kill, failures sent again,
answers made under another chat template or engine sent again. The request body holds the
versioned prompt and the response being graded, so a new prompt or a new response is a new
request; nothing here ever talks to the model under test. Greedy: temperature 0, one repeat.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages.datasets.load import Dataset
from stages.inference.journal import canonical, key_prefix, request_key, run_key
from stages.inference.plan import Item, Plan
from stages.params import ModelParams, RunParams, WorkloadParams
from stages.protocol.responses_api import responses_body


@dataclass(frozen=True)
class Request:
    """One judgement to ask for: a response (by run, row, repeat) and its prompt messages."""

    run_key: str
    """Run of the model under test whose response is graded."""
    row_id: str
    repeat: int
    messages: list[dict[str, Any]]


def decoding(max_tokens: int) -> dict[str, Any]:
    """The judge's decoding, as it enters request keys and the judge signature."""
    return {"temperature": 0.0, "top_p": 1.0, "max_tokens": max_tokens, "seed": 0,
            "repeats": 1, "stream": False}  # fmt: skip


def judge_plan(
    name: str, judge: ModelParams, requests: list[Request], max_tokens: int, run: RunParams,
    dataset: Dataset,
) -> tuple[Plan, dict[tuple[str, str, int], str]]:  # fmt: skip
    """The judge's requests as a plan for ``run_pass``, and the request key of each judgement
    by (run key, row id, repeat): two runs that gave the same answer share one request."""
    settings = decoding(max_tokens)
    if judge.api == "responses":  # a judge block may speak the Responses API too (issue 33)
        settings["api"] = "responses"
    prefix = key_prefix(judge.name, judge.revision, settings)
    items: list[Item] = []
    keys: dict[tuple[str, str, int], str] = {}
    for request in requests:
        body = {
            "model": judge.name,
            "messages": request.messages,
            "temperature": 0.0,
            "top_p": 1.0,
            "max_tokens": max_tokens,
            "seed": 0,
            "stream": False,
        }
        raw = canonical(responses_body(body) if judge.api == "responses" else body)
        key = request_key(prefix, raw, 0)
        if key not in keys.values():
            seed = None if judge.api == "responses" else 0  # the Responses API takes none
            items.append(Item(request.row_id, request.repeat, key, raw, seed))
        keys[(request.run_key, request.row_id, request.repeat)] = key
    plan = Plan(
        name=name,
        workload=WorkloadParams(dataset=dataset.id, stream=False, max_tokens=max_tokens),
        model=judge,
        run=run,
        dataset=dataset,
        decoding=settings,
        run_key=run_key(judge.name, judge.revision, settings),
        limit=None,
        items=items,
        seeds=[0],
    )
    return plan, keys


def send_judgements(
    name: str, judge_name: str, judge: ModelParams, requests: list[Request], max_tokens: int,
    run: RunParams, dataset: Dataset, journal: Path,
) -> dict[tuple[str, str, int], dict[str, Any]]:  # fmt: skip
    """Journal record of every judgement by (run key, row id, repeat); sends only what the
    journal lacks. The endpoint (and an embedded server) starts only when something is sent."""
    from stages.inference.endpoint import open_endpoint
    from stages.inference.run import run_pass

    plan, keys = judge_plan(name, judge, requests, max_tokens, run, dataset)
    if not plan.items:
        return {}
    with open_endpoint(judge) as endpoint:
        result = run_pass(plan, endpoint, journal, plan.concurrency, f"judge {judge_name}: {name}")
    records = {record["key"]: record for record in result.records}
    return {which: records[key] for which, key in keys.items() if key in records}
