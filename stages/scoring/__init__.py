"""Scoring: answer extraction and one module per row scorer (spec 001, "Answer extraction").

:func:`accuracy_interval` and :func:`accuracy_estimate` (``stages.scoring.interval``, imported
lazily): one revision's accuracy with its cluster-aware interval (issue 18).
"""

from __future__ import annotations

from stages.lazy import lazy_attributes

_LAZY = {
    "accuracy_interval": "stages.scoring.interval",
    "accuracy_estimate": "stages.scoring.interval",
}
__getattr__ = lazy_attributes("stages.scoring", _LAZY)
__all__ = sorted(_LAZY)
