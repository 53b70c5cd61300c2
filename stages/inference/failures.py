"""The end of a run with too many failed requests: exit code 3 and one summary line (issue 11).

A failed request is journaled, counted as incorrect by scoring, and sent again by the next run
(fresh retry budget), so a run spoiled by an outage is repaired by rerunning it once the endpoint
is back. When more than ``run.max_failed_share`` (or the workload's own) of the requests failed,
``atlas infer`` still writes the journal, manifest and serving metrics, then exits with
:attr:`TooManyFailures.exit_code` so that neither a user nor ``dvc repro`` takes the result as
finished. The line gives the counts by error kind and the likely cause.

The line names ``model.api_key_env``'s variable when refused keys are the likely cause, and the
kinds the failed requests' first tries failed with when those differ from their last (a server
that broke its streams off, then refused every connection, fails with ``connection`` after
``stream_torn``).

A ``context_overflow`` is not counted in that share: a prompt longer than the model's context
window fails the same way every time, whatever the endpoint's health (the embedded model's 8k
window and the long-context suites), so it is a result of the run, not a sign of an outage. It
is still journaled as a failure, scored as incorrect and sent again by a rerun (a larger
``model.context_length`` may take it).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from stages.errors import AtlasError

LIKELY_CAUSE = {
    "connection": "connection errors: is the endpoint up?",
    "timeout": "total timeouts: is the server trickling? (see run.timeout_s)",
    "first_byte_timeout": (
        "answers that never started: is the endpoint overloaded? "
        "(see run.first_byte_timeout_s, run.concurrency)"
    ),
    "stall": "answers that stopped midway: is the server stuck? (see run.stall_timeout_s)",
    "http_4xx": "HTTP 4xx answers: check model.base_url, model.name and the API key",
    "http_429": "rate limiting (HTTP 429): lower run.concurrency",
    "http_5xx": "server errors (HTTP 5xx): see the server's log",
    "stream_torn": "streams that broke off: is the server or a proxy restarting?",
    "stream_empty": (
        "streams that ended without an answer: does the server abort a running request when "
        "a new one comes (llama-cpp-python does by default)? Lower run.concurrency"
    ),
    "answer_too_large": (
        "answers larger than run.max_answer_bytes: does the server ignore max_tokens?"
    ),
    "auth": "refused credentials (HTTP 401/403, or an error naming the key or authentication)",
    "invalid_response": "answers that are not chat completions: check model.base_url",
    "redirect": "redirects, not followed (requests carry the key): set model.base_url to the "
    "URL that answers",
    "tls": "TLS failures: is the endpoint's CA trusted? (see SSL_CERT_FILE)",
}
NOT_COUNTED = "context_overflow"


class TooManyFailures(AtlasError):
    """More requests failed than the workload tolerates; a rerun sends only those."""

    exit_code = 3


def _top(by_kind: dict[str, int]) -> str:
    """The most frequent kind (the last name of those tied)."""
    return max(by_kind.items(), key=lambda item: (item[1], item[0]))[0]


def likely_cause(failed_by_kind: dict[str, int], requests: int) -> str:
    """The most frequent kind, phrased as a cause."""
    kind = _top(failed_by_kind)
    count = failed_by_kind[kind]
    cause = LIKELY_CAUSE.get(kind, f"{kind} errors")
    if count == requests:
        return f"every request failed with {cause}"
    if count == sum(failed_by_kind.values()):
        return f"the failure is one of {cause}" if count == 1 else f"all {count} are {cause}"
    return f"most failures are {cause}"


def first_kinds(records: list[dict[str, Any]]) -> dict[str, int]:
    """Per kind, the failed records whose first try failed with another kind than their last
    (a server that broke streams off and then refused every connection: ``stream_torn`` first).
    Records of journals without ``tries`` have none to tell."""
    found: Counter[str] = Counter()
    for record in records:
        error, tries = record.get("error"), record.get("tries") or ()
        if error and tries and tries[0].get("kind") != error.get("kind"):
            found[str(tries[0].get("kind"))] += 1
    return dict(found)


def check_failed_share(
    name: str,
    failed_by_kind: dict[str, int],
    requests: int,
    max_share: float,
    first: dict[str, int] | None = None,
    key_note: str | None = None,
) -> None:
    """Raise :class:`TooManyFailures` when more than ``max_share`` of ``requests`` failed
    (context overflows aside). ``first``: :func:`first_kinds` of the records, named after the
    likely cause; ``key_note``: what the run knows about its key, named when keys were refused."""
    counted = {kind: n for kind, n in failed_by_kind.items() if kind != NOT_COUNTED}
    failed = sum(counted.values())
    if not requests or failed / requests <= max_share:
        return
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(counted.items()))
    overflow = failed_by_kind.get(NOT_COUNTED, 0)
    if overflow:
        kinds += f"; and {overflow} context_overflow, not counted"
    cause = likely_cause(counted, requests)
    if key_note and _top(counted) == "auth":
        cause += f"; {key_note}"
    cause += "" if cause.endswith("?") else "."
    if first:
        earlier = ", ".join(f"{kind} {n}" for kind, n in sorted(first.items()))
        kind = _top(first)
        cause += (
            f" Their first tries failed otherwise ({earlier}): "
            f"{LIKELY_CAUSE.get(kind, f'{kind} errors')}"
        )
        cause += "" if cause.endswith("?") else "."
    raise TooManyFailures(
        f"{name}: {failed} of {requests} requests failed ({kinds}), more than the "
        f"{max_share:g} tolerated; {cause} A rerun sends only the failed requests again "
        "(--keep-failed keeps failures as results)"
    )
