"""``atlas score-one``: score one output against one row and show the verdict (issue 4: the tool
for looking into a disagreement; spec 001 "Answer extraction and scorers").

``--row`` is a JSON object or the path of a file holding one. The output text is scored as a
successful response. For ``tool_call`` rows the output may be JSON: a list of OpenAI tool calls,
an object with ``tool_calls``, or a single ``{"name", "arguments"}``; anything else means "no
tool call". Rows that need dataset files (``instruction``: ``rules.py``) use the directory of the
row file when it holds one, else the ``datasets/*/`` directory whose ``rows.jsonl`` has the id.
Printed: scorer, extracted, correct (strict), ``flexible: {correct, extracted}`` (issue 12: the
flexible reading, :mod:`stages.scoring.flexible`; for a scorer without one, the strict verdict
and ``extracted: null``), score, why, then the scorer's extras (``em``/``f1`` for drop, ``chrf``
for chrf, ...).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.io import iter_jsonl, read_json
from stages.scoring.registry import score_row

DATASETS = Path("datasets")


def _load_row(row_arg: str) -> tuple[dict[str, Any], Path | None]:
    if row_arg.lstrip().startswith("{"):
        try:
            row = json.loads(row_arg)
        except json.JSONDecodeError as exc:
            raise AtlasError(f"--row: invalid JSON: {exc.msg} (column {exc.colno})") from exc
        source = None
    else:
        source = Path(row_arg)
        row = read_json(source)
    if not isinstance(row, dict):
        raise AtlasError(f"{row_arg}: --row: expected a JSON object")
    return row, source


def _dataset_dir(row: dict[str, Any], source: Path | None) -> Path:
    if source is not None and (source.parent / "rules.py").exists():
        return source.parent
    for rows in sorted(DATASETS.glob("*/rows.jsonl")):
        if any(obj.get("id") == row.get("id") for _, obj in iter_jsonl(rows)):
            return rows.parent
    return source.parent if source is not None else Path(".")


def _tool_calls(output: str) -> list[dict[str, Any]] | None:
    try:
        parsed = json.loads(output)
    except ValueError:
        return None
    if isinstance(parsed, dict) and "tool_calls" in parsed:
        parsed = parsed["tool_calls"]
    elif isinstance(parsed, dict) and "name" in parsed:
        arguments = parsed.get("arguments", {})
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments)
        parsed = [
            {"type": "function", "function": {"name": parsed["name"], "arguments": arguments}}
        ]
    return parsed if isinstance(parsed, list) else None


def score_one_command(row_arg: str, output: str) -> str:
    """The verdict of ``output`` against the row given by ``row_arg``, as a JSON document."""
    row, source = _load_row(row_arg)
    scorer = row.get("scorer")
    tool_calls = _tool_calls(output) if scorer == "tool_call" else None
    response = {"output": output, "tool_calls": tool_calls, "error": None}
    needs_files = scorer == "instruction"
    dataset_dir = (
        _dataset_dir(row, source) if needs_files else (source.parent if source else Path("."))
    )
    verdict = score_row(row, response, dataset_dir)
    flexible = verdict.flexible
    shown: dict[str, Any] = {
        "scorer": verdict.scorer,
        "extracted": verdict.extracted,
        "correct": verdict.correct,
        "flexible": {
            "correct": verdict.correct if flexible is None else flexible.correct,
            "extracted": None if flexible is None else flexible.extracted,
        },
        "score": verdict.score,
        "why": verdict.why,
    }
    shown.update(verdict.extras)
    return json.dumps(shown, ensure_ascii=False, indent=2)
