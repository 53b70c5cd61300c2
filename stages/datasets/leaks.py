"""Leaks and near-duplicates of the shortcut audit (rules in ``stages.datasets.audit``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from stages.datasets.audit_text import identity_text, labels, prompt_text, stem
from stages.datasets.baselines import AUDITED_SCORERS, gold_stated, named_options
from stages.io import sha256_file

_ASSERT = re.compile(r"^\s*assert\s+(.+?)\s*==\s*(.+?)\s*$")
#: Leak codes (what ``metrics/audit.json`` stores, kept short) and how messages spell them out.
LEAK_TEXT = {
    "gold_option_named": "the prompt states or alone names the gold option",
    "gold_stated": "the prompt states the gold answer",
    "hidden_test": "the prompt shows hidden test line",
}


def describe(code: str) -> str:
    """``gold_option_named:B`` -> ``the prompt states or alone names the gold option B``."""
    kind, _, detail = code.partition(":")
    return f"{LEAK_TEXT[kind]} {detail}".strip()


def leak(row: dict[str, Any]) -> str | None:
    """The leak code of this row (``LEAK_TEXT``), or None (rules in ``stages.datasets.audit``)."""
    if row["scorer"] == "mc":
        gold = labels(row).index(row["answer"])
        if named_options(row) != [gold] or _is_number(row["choices"][gold]):
            return None  # a number in the prompt that equals the gold is often a coincidence
        return f"gold_option_named:{row['answer']}"
    if row["scorer"] in AUDITED_SCORERS:
        return "gold_stated" if gold_stated(row) else None
    if row["scorer"] == "code_exec":
        shown = " ".join(prompt_text(row).split())
        for number, line in enumerate((row.get("tests") or "").splitlines(), 1):
            match = _ASSERT.match(line)
            if match and all(" ".join(part.split()) in shown for part in match.groups()):
                return f"hidden_test:{number}"
    return None


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


def content_key(row: dict[str, Any], path: Path) -> tuple[Any, ...]:
    """What makes two rows the same item (module docstring, ``duplicates``)."""

    media: list[str] = []
    if row.get("image"):
        image = path / row["image"]
        media.append(sha256_file(image) if image.is_file() else row["image"])
    haystack = row.get("meta", {}).get("haystack")
    if isinstance(haystack, dict):
        media.append(str(haystack.get("sha256", haystack)))
    if row.get("scorer") == "mc":
        options = tuple(sorted(identity_text(c) for c in row["choices"]))
        return identity_text(stem(row)), options, tuple(media)
    return identity_text(prompt_text(row)), (), tuple(media)
