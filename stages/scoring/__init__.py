"""Scoring: answer extraction and one module per row scorer (spec 001, "Answer extraction").

:func:`accuracy_interval` and :func:`accuracy_estimate` (``stages.scoring.interval``, imported
lazily): one revision's accuracy with its cluster-aware interval (issue 18).
"""

from __future__ import annotations

from typing import Any

_LAZY = {
    "accuracy_interval": "stages.scoring.interval",
    "accuracy_estimate": "stages.scoring.interval",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'stages.scoring' has no attribute {name!r}")


__all__ = sorted(_LAZY)
