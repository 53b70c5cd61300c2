"""The run manifest ``results/<workload>/manifest.json`` (issue 3, "Run manifest").

What a reader needs to reproduce or compare the run: model name and revision, decoding settings
and the seed of each repeat (``seeds``), the dataset id and the sha256 of its rows, package
versions, the project's git commit, start and end times, and counts. Where the answers came from
is ``provenance``: one entry per distinct (endpoint, chat template hash, system fingerprint,
engine id) with the number of records it covers — exactly the records scoring reads (the last
one of each request), so an answer is never credited to another endpoint or template;
``superseded`` lists, the same way, the answers this invocation replaced because the endpoint
had changed since they were made.
``endpoints`` counts, per replica of ``base_url``, its weight, the records it answered and those
it failed over to another one first. ``chat_templates`` maps the hashes seen by this invocation to
their text, and ``engine`` holds the embedded engine's build facts and every setting it was
started with, slots included (:mod:`stages.engine.build`; null for a remote endpoint).
``engine_kind`` names the engine the endpoint showed (:mod:`stages.protocol.engines`), and
``server_defaults`` lists, per URL, the sampling defaults it reported (llama.cpp's ``/props``,
vLLM's ``/server_info``) with their hash, which records carry in their provenance.
Scoring takes ``run_key`` from here to pick this run's journal records.
"""

from __future__ import annotations

import subprocess
from collections import Counter
from datetime import UTC, datetime
from importlib import metadata
from typing import TYPE_CHECKING, Any

from stages.inference import eventloop
from stages.inference.provenance import manifest_entries
from stages.io import sha256_file
from stages.network.transport import wire_name

if TYPE_CHECKING:
    from stages.inference.endpoint import Endpoint
    from stages.inference.plan import Plan
    from stages.inference.rerun import Triage

PACKAGES = ("dvc", "httpx", "inference-atlas", "pydantic", "uvloop")


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def package_versions() -> dict[str, str]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def git_commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else "unknown"


def run_counts(
    plan: Plan, records: list[dict[str, Any]], sent: int, found: Triage, failures: dict[str, int]
) -> dict[str, Any]:
    """The manifest's ``counts``: what was planned, reused, sent (again) and how it ended."""
    failed = sum(failures.values())
    return {
        "rows": len(plan.items) // plan.decoding["repeats"],
        "repeats": plan.decoding["repeats"],
        "requests": len(plan.items),
        "finished_before": found.reused + found.kept_failed,
        "sent": sent,
        "resent_failed": found.failed,
        "resent_drifted": sum(found.drifted.values()),
        "kept_failed": found.kept_failed,
        "ok": len(records) - failed,
        "failed": failed,
        "failed_by_kind": failures,
    }


def endpoint_counts(endpoint: Endpoint, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per replica, in ``base_url`` order: its weight, the records it answered (of those scoring
    reads) and how many of them another replica had failed first (issue 23)."""
    answered = Counter((r.get("provenance") or {}).get("endpoint") for r in records)
    failed = Counter(label for r in records for label in r.get("failover") or ())
    weights = endpoint.weights or [1.0] * len(endpoint.labels)
    return [
        {
            "endpoint": label,
            "weight": weight,
            "records": answered[label],
            "failed_over_from": failed[label],
        }
        for label, weight in zip(endpoint.labels, weights, strict=True)
    ]


def server_defaults(endpoint: Endpoint) -> list[dict[str, Any]]:
    """Per URL, the sampling defaults it reported and where (:mod:`stages.inference.
    server_facts`); all null for an embedded server that was not started (nothing to send)."""
    from stages.inference.server_facts import ServerFacts

    unread = ServerFacts(endpoint.kind)
    return [
        (endpoint.facts[i] if i < len(endpoint.facts) else unread).manifest_entry(label)
        for i, label in enumerate(endpoint.labels)
    ]


def build_manifest(
    plan: Plan,
    endpoint: Endpoint,
    records: list[dict[str, Any]],
    found: Triage,
    started_at: str,
    counts: dict[str, Any],
) -> dict[str, Any]:
    """The manifest of a run whose current records (last one per request) are ``records``."""
    texts = dict(zip(endpoint.template_hashes, endpoint.templates, strict=True))
    return {
        "run_key": plan.run_key,
        "model": {
            "name": plan.model.name,
            "revision": plan.model.revision,
            "preset": plan.model.preset,
            "base_model": plan.model.base_model,
        },
        "decoding": plan.decoding,
        "seeds": plan.seeds,
        "dataset": {"id": plan.dataset.id, "sha256": sha256_file(plan.dataset.path / "rows.jsonl")},
        "workload": {"name": plan.name, **plan.workload.model_dump(), "limit": plan.limit},
        "ids": list(dict.fromkeys(item.row_id for item in plan.items)),
        "provenance": manifest_entries(records),
        "superseded": manifest_entries(found.replaced),
        "endpoints": endpoint_counts(endpoint, records),
        "chat_templates": {h: t for h, t in texts.items() if h is not None},
        "engine": endpoint.engine,
        "engine_kind": endpoint.kind,
        "server_defaults": server_defaults(endpoint),
        "packages": package_versions(),
        "event_loop": eventloop.loop_name(),
        "http_client": wire_name(endpoint.urls, endpoint.embedded),
        "git_commit": git_commit(),
        "started_at": started_at,
        "finished_at": now_iso(),
        "counts": counts,
    }
