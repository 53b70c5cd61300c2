"""A dataset as ``atlas infer`` and ``atlas score`` accept it: published bytes intact, rows there.

Checked at the door of both commands (issue 11), before anything is sent or written:

* a published dataset (``datasets/registry.json``) must still hash to what was pinned, file by
  file; a changed, added or removed file is refused, naming it, and ``atlas check`` tells the
  rest. Its rows are then parsed without re-validating them against the row schemas:
  ``atlas check`` validated exactly these bytes, and hashing is far cheaper than validating.
* an unpublished dataset (a new one being written) is validated row by row, as before;
* a dataset without a single row is refused (nothing to send, nothing to score).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stages.datasets.load import (
    DATASETS_DIR,
    ROWS_FILE,
    Dataset,
    dataset_dir,
    load_card,
    validate_rows,
)
from stages.datasets.registry import file_digests, load_registry, registry_path
from stages.errors import AtlasError
from stages.io import iter_jsonl


def verify_published(dataset_id: str, root: Path = DATASETS_DIR) -> bool:
    """Raise if published ``dataset_id`` no longer matches the registry; False if unpublished."""
    pinned = load_registry(root).get(dataset_id)
    if pinned is None:
        return False
    path = root / dataset_id
    actual = file_digests(path) if path.is_dir() else {}
    for rel in sorted(set(pinned) | set(actual)):
        if pinned.get(rel) == actual.get(rel):
            continue
        change = (
            "was removed" if rel not in actual else "was added" if rel not in pinned else "changed"
        )
        raise AtlasError(
            f"{path / rel} {change} since publication ({dataset_id} is pinned in "
            f"{registry_path(root)}); "
            "a published dataset never changes: run `atlas check`, and publish a fix as a new "
            "-v2 id"
        )
    return True


def load_verified(dataset_id: str, root: Path = DATASETS_DIR) -> Dataset:
    """The dataset, refused if its published bytes changed or it has no rows."""
    path = dataset_dir(dataset_id, root)
    published = verify_published(dataset_id, root)
    card = load_card(path)
    rows: list[dict[str, Any]]
    if published:
        rows = [row for _, row in iter_jsonl(path / ROWS_FILE)]
    else:
        rows, problems = validate_rows(path, card.kind)
        if problems:
            raise AtlasError("; ".join(problems[:5]))
    if not rows:
        raise AtlasError(f"{path / ROWS_FILE}: no rows: dataset {dataset_id} is empty")
    return Dataset(path=path, card=card, rows=rows)
