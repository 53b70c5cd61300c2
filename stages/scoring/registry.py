"""Scorer registry and the row dispatcher (docs/scoring.md#one-output-one-verdict; spec 001:
"Always use the row's own scorer").

- :data:`SCORERS` maps every scorer name a row may carry to its function
  ``(row, response, dataset_dir) -> Verdict``; :data:`SCORER_VERSIONS` gives each a version
  string that changes whenever its rules change (it goes into the metrics signature).
- :func:`score_row` dispatches on ``row["scorer"]``. A response whose ``error`` is not null was
  a failed request: incorrect, ``why`` = ``request failed: <kind>`` — for every scorer, before
  anything is extracted. Malformed-but-delivered output is left to the scorer (it is wrong,
  not failed).
- ``review`` rows are human-scored: their verdict is ``correct=None`` and points to the review
  tooling.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.scoring import (
    chrf,
    code_exec,
    contains,
    drop,
    exact,
    instruction,
    mc,
    numeric,
    splice,
    tool_call,
)
from stages.scoring.verdict import Verdict

Scorer = Callable[[dict[str, Any], dict[str, Any], Path], Verdict]


def _review(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    return Verdict("review", None, 0.0, None, "human-scored: see `atlas review`", {})


SCORERS: dict[str, Scorer] = {
    "exact": exact.score,
    "contains": contains.score,
    "numeric": numeric.score,
    "mc": mc.score,
    "instruction": instruction.score,
    "tool_call": tool_call.score,
    "code_exec": code_exec.score,
    "splice": splice.score,
    "drop": drop.score,
    "chrf": chrf.score,
    "review": _review,
}

SCORER_VERSIONS: dict[str, str] = {
    "exact": "exact-3",
    "contains": "contains-3",
    "numeric": "numeric-4",
    "mc": "mc-4",
    "instruction": "instruction-1",
    "tool_call": "tool_call-1",
    "code_exec": "code_exec-2",
    "splice": "splice-2",
    "drop": "drop-2",
    "chrf": "chrf-2",
    "review": "review-1",
}

NON_BINARY = frozenset({"chrf", "review"})


def failed_request(scorer: str, error: dict[str, Any]) -> Verdict:
    """The verdict of a request that never produced an answer."""
    kind = error.get("kind", "unknown") if isinstance(error, dict) else "unknown"
    return Verdict(scorer, False, 0.0, None, f"request failed: {kind}", {"failed": True})


def score_row(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Score one journaled response against its row with the row's own scorer."""
    name = row.get("scorer")
    scorer = SCORERS.get(name) if isinstance(name, str) else None
    if scorer is None:
        raise AtlasError(f"row {row.get('id')}: scorer: unknown scorer {name!r}")
    if response.get("error") is not None:
        return failed_request(str(name), response["error"])
    return scorer(row, response, dataset_dir)
