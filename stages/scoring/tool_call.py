"""``tool_call`` scorer (spec 001, "eval-tools-v1"; docs/datasets.md#rows).

Rules — only ``response["tool_calls"][0]`` is scored; later calls and the reply text are ignored:
- ``answer.tool_call`` is null: correct only when the response holds no tool call at all
  (``tool_calls`` null or empty).
- Otherwise a call must be present and its ``function.name`` must equal the gold name exactly.
- ``function.arguments`` is a JSON string (OpenAI shape). It must decode to a JSON object;
  invalid JSON or a non-object is wrong. An empty or blank string means ``{}`` (some servers
  send "" for a call without arguments); an already-decoded object is accepted as is.
- Arguments match as a *subset* by default: every gold key must be present with a matching
  value, extra keys in the call are tolerated. With ``meta.arguments_match == "exact"`` the key
  sets must be equal as well.
- Values match recursively: strings case-insensitively after stripping (``casefold``); numbers
  numerically (``5 == 5.0``; booleans are not numbers and a numeric *string* is not a number);
  booleans and null by identity; objects by the same subset/exact rule as the top level; lists
  element by element, in order, with equal lengths.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stages.scoring.verdict import Verdict, binary, clip

NAME = "tool_call"


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def values_match(gold: Any, got: Any, exact: bool) -> bool:
    """Whether ``got`` matches ``gold`` under the rules above (``exact`` for object keys)."""
    if isinstance(gold, str):
        return isinstance(got, str) and gold.strip().casefold() == got.strip().casefold()
    if _is_number(gold):
        return _is_number(got) and gold == got
    if isinstance(gold, dict):
        if not isinstance(got, dict) or (exact and got.keys() != gold.keys()):
            return False
        return all(key in got and values_match(v, got[key], exact) for key, v in gold.items())
    if isinstance(gold, list):
        return (
            isinstance(got, list)
            and len(got) == len(gold)
            and all(values_match(g, o, exact) for g, o in zip(gold, got, strict=True))
        )
    return type(gold) is type(got) and gold == got  # booleans and null


def parse_arguments(raw: Any) -> dict[str, Any] | None:
    """The call's arguments as an object, or None when they are not a JSON object."""
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str):
        return None
    if not raw.strip():
        return {}
    try:
        parsed = json.loads(raw)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Judge the first tool call of the response against ``row["answer"]["tool_call"]``."""
    gold = (row["answer"] or {}).get("tool_call")
    calls = response.get("tool_calls") or []
    if gold is None:
        if not calls:
            return binary(NAME, True, None, "no tool call expected and none made")
        return binary(NAME, False, _name_of(calls[0]), f"{len(calls)} unexpected tool call(s)")
    if not calls:
        return binary(NAME, False, None, f"expected a call to {gold['name']!r}, got none")
    function = calls[0].get("function") or {}
    name = function.get("name")
    if name != gold["name"]:
        return binary(NAME, False, name, f"called {name!r}, expected {gold['name']!r}")
    raw = function.get("arguments")
    arguments = parse_arguments(raw)
    shown = raw if isinstance(raw, str) else json.dumps(raw)
    if arguments is None:
        return binary(NAME, False, shown, f"arguments are not a JSON object: {clip(str(shown))}")
    exact = (row.get("meta") or {}).get("arguments_match") == "exact"
    mode = "exact" if exact else "subset"
    ok = values_match(gold.get("arguments") or {}, arguments, exact)
    verb = "match" if ok else "do not match"
    return binary(NAME, ok, shown, f"{name}: arguments {verb} ({mode})")


def _name_of(call: dict[str, Any]) -> str | None:
    name = (call.get("function") or {}).get("name")
    return name if isinstance(name, str) else None
