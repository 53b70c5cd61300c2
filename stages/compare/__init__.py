"""Comparing two revisions item by item: ``atlas compare A B`` (issues 10 and 18).

Item verdicts are git-tracked (``metrics/verdicts/<workload>.jsonl``), so two commits, two DVC
experiments or a commit and the workspace can be paired without the DVC cache.

The Python API (imported lazily, so that ``import stages.compare`` stays light):
:func:`compare_records` (``stages.compare.api``), :class:`Row` (``stages.compare.row``) and
:class:`VerdictRecord` (``stages.compare.records``).
"""

from __future__ import annotations

from stages.lazy import lazy_attributes

_LAZY = {
    "compare_records": "stages.compare.api",
    "Row": "stages.compare.row",
    "VerdictRecord": "stages.compare.records",
}
__getattr__ = lazy_attributes("stages.compare", _LAZY)
__all__ = sorted(_LAZY)
