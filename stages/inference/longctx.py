"""Long-context prompts from haystack recipes (spec 001, "The haystack algorithm").

eval-longctx rows carry a recipe in ``meta.haystack`` and a ``prompt`` that is only the question.
Sending that question without its document reads as a catastrophic accuracy drop, so this module
is the single way such a row becomes text: the reference builder ``haystack-v1/build.py``
(standard library only, loaded from the datasets root) turns the recipe into
``PREAMBLE + document + question``. A missing recipe or builder is an error, never a fallback.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from stages.datasets.normative import load_dataset_module
from stages.errors import AtlasError

BUILDER = Path("haystack-v1") / "build.py"
_builders: dict[Path, Callable[[dict[str, Any]], str]] = {}


def load_builder(datasets_root: Path) -> Callable[[dict[str, Any]], str]:
    """``build_prompt`` from ``<datasets_root>/haystack-v1/build.py`` (imported once per path)."""
    path = (datasets_root / BUILDER).resolve()
    if path in _builders:
        return _builders[path]
    if not path.is_file():
        raise AtlasError(f"{path}: missing; long-context rows need the haystack-v1 builder")
    module = load_dataset_module(path)
    build = getattr(module, "build_prompt", None)
    if not callable(build):
        raise AtlasError(f"{path}: defines no build_prompt(item)")
    _builders[path] = build
    return build


def longctx_prompt(recipe: Any, question: str, datasets_root: Path, where: str) -> str:
    """The full prompt (document + question) for a recipe; ``question`` fills a missing one."""
    if recipe is None:
        raise AtlasError(
            f"{where}: meta.haystack: missing; a long-context row is sent with its document, "
            "never as the question alone"
        )
    if not isinstance(recipe, dict):
        raise AtlasError(f"{where}: meta.haystack: expected a recipe object")
    item = dict(recipe)
    item.setdefault("question", question)
    build = load_builder(datasets_root)
    try:
        text = build(item)
    except Exception as exc:  # the recipe is data: name the row that broke the builder
        raise AtlasError(f"{where}: meta.haystack: build_prompt failed: {exc!r}") from exc
    if not isinstance(text, str) or len(text) <= len(str(item["question"])):
        raise AtlasError(f"{where}: meta.haystack: build_prompt returned no document")
    return text
