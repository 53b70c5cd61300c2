"""The tokenizer-independent length heuristic and the length buckets (spec 001, "Token counts").

``approx_tokens = ceil(chars / 4)`` over every message's content, plus ``shared_prefix`` when set.
It is deliberately independent of any tokenizer, so a prompt keeps its bucket across models.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

TOKEN_HEURISTIC = (
    "approx_tokens = ceil(sum(len(m.content) for m in messages [+ shared_prefix]) / 4)"
)

#: Inclusive ``approx_tokens`` ranges per bucket; ``None`` means unbounded above.
BUCKETS: dict[str, tuple[int, int | None]] = {
    "xs": (0, 64),
    "s": (65, 256),
    "m": (257, 1024),
    "l": (1025, 4096),
    "xl": (4097, 16384),
    "xxl": (16385, None),
}


def approx_tokens(contents: Iterable[str], shared_prefix: str | None = None) -> int:
    """``ceil(total characters / 4)`` over the given message contents and optional prefix."""
    chars = sum(len(text) for text in contents)
    if shared_prefix is not None:
        chars += len(shared_prefix)
    return math.ceil(chars / 4)


def bucket_for(tokens: int) -> str:
    """The bucket whose inclusive range holds ``tokens``."""
    for name, (low, high) in BUCKETS.items():
        if tokens >= low and (high is None or tokens <= high):
            return name
    raise ValueError(f"approx_tokens {tokens} is negative")
