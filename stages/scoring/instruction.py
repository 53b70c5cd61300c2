"""``instruction`` scorer (spec 001, "The instruction rule DSL").

Rules:
- The dataset's normative ``rules.py`` (in the dataset directory) is the only judge: this module
  imports it by path and calls ``evaluate(answer, text) -> (bool, failed_rules)``. Nothing about
  the DSL is re-implemented here, so the scorer cannot disagree with the dataset — in particular
  with the dataset's own ``meta.example_pass`` texts, which evaluate() accepts.
- ``text`` is the raw model output, byte for byte: none of the four extraction steps is applied
  (spec: the instruction scorer needs the raw text). A ``<think>`` block the server left in the
  output is therefore part of the judged text.
- The item is correct when evaluate() returns true; ``why`` names the failed rules.
- ``rules.py`` is loaded once per path (and again if its modification time changes); a missing
  file or one without ``evaluate`` is a user error (:class:`AtlasError`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from stages.datasets.normative import load_dataset_module
from stages.errors import AtlasError
from stages.scoring.verdict import Verdict, binary

NAME = "instruction"
RULES_FILE = "rules.py"

Evaluate = Callable[[Any, str], tuple[bool, list[Any]]]
_loaded: dict[str, tuple[float, Evaluate]] = {}


def _import(path: Path) -> ModuleType:
    return load_dataset_module(path)


def load_evaluate(dataset_dir: Path) -> Evaluate:
    """The ``evaluate`` function of ``dataset_dir/rules.py`` (cached per path and mtime)."""
    path = os.path.join(dataset_dir, RULES_FILE)  # os.path: this runs once per row
    try:
        mtime = os.stat(path).st_mtime
    except FileNotFoundError as exc:
        raise AtlasError(
            f"{path}: file not found (instruction rows need the dataset's rules)"
        ) from exc
    cached = _loaded.get(path)
    if cached is not None and cached[0] == mtime:
        return cached[1]
    evaluate = getattr(_import(Path(path).resolve()), "evaluate", None)
    if not callable(evaluate):
        raise AtlasError(f"{path}:1: evaluate: no evaluate(answer, text) function")
    _loaded[path] = (mtime, evaluate)
    return evaluate


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge the raw output with the dataset's normative ``evaluate``."""
    text = response.get("output") or ""
    ok, failed = load_evaluate(dataset_dir)(row["answer"], text)
    rules = len((row["answer"] or {}).get("all", []))
    if ok:
        return binary(NAME, True, text, f"all {rules} rules pass")
    shown = json.dumps(list(failed), ensure_ascii=False, default=str)
    why = f"{len(failed)} of {rules} rules fail: {shown}"
    if len(why) > 200:
        why = why[:199] + "…"
    return binary(NAME, False, text, why, failed=json.loads(shown))
