"""``atlas infer WORKLOAD --dry-run``: what a run would send, without contacting the endpoint.

The plan is built exactly as for a real run (same rows, bodies, keys and seeds), then compared
with the journal: requests never sent, failures that would be sent again, answers that would be
reused (subject to the provenance check, which needs the endpoint and so happens only in a real
run). Input size is the project's token heuristic (``ceil(chars / 4)`` over the message text,
:mod:`stages.datasets.tokens`) per length bucket. The time estimate comes from the last run's
serving metrics: its request rate when it measured one, else its median latency divided by
the concurrency; and only when that run measured the endpoint ``params.yaml`` names now (its
``endpoint``, else its manifest's ``endpoints``): another server's rate says nothing about this
one, so against an endpoint never measured the plan says it cannot estimate. The load levels
(``workloads.<w>.load``, or ``run.sweep`` on a perf workload) are counted, outside the estimate.
A remote endpoint's engine, which decides its neutral sampling fields
(:mod:`stages.protocol.engines`), is the one the last run against it identified.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stages.datasets.tokens import BUCKETS, approx_tokens, bucket_for
from stages.inference.journal import latest, read_records
from stages.inference.plan import Plan, for_engine
from stages.params import ModelParams


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # multimodal parts: count the text ones
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def input_tokens(body: bytes) -> int:
    """The heuristic token count of a request body's messages (a Responses-API body's input
    items)."""
    sent = json.loads(body)
    messages = sent.get("messages") or sent.get("input") or []
    return approx_tokens(_text(m.get("content")) for m in messages)


def by_bucket(plan: Plan) -> dict[str, tuple[int, int]]:
    """``{bucket: (requests, approx input tokens)}`` in bucket order, empty buckets left out."""
    sizes: dict[str, list[int]] = {}
    for item in plan.items:
        tokens = input_tokens(item.body)
        sizes.setdefault(bucket_for(tokens), []).append(tokens)
    return {b: (len(sizes[b]), sum(sizes[b])) for b in BUCKETS if b in sizes}


def endpoint_label(model: ModelParams) -> str:
    """The endpoint as records and serving metrics name it, known without contacting it."""
    from stages.inference.endpoint import public_url

    if model.is_embedded:
        return f"embedded:{model.gguf.file if model.gguf else '?'}"
    return ", ".join(public_url(url) for url, _ in model.replicas)


def _read(path: Path) -> dict[str, Any]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return document if isinstance(document, dict) else {}


def measured_endpoint(document: dict[str, Any], manifest: dict[str, Any]) -> str | None:
    """Which endpoint the last run measured: its serving metrics say (``main.endpoint``), else its
    manifest's ``endpoints``; None when neither does."""
    main = document.get("main")
    named = (main if isinstance(main, dict) else document).get("endpoint")
    if isinstance(named, str):
        return named
    entries = manifest.get("endpoints")
    if isinstance(entries, list) and entries:
        return ", ".join(str(e.get("endpoint")) for e in entries if isinstance(e, dict))
    return None


def _estimate(
    to_send: int, concurrency: int, serving: Path, endpoint: str, manifest: dict[str, Any]
) -> str:
    if not to_send:
        return "nothing to send"
    if not serving.is_file():
        return f"no earlier run ({serving} missing) to estimate the time from"
    document = _read(serving)
    measured = measured_endpoint(document, manifest)
    if measured is None:
        return (
            f"cannot estimate: the last run's metrics ({serving}) do not say which endpoint "
            f"they measured, and {endpoint} may be another server"
        )
    if measured != endpoint:
        return (
            f"cannot estimate: no run against {endpoint} was measured yet (the last one, "
            f"{serving}, measured {measured}: another server's rate says nothing of this one)"
        )
    last = document.get("main", document)  # the main pass (older files: the top level)
    rate = last.get("requests_per_s")
    if rate:
        seconds = to_send / rate
        basis = f"at {rate:g} req/s (last run, {serving}, concurrency {last.get('concurrency')})"
    else:
        p50 = (last.get("latency_s") or {}).get("p50")
        if not p50:
            return f"the last run ({serving}) measured no latency to estimate from"
        seconds = to_send * p50 / concurrency
        basis = f"at median latency {p50:g} s / concurrency {concurrency} (last run, {serving})"
    return f"about {seconds:.0f} s for {to_send} requests {basis}"


