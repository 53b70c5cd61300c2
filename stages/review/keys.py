"""Blind ids, per-reviewer reading orders and the key that maps blind ids back to items.

Blind ids are a digest of (study, seed, item), so an export is reproducible and committed verdict
files keep pointing at the same items; they reveal nothing a reviewer could read (track order,
stratum, filter decision). Each reviewer reads the items in an order shuffled with their own
seeded generator (spec 002: tiredness late in a file should not hit the same items for everyone).
The key lives under ``results/`` and is never copied into a reading package.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.io import read_json, write_json


@dataclass(frozen=True)
class ReviewItem:
    """One thing reviewers judge: a model response (responses study) or a corpus item (audit)."""

    key: str
    """Stable item key, ``<track>/<row id>/<repeat>`` or ``audit/<corpus id>``."""
    track: str
    row_id: str
    repeat: int = 0
    passes: tuple[int, ...] = (1,)
    fields: dict[str, list[str]] = field(default_factory=dict)
    """Rubric fields asked, by pass number (as text, JSON keys are strings)."""
    group: str | None = None
    stratum: str | None = None
    score: float | None = None


def blind_id(study: str, seed: int, key: str) -> str:
    """``b-`` and 8 hex digits of sha256(study, seed, key)."""
    return "b-" + hashlib.sha256(f"{study}\x1f{seed}\x1f{key}".encode()).hexdigest()[:8]


def reading_order(blind_ids: list[str], seed: int, reviewer: str, pass_no: int) -> list[str]:
    """The reviewer's own seeded shuffle of the items of one pass."""
    order = sorted(blind_ids)
    random.Random(f"{seed}\x1f{reviewer}\x1f{pass_no}").shuffle(order)
    return order


@dataclass
class Key:
    """The mapping from blind ids to items, plus each reviewer's order per pass."""

    study: str
    seed: int
    demo: bool
    items: dict[str, ReviewItem]
    order: dict[str, dict[str, list[str]]]
    runs: dict[str, dict[str, Any]] = field(default_factory=dict)

    def pass_items(self, pass_no: int) -> list[str]:
        return sorted(b for b, item in self.items.items() if pass_no in item.passes)

    def to_json(self) -> dict[str, Any]:
        items = {b: {**asdict(i), "passes": list(i.passes)} for b, i in self.items.items()}
        return {
            "study": self.study,
            "seed": self.seed,
            "demo": self.demo,
            "runs": self.runs,
            "items": items,
            "order": self.order,
        }


def build_key(
    study: str,
    seed: int,
    demo: bool,
    items: list[ReviewItem],
    reviewers: list[str],
    runs: dict[str, dict[str, Any]] | None = None,
) -> Key:
    """Assign blind ids (refusing a digest collision) and every reviewer's reading orders."""
    by_blind: dict[str, ReviewItem] = {}
    for item in items:
        blind = blind_id(study, seed, item.key)
        if blind in by_blind:
            raise AtlasError(
                f"blind id collision between {by_blind[blind].key} and {item.key}; "
                "change the study seed"
            )
        by_blind[blind] = item
    key = Key(study, seed, demo, dict(sorted(by_blind.items())), {}, runs or {})
    passes = sorted({p for item in items for p in item.passes})
    for reviewer in reviewers:
        key.order[reviewer] = {
            str(p): reading_order(key.pass_items(p), seed, reviewer, p) for p in passes
        }
    return key


def save_key(key: Key, path: Path) -> None:
    write_json(path, key.to_json())


def load_key(path: Path) -> Key:
    """Read a key written by ``atlas review export``."""
    if not path.is_file():
        raise AtlasError(f"{path}: no key; run `atlas review export` for this study first")
    data = read_json(path)
    items = {
        b: ReviewItem(**{**raw, "passes": tuple(raw["passes"])}) for b, raw in data["items"].items()
    }
    return Key(data["study"], data["seed"], data["demo"], items, data["order"], data["runs"])
