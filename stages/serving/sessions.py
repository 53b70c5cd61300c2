"""Multi-turn sessions (issue 14, "Multi-turn").

A prompts row may carry ``turns``: user messages that follow its ``messages``. A session sends the
row's first request as it is, then, for each follow-up, the whole conversation so far — the first
request's messages (a ``shared_prefix`` system message included), then for every earlier turn the
model's own answer as an ``assistant`` message and the next user message — after the session's
think time. Every other field of the body (model, decoding, stream options) is the first
request's. A Responses-API session (``model.api: responses``) grows its ``input`` items alike.
Per-turn TTFT then shows what a server's prefix cache saves on the growing prompt.

A turn whose request failed ends its session: later turns would have no answer to follow.
"""

from __future__ import annotations

import json
from typing import Any

from stages.inference.journal import canonical
from stages.protocol.responses_api import conversation_key, input_items


def turn_messages(
    first: list[dict[str, Any]], followups: list[str], answers: list[str], turn: int
) -> list[dict[str, Any]]:
    """The messages of turn ``turn`` (0 is the row's own ``first`` messages)."""
    if not 0 <= turn <= len(followups):
        raise ValueError(f"turn {turn} outside 0..{len(followups)}")
    if len(answers) < turn:
        raise ValueError(f"turn {turn} needs {turn} earlier answers, got {len(answers)}")
    messages = [dict(m) for m in first]
    for k in range(turn):
        messages.append({"role": "assistant", "content": answers[k]})
        messages.append({"role": "user", "content": followups[k]})
    return messages


def turn_body(first_body: bytes, followups: list[str], answers: list[str], turn: int) -> bytes:
    """Canonical bytes of turn ``turn``'s request: the first body with the conversation so far."""
    if turn == 0:
        return first_body
    body = json.loads(first_body)
    key = conversation_key(body)  # a Responses-API body's conversation is its ``input``
    first = body[key]
    messages = turn_messages(first, followups, answers, turn)
    body[key] = messages if key == "messages" else first + input_items(messages[len(first) :])
    return canonical(body)