def load_levels(plan: Plan) -> str:
    """The load levels the run sends after its main pass, counted."""
    load = plan.workload.load
    if load is None and plan.workload.perf and plan.run.sweep:
        levels: list[Any] = list(plan.run.sweep)
        mode, repeats, search = "concurrency", 1, False
    elif load is None:
        return "load levels: none"
    else:
        levels = list(load.levels or load.rates or [])
        mode, repeats, search = load.mode, load.repeats, load.search is not None
    shown = ", ".join(f"{level:g}" for level in levels) or "the trace's own rate"
    count = max(len(levels), 1)
    extra = ", then a search for the highest rate meeting the slo" if search else ""
    runs = f" x {repeats} repeats" if repeats > 1 else ""
    return (
        f"load levels: {count} ({mode} {shown}){runs}{extra}, each from its own journal under "
        f"results/{plan.name}/load/, not in the estimate"
    )


def for_last_engine(plan: Plan, manifest: dict[str, Any]) -> tuple[Plan, str]:
    """``plan`` for the engine the last run against the same endpoint identified (a remote
    endpoint's neutral sampling fields depend on it) and a line saying which."""
    if plan.model.is_embedded:
        return plan, f"engine: {plan.engine}"
    if measured_endpoint({}, manifest) != endpoint_label(plan.model):
        return plan, "engine: not identified yet (no run against this endpoint): no engine fields"
    kind = manifest.get("engine_kind")
    if not isinstance(kind, str):
        return plan, "engine: unidentified by the last run: no engine fields"
    return for_engine(plan, kind), f"engine: {kind} (identified by the last run)"


def describe(plan: Plan, results: Path, metrics: Path, keep_failed: bool) -> str:
    """The dry-run report, one fact per line."""
    manifest = _read(results / plan.name / "manifest.json")
    plan, engine = for_last_engine(plan, manifest)
    concurrency = plan.concurrency
    rows = len(plan.items) // plan.decoding["repeats"]
    lines = [
        f"{plan.name}: {plan.dataset.id} ({plan.dataset.card.kind}), {rows} of "
        f"{len(plan.dataset.rows)} rows x {plan.decoding['repeats']} repeat(s) = "
        f"{len(plan.items)} requests, seeds {plan.seeds}, max_tokens "
        f"{plan.decoding['max_tokens']}, concurrency {concurrency}",
        "approx input tokens (ceil(chars / 4)) by length bucket:",
    ]
    buckets = by_bucket(plan)
    for bucket, (n, tokens) in buckets.items():
        lines.append(f"  {bucket:<4}{n:>7} requests{tokens:>12,} tokens")
    total = sum(tokens for _, tokens in buckets.values())
    lines.append(f"  all {len(plan.items):>7} requests{total:>12,} tokens")
    journal = results / plan.name / "responses.jsonl"
    current = latest(read_records(journal), plan.keys)
    failed = sum(1 for r in current.values() if r.get("error") is not None)
    answered = len(current) - failed
    never = len(plan.items) - len(current)
    to_send = never + (0 if keep_failed else failed)
    again = "kept (--keep-failed)" if keep_failed else "sent again"
    lines.append(
        f"journal {journal}: {answered} answered (reused unless the endpoint changed), "
        f"{failed} failed ({again}), {never} never sent -> {to_send} to send"
    )
    serving = metrics / f"{plan.name}.serving.json"
    endpoint = endpoint_label(plan.model)
    estimate = _estimate(to_send, concurrency, serving, endpoint, manifest)
    lines.append(engine)
    lines.append(load_levels(plan))
    lines.append(estimate if estimate.startswith("cannot") else f"estimate: {estimate}")
    lines.append("nothing sent (--dry-run)")
    return "\n".join(lines)
