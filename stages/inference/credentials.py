"""A refused or missing API key: how it is recognised, named and how it stops a run (issue 31).

An answer is an ``auth`` failure when its status is 401 or 403, or when it is any other error
status (not 429, not a context overflow) whose body speaks of authentication: ``api key``,
``api_key``, ``x-api-key``, ``authenticat…``, ``authoriz…``, ``unauthoriz…``, ``credential``
or ``bearer`` (:data:`AUTH_WORDS`). Proxies wrap the upstream's refusal in whatever status they
like: LiteLLM answers a missing key with ``500 litellm.AuthenticationError: … The api_key client
option must be set …`` and a wrong one with a 400, so the status alone misses them; the words
are those the engines' and proxies' refusals use, and not ``key`` or ``token`` alone, which
every other error mentions too (``max_tokens``, ``key error``).

An ``auth`` failure is not retried: the same key is refused again. Its message starts with what
the run knows about the key (:func:`key_note`): the variable ``model.api_key_env`` names, and
whether it was unset (no key was sent) or its key was refused. After :data:`STOP_AFTER` of them
in a row a sending process takes no more work, and ``atlas infer`` ends with exit code 3 and
that message (:func:`check_stopped`) before it sends the rest.
"""

from __future__ import annotations

import re
from typing import Any

from stages.errors import AtlasError

AUTH_WORDS = re.compile(r"api[\s_-]?key|authenticat|authori[sz]|credential|bearer", re.IGNORECASE)
"""Words of an authentication refusal in an error body (any status but 429)."""
STOP_AFTER = 3
"""Consecutive ``auth`` failures of one sending process after which it takes no more work: one
could be a key being rotated, three in a row are a key that does not work."""
KIND = "auth"


def is_refusal(status: int, body: str) -> bool:
    """Whether an error answer refuses the credentials (see the module's rule)."""
    if status in (401, 403):
        return True
    return status >= 400 and status != 429 and AUTH_WORDS.search(body) is not None


def key_note(api_key_env: str | None, key_sent: bool) -> str:
    """What the run knows about its key, for the messages of refused requests (never the key)."""
    if api_key_env is None:
        return "no API key is configured (model.api_key_env is null), so none was sent"
    if not key_sent:
        return (
            f"the environment variable {api_key_env} (model.api_key_env) is not set, "
            "so no API key was sent"
        )
    return f"the API key in {api_key_env} (model.api_key_env) was refused"


class KeyRefused(AtlasError):
    """The endpoint refused the run's credentials repeatedly; the run stopped sending."""

    exit_code = 3


class Streak:
    """Consecutive ``auth`` failures of one sending process."""

    def __init__(self) -> None:
        self.count = 0

    def note(self, error: dict[str, str] | None) -> bool:
        """Count one finished request; True once the streak is long enough to stop."""
        self.count = self.count + 1 if (error or {}).get("kind") == KIND else 0
        return self.count >= STOP_AFTER


def check_stopped(label: str, todo: int, fresh: list[dict[str, Any]]) -> None:
    """Raise :class:`KeyRefused` when the pass stopped before sending its ``todo`` requests
    because of refused credentials (``fresh``: the records it journaled)."""
    refused = [r for r in fresh if (r.get("error") or {}).get("kind") == KIND]
    if len(fresh) >= todo or not refused:
        return
    raise KeyRefused(
        f"{label}: stopped after {len(fresh)} of {todo} requests, {len(refused)} of them "
        f"refused: {refused[0]['error']['message']}. Nothing more was sent; fix the key and run "
        "again (the refused requests are sent again)"
    )
