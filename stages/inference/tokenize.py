"""Reasoning tokens counted by the engine's own tokenizer (issue 33).

Where an engine reports no reasoning tokens in its usage, the reasoning text of each answer
that thought is sent to the engine's tokenizer endpoint, ``POST /tokenize`` at the server's root
(llama.cpp's server reads ``content``, vLLM's and SGLang's ``prompt``; both fields are sent, with
no special tokens added). It is a control request under the network policy
(:func:`stages.network.policy.control_request`) with the chat requests' headers, the API key
included. It runs after the pass, so it never competes with the requests being measured.

The count is put on the record in memory (``reasoning_tokens``) for the figures
(:mod:`stages.protocol.reasoning_timing`), not journaled: the engine's tokenizer gives the same
count on every rerun. The first failure (no such route, a refusal, an unreadable answer) stops
the asking; the requests not counted keep the approximate count.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from stages.network.policy import ControlError, control_request
from stages.protocol.reasoning_timing import reasoning_text

if TYPE_CHECKING:
    from stages.inference.endpoint import Endpoint

TIMEOUT_S = 10.0


def _wanted(record: dict[str, Any]) -> str | None:
    """The reasoning text of a successful record whose engine did not count it; None else."""
    if record.get("error") is not None or record.get("reasoning_channel") is None:
        return None
    usage = record.get("usage")
    details = usage.get("completion_tokens_details") if isinstance(usage, dict) else None
    if isinstance(details, dict) and isinstance(details.get("reasoning_tokens"), int):
        return None
    return reasoning_text(record)


def _count(answer: Any) -> int | None:
    if not isinstance(answer, dict):
        return None
    count = answer.get("count")
    if isinstance(count, int) and not isinstance(count, bool):
        return count
    tokens = answer.get("tokens")
    return len(tokens) if isinstance(tokens, list) else None


def count_reasoning(
    endpoint: Endpoint, records: list[dict[str, Any]], model: str
) -> list[dict[str, Any]]:
    """Count the reasoning of ``records`` with the engine's tokenizer; returns the records that
    got a ``reasoning_tokens`` count (their timings are to be computed again)."""
    wanted = [(r, text) for r in records if (text := _wanted(r)) is not None]
    up = [u for i, u in enumerate(endpoint.urls) if i not in endpoint.down]
    if not wanted or not up:
        return []
    url = up[0].rstrip("/").removesuffix("/v1") + "/tokenize"
    headers = {**endpoint.headers, "Content-Type": "application/json"}
    counted = []
    for record, text in wanted:
        body: dict[str, Any] = {"content": text, "prompt": text, "model": model}
        body.update(add_special=False, add_special_tokens=False)
        try:
            response = control_request(
                "POST", url, headers, TIMEOUT_S, json.dumps(body).encode(), endpoint.embedded
            )
            count = _count(json.loads(response.content)) if response.status_code == 200 else None
        except (ControlError, ValueError):
            count = None
        if count is None:
            break
        record["reasoning_tokens"] = count
        counted.append(record)
    return counted
