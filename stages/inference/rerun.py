"""What a rerun sends again: failures, and answers whose provenance drifted (issue 11).

For each planned request the journal's last record decides (:func:`stages.inference.journal.
latest`): no record, send it; a failure, send it again with a fresh retry budget, unless
``--keep-failed`` keeps failures as results (and so is an empty stream an older run journaled as
an answer, :func:`empty_answer`); a success made under another chat template, engine
or fingerprint than the endpoint shows now (:func:`stages.inference.provenance.drift`), send it
again (``--no-resend-on-drift`` refuses instead); any other success is reused.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from stages.errors import AtlasError
from stages.inference.endpoint import Endpoint, probe_fingerprints
from stages.inference.plan import Item, Plan
from stages.inference.provenance import Observed, drift, of


@dataclass(frozen=True)
class RerunPolicy:
    """What a rerun does with journaled failures and drifted answers (``atlas infer`` flags)."""

    keep_failed: bool = False
    """``--keep-failed``: failures stay results instead of being sent again."""
    resend_on_drift: bool = True
    """``--no-resend-on-drift`` sets it False: drifted answers stop the run instead."""
    only_kinds: frozenset[str] | None = None
    """Send again only failures of these kinds (the embedded engine's second try of stalled
    requests, issue 32); the other failures stay results."""


class ProvenanceDrift(AtlasError):
    """Journaled answers came from an endpoint that now shows itself differently."""

    exit_code = 4


@dataclass
class Triage:
    """The planned requests split by what their journal record says."""

    todo: list[Item] = field(default_factory=list)
    """Requests to send, in plan order."""
    reused: int = 0
    new: int = 0
    failed: int = 0
    """Failed records sent again."""
    kept_failed: int = 0
    """Failed records kept as results (``--keep-failed``)."""
    drifted: Counter[str] = field(default_factory=Counter)
    """Why successful records are sent again, with how many each."""
    replaced: list[dict[str, Any]] = field(default_factory=list)
    """The drifted records themselves (the manifest lists their provenance as superseded)."""


def needs_fingerprint(items: list[Item], latest: dict[str, dict[str, Any]], now: Observed) -> bool:
    """Whether any answer that would be reused carries a fingerprint to compare (worth a probe)."""
    for item in items:
        record = latest.get(item.key)
        if record is None or record.get("error") is not None:
            continue
        if of(record)["system_fingerprint"] is not None and drift(record, now) is None:
            return True
    return False


def empty_answer(record: dict[str, Any]) -> bool:
    """A stream journaled as an answer before issue 31 although it brought nothing: ``[DONE]``
    without content, tool call or finish reason (now a ``stream_empty`` failure); such a record
    is sent again like a failure."""
    return (
        record.get("error") is None
        and record.get("stream_end") == "done"
        and record.get("finish_reason") is None
        and not record.get("output")
        and not record.get("tool_calls")
    )


def triage(
    items: list[Item],
    latest: dict[str, dict[str, Any]],
    now: Observed,
    keep_failed: bool,
    only_kinds: frozenset[str] | None = None,
) -> Triage:
    out = Triage()
    for item in items:
        record = latest.get(item.key)
        if record is None:
            out.new += 1
            out.todo.append(item)
        elif record.get("error") is not None or empty_answer(record):
            kind = (record.get("error") or {}).get("kind", "stream_empty")
            if keep_failed or (only_kinds is not None and kind not in only_kinds):
                out.kept_failed += 1
            else:
                out.failed += 1
                out.todo.append(item)
        elif (reason := drift(record, now)) is not None:
            out.drifted[reason] += 1
            out.replaced.append(record)
            out.todo.append(item)
        else:
            out.reused += 1
    return out


def drift_message(name: str, drifted: Counter[str], resend: bool) -> str:
    """One sentence per reason: what changed, for how many answers, and what happens now."""
    parts = [f"{n} answer{'s' if n != 1 else ''} made under {why}" for why, n in drifted.items()]
    what = "; ".join(parts)
    if resend:
        return f"{name}: the endpoint changed: {what}; sending them again\n"
    return (
        f"{name}: the endpoint changed since these answers were journaled: {what}; "
        "rerun without --no-resend-on-drift to send them again"
    )


def sort_requests(
    plan: Plan,
    endpoint: Endpoint,
    current: dict[str, dict[str, Any]],
    label: str,
    policy: RerunPolicy,
) -> Triage:
    """Triage ``plan`` against ``current`` (last record per key) and what the endpoint shows now;
    probes the fingerprint only when a reusable answer carries one."""
    now = endpoint.observed()
    if needs_fingerprint(plan.items, current, now):
        fingerprints = probe_fingerprints(endpoint, plan.items[0].body)
        if fingerprints is None:
            sys.stderr.write(
                f"{label}: could not observe the endpoint's system_fingerprint now; journaled "
                "answers are reused on their chat template and engine alone\n"
            )
        now = endpoint.observed(fingerprints)
    found = triage(plan.items, current, now, policy.keep_failed, policy.only_kinds)
    if found.drifted:
        if not policy.resend_on_drift:
            raise ProvenanceDrift(drift_message(label, found.drifted, resend=False))
        sys.stderr.write(drift_message(label, found.drifted, resend=True))
    return found
