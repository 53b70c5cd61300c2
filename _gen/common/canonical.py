"""The canonical bytes of every generated file (standard library only).

UTF-8, one JSON object per line, ``\\n`` line ends, a trailing newline, and a fixed key order:
the schema's leading keys first, then the rest sorted; nested objects sorted. ``lib`` writes
rows and cards with these functions, and ``fresh`` compares items by them, so two rows are the
same item exactly when their canonical lines are equal.
"""

from __future__ import annotations

import json
from typing import Any

_LEADING_KEYS = (
    "id",
    "kind",
    "category",
    "difficulty",
    "topic",
    "bucket",
    "lang",
    "code_lang",
    "task",
    "approx_tokens",
    "target_tokens",
    "seed",
    "algorithm",
    "shared_prefix",
    "messages",
    "prompt",
    "question",
    "choices",
    "answer",
    "scorer",
    "tests",
    "image",
    "needles",
)


def _ordered(obj: Any, top: bool = False) -> Any:
    if isinstance(obj, dict):
        keys = sorted(obj)
        if top:
            keys = [k for k in _LEADING_KEYS if k in obj] + [
                k for k in keys if k not in _LEADING_KEYS
            ]
        return {k: _ordered(obj[k]) for k in keys}
    if isinstance(obj, list):
        return [_ordered(v) for v in obj]
    return obj


def canonical_line(row: dict[str, Any]) -> str:
    """One row as its canonical JSON line (without the newline)."""
    return json.dumps(_ordered(row, top=True), ensure_ascii=False, allow_nan=False)


def canonical_json(obj: Any) -> str:
    """A whole JSON document: sorted keys, two-space indent, trailing newline."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, indent=2, allow_nan=False) + "\n"
