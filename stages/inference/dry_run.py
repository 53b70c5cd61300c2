"""``atlas infer WORKLOAD --dry-run``: what a run would send, without contacting the endpoint.

The plan is built exactly as for a real run (same rows, bodies, keys and seeds), then compared
with the journal: requests never sent, failures that would be sent again, answers that would be
reused (subject to the provenance check, which needs the endpoint and so happens only in a real
run). Input size is the project's token heuristic (``ceil(chars / 4)`` over the message text,
:mod:`stages.datasets.tokens`) per length bucket. The time estimate comes from the last run's
serving metrics: its request rate when it measured one, else its median latency divided by
the concurrency.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stages.datasets.tokens import BUCKETS, approx_tokens, bucket_for
from stages.inference.journal import latest, read_records
from stages.inference.plan import Plan


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


def _estimate(to_send: int, concurrency: int, serving: Path) -> str:
    if not to_send:
        return "nothing to send"
    if not serving.is_file():
        return f"no earlier run ({serving} missing) to estimate the time from"
    document = json.loads(serving.read_text(encoding="utf-8"))
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


def describe(plan: Plan, results: Path, metrics: Path, keep_failed: bool) -> str:
    """The dry-run report, one fact per line."""
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
    lines.append(
        f"estimate: {_estimate(to_send, concurrency, metrics / f'{plan.name}.serving.json')}"
    )
    lines.append("nothing sent (--dry-run)")
    return "\n".join(lines)
