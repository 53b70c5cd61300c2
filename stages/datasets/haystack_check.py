"""``atlas check`` hook: rebuild every haystack document and verify it (spec 001, "The haystack
algorithm": "every row records in sha256 and check.py re-verifies").

Two kinds of dataset carry haystack recipes:

* a ``haystack`` dataset ships its own ``build.py``; each row is a recipe whose ``sha256``,
  ``chars``, ``lines``, ``approx_tokens`` and needle ``line_number`` must match the rebuilt
  document, and whose ``static_file`` (documents of at most 32k tokens) must hold exactly that
  document plus one trailing newline;
* an ``eval`` dataset whose rows carry ``meta.haystack`` (eval-longctx-v1) is rebuilt with its own
  ``build.py`` or, failing that, the sibling ``haystack-v1/build.py``; its ``prompt`` must be the
  recipe's question alone, because inference sends ``build_prompt(meta.haystack)``.

The builder is the dataset's normative code, loaded from the file itself, never from ``_gen/``.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from types import ModuleType
from typing import Any

from stages.datasets.normative import load_dataset_module
from stages.errors import AtlasError
from stages.io import iter_jsonl, read_json

BUILDER_FILE = "build.py"
HAYSTACK_DATASET = "haystack-v1"
STATIC_MAX_TOKENS = 32768


def load_builder(path: Path) -> ModuleType:
    """Import a dataset's ``build.py``."""
    return load_dataset_module(path)


def _mismatches(recipe: dict[str, Any], document: str, lines: list[int]) -> list[str]:
    """Each recorded fact of ``recipe`` that the rebuilt document contradicts."""
    found = {
        "sha256": hashlib.sha256(document.encode("utf-8")).hexdigest(),
        "chars": len(document),
        "lines": document.count("\n") + 1,
        "approx_tokens": math.ceil(len(document) / 4),
    }
    problems = [
        f"{key}: recorded {recipe[key]!r}, rebuilt {value!r}"
        for key, value in found.items()
        if key in recipe and recipe[key] != value
    ]
    if "sha256" not in recipe:
        problems.append("sha256: missing, so the document cannot be verified")
    recorded = [n.get("line_number") for n in recipe["needles"]]
    if any(r is not None for r in recorded) and recorded != lines:
        problems.append(f"needles.line_number: recorded {recorded}, rebuilt {lines}")
    return problems


def _static_problems(dataset: Path, row: dict[str, Any], document: str) -> list[str]:
    expected = f"static/{row['id']}.txt" if row["target_tokens"] <= STATIC_MAX_TOKENS else None
    if row.get("static_file") != expected:
        return [f"static_file: is {row.get('static_file')!r}, expected {expected!r}"]
    if expected is None:
        return []
    path = dataset / expected
    if not path.is_file():
        return [f"static_file: {expected} does not exist"]
    if path.read_bytes() != (document + "\n").encode("utf-8"):
        return [f"static_file: {expected} is not the rebuilt document plus one newline"]
    return []


def _builder_path(dataset: Path, kind: str) -> Path | None:
    own = dataset / BUILDER_FILE
    if own.is_file() or kind == "haystack":
        return own
    shared = dataset.parent / HAYSTACK_DATASET / BUILDER_FILE
    return shared if shared.is_file() else None


def haystack_failures(dataset_path: Path) -> list[str]:
    """Every disagreement between recorded haystack facts and the rebuilt documents."""
    try:
        kind = read_json(dataset_path / "dataset.json").get("kind")
        rows = list(iter_jsonl(dataset_path / "rows.jsonl"))
    except (AtlasError, AttributeError):
        return []  # the structure check already reports unreadable cards and rows
    rows_path = dataset_path / "rows.jsonl"
    if kind == "haystack":
        items = [(number, row, row) for number, row in rows]
    elif kind == "eval":
        items = [
            (number, row, row["meta"]["haystack"])
            for number, row in rows
            if isinstance(row.get("meta"), dict) and isinstance(row["meta"].get("haystack"), dict)
        ]
    else:
        return []
    if not items:
        return []
    builder_path = _builder_path(dataset_path, kind)
    if builder_path is None or not builder_path.is_file():
        return [f"{dataset_path}: {BUILDER_FILE}: no haystack builder to rebuild the documents"]
    try:
        builder = load_builder(builder_path)
    except Exception as exc:  # the builder is data here: any defect is a check failure
        return [f"{builder_path}: cannot be loaded: {exc}"]
    failures: list[str] = []
    for number, row, recipe in items:
        where = f"{rows_path}:{number}: row {row.get('id')}"
        try:
            document, lines = builder.build(recipe)
        except Exception as exc:
            failures.append(f"{where}: rebuild failed: {type(exc).__name__}: {exc}")
            continue
        problems = _mismatches(recipe, document, lines)
        if kind == "haystack":
            problems += _static_problems(dataset_path, row, document)
        elif row.get("prompt") != recipe.get("question"):
            problems.append("prompt: must be meta.haystack.question alone (build_prompt adds rest)")
        failures += [f"{where}: {problem}" for problem in problems]
    return failures
