"""What every sending loop shares: the main pass (:mod:`stages.inference.run`) and each load level
(:mod:`stages.inference.load`, :mod:`stages.inference.openloop`) send alike.

Requests go round-robin to the endpoint's chat-completions URLs with its headers, under the
workload's timeout (else the run's) and the run's retry budget; workers start ``STAGGER_S``
apart, and the garbage collector runs lean while they send.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

from stages.inference.client import Policy
from stages.inference.endpoint import Endpoint
from stages.inference.plan import Plan

STAGGER_S = 0.0005
"""Workers start this far apart, so that answers do not all arrive in the same instant and queue
behind each other in the event loop (which would inflate measured TTFT)."""


def chat_urls(endpoint: Endpoint) -> list[str]:
    """The chat-completions URL of each of the endpoint's base URLs, in order."""
    return [u.rstrip("/") + "/chat/completions" for u in endpoint.urls]


def request_headers(endpoint: Endpoint) -> dict[str, str]:
    return {**endpoint.headers, "Content-Type": "application/json"}


def request_policy(plan: Plan, endpoint: Endpoint) -> Policy:
    """Timeout (the workload's, else the run's), retry budget and the secret to scrub."""
    timeout_s = plan.workload.timeout_s or plan.run.timeout_s
    secrets = (endpoint.secret,) if endpoint.secret else ()
    return Policy(timeout_s=timeout_s, max_retries=plan.run.max_retries, secrets=secrets)


@contextlib.contextmanager
def lean_gc() -> Iterator[None]:
    """Fewer, cheaper garbage collections while sending: the objects alive at the start (modules,
    dataset, bodies) are frozen out of collection and young collections run 14x less often.
    Measured: ~7 % less CPU per request at concurrency 128."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
