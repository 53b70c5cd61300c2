"""Which items share a context and therefore are not independent (issue 10, "Clusters").

Questions asked about one passage, needles hidden in one haystack document and prompts behind one
shared prefix move together: their outcomes are correlated, so a standard error that treats them
as independent is too small. :func:`cluster_of` names the group an item belongs to:

1. ``row["meta"]["cluster"]`` when the dataset puts one there (new datasets do so whenever rows
   share a context);
2. else a rule for datasets published before that field existed (their bytes never change):
   DROP-style rows by their passage, long-context rows by their haystack document, prompts by
   their shared prefix;
3. else the row id: the row is its own cluster.

Rows merely drawn from the same template are independent draws, not a cluster. The repeats of one
item share its cluster because the key depends on the row only, never on the repeat.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

#: Marks the prompt text after a DROP passage (eval-drop-v1 rows are "passage\n\nQuestion: ...").
_DROP_QUESTION = "\n\nQuestion:"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _meta(row: dict[str, Any]) -> dict[str, Any]:
    meta = row.get("meta")
    return meta if isinstance(meta, dict) else {}


def _passage(row: dict[str, Any]) -> str | None:
    prompt = row.get("prompt")
    if row.get("scorer") != "drop" or not isinstance(prompt, str) or _DROP_QUESTION not in prompt:
        return None
    return "passage:" + _digest(prompt.split(_DROP_QUESTION, 1)[0])


def _haystack_document(row: dict[str, Any]) -> str | None:
    meta_recipe = _meta(row).get("haystack")
    recipe = meta_recipe if isinstance(meta_recipe, dict) else row
    # The filler text is fixed by (algorithm, seed, target size); needles differ per question.
    document = {k: recipe.get(k) for k in ("algorithm", "seed", "target_tokens")}
    if document["seed"] is None:
        return None
    return "haystack:" + _digest(json.dumps(document, sort_keys=True))


def _shared_prefix(row: dict[str, Any]) -> str | None:
    prefix = row.get("shared_prefix")
    return "prefix:" + _digest(prefix) if isinstance(prefix, str) and prefix else None


#: Rules of the published datasets, by dataset family (the id without its ``-vN``).
RULES: dict[str, Callable[[dict[str, Any]], str | None]] = {
    "eval-drop": _passage,
    "eval-longctx": _haystack_document,
    "haystack": _haystack_document,
    "prompts-shared-prefix": _shared_prefix,
}


def family(dataset_id: str) -> str:
    """``eval-drop-v1`` -> ``eval-drop``."""
    return re.sub(r"-v\d+$", "", dataset_id)


def cluster_of(dataset_id: str, row: dict[str, Any]) -> str:
    """The cluster key of ``row`` of dataset ``dataset_id`` (see the module docstring)."""
    explicit = _meta(row).get("cluster")
    if isinstance(explicit, str | int) and not isinstance(explicit, bool) and str(explicit):
        return str(explicit)
    rule = RULES.get(family(dataset_id))
    key = rule(row) if rule is not None else None
    return key if key is not None else str(row["id"])
