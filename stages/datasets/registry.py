"""``datasets/registry.json``: published ids pinned to the sha256 of every file they hold.

Published datasets are immutable. Two results are comparable only when they saw the same bytes,
so a change to a published dataset is an error that asks for a new ``-v2`` id instead.
"""

from __future__ import annotations

from pathlib import Path

from stages.datasets.load import CARD_FILE, DATASETS_DIR, dataset_dir, load_card
from stages.errors import AtlasError
from stages.io import read_json, sha256_file, write_json

REGISTRY_FILE = "registry.json"


def registry_path(root: Path = DATASETS_DIR) -> Path:
    return root / REGISTRY_FILE


def load_registry(root: Path = DATASETS_DIR) -> dict[str, dict[str, str]]:
    """Published id -> {relative file path -> sha256}; empty when nothing is published."""
    path = registry_path(root)
    if not path.exists():
        return {}
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("published"), dict):
        raise AtlasError(f"{path}: expected an object with a 'published' mapping")
    return data["published"]


def file_digests(path: Path) -> dict[str, str]:
    """sha256 of every file in a dataset directory (the card included), by relative path."""
    return {
        p.relative_to(path).as_posix(): sha256_file(p)
        for p in sorted(path.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


def publish(dataset_id: str, root: Path = DATASETS_DIR) -> dict[str, str]:
    """Pin ``dataset_id`` at its current bytes; refuses to re-pin a changed published dataset."""
    path = dataset_dir(dataset_id, root)
    load_card(path)
    digests = file_digests(path)
    registry = load_registry(root)
    if dataset_id in registry and registry[dataset_id] != digests:
        raise AtlasError(
            f"{dataset_id} is already published with other bytes; a change needs a new -v2 id"
        )
    registry[dataset_id] = digests
    write_json(registry_path(root), {"published": dict(sorted(registry.items()))})
    return digests


def immutability_failures(root: Path = DATASETS_DIR) -> list[str]:
    """One message per published dataset whose files differ from the pinned digests."""
    failures: list[str] = []
    for dataset_id, pinned in load_registry(root).items():
        path = root / dataset_id
        if not (path / CARD_FILE).exists():
            failures.append(f"{dataset_id}: published dataset is missing from {root}")
            continue
        actual = file_digests(path)
        for rel in sorted(set(pinned) | set(actual)):
            if pinned.get(rel) == actual.get(rel):
                continue
            change = "removed" if rel not in actual else "added" if rel not in pinned else "changed"
            failures.append(
                f"{dataset_id}: {path / rel} {change} since publication; a published dataset is "
                f"immutable, so a change needs a new -v2 id"
            )
    return failures
