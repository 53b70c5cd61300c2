"""Fresh-seed instances: a published generator re-run under another seed (issue 13).

``atlas dataset fresh ID --seed S`` writes ``fresh/seed-S/ID/``: the same generator and row
count, drawn from other random streams, so the items are new while their distribution (family,
difficulty and answer format per row index) stays that of the public set. The copy is
unpublished, git-ignored and never inside ``datasets/``; its card records ``generator.fresh_seed``.

How the seed gets in without touching a published byte: ``row_rng`` (``_gen/common/seeds.py``, which
every generator reaches as ``lib.row_rng``) mixes in the ``ATLAS_FRESH_SEED`` environment variable
when it is set, and nothing else changes. Every generator draws each row from ``row_rng``, so the
published datasets (variable unset, which ``atlas dataset generate`` and ``atlas check`` enforce)
regenerate byte for byte. The same seed gives the same bytes (``PYTHONHASHSEED`` is fixed as for the
published data); another seed, other items. Rows that cannot be built or proved, or that repeat a
public item or an earlier row, are drawn again (``_gen/common/fresh.py``); when a generator still
fails for a seed, its message says why and another seed usually works.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stages.datasets.leaks import content_key
from stages.datasets.generate import generate
from stages.datasets.load import DATASETS_DIR, Dataset, load_card, load_dataset
from stages.errors import AtlasError

FRESH_DIR = Path("fresh")
#: A generator that loops on a draw it cannot satisfy is stopped after this long.
TIMEOUT_S = 300.0


def fresh_root(seed: int, base: Path = FRESH_DIR) -> Path:
    """Where instances drawn under ``seed`` live: ``fresh/seed-<seed>/`` (one folder per id)."""
    return base / f"seed-{seed}"


def make_fresh(
    dataset_id: str,
    seed: int,
    root: Path = Path("."),
    base: Path = FRESH_DIR,
    datasets_root: Path = DATASETS_DIR,
) -> Path:
    """Write the fresh instance of ``dataset_id`` under ``seed``; returns its directory."""
    card = load_card(root / datasets_root / dataset_id)
    if card.generator is None:
        raise AtlasError(f"{dataset_id} is imported, not generated: it has no fresh instances")
    out = root / fresh_root(seed, base) / dataset_id
    if out.resolve().is_relative_to((root / datasets_root).resolve()):
        raise AtlasError(f"{out}: fresh instances never go into {datasets_root}/")
    try:
        return generate(
            dataset_id, budget_mb=0, root=root, out=out, fresh_seed=seed, timeout_s=TIMEOUT_S
        )
    except AtlasError as exc:
        raise AtlasError(f"{dataset_id} under fresh seed {seed}: {exc}") from exc


def load_fresh(dataset_id: str, seed: int, base: Path = FRESH_DIR) -> Dataset:
    """Load an instance, (re)generating it when missing; it must carry the seed it is named by."""
    path = fresh_root(seed, base) / dataset_id
    if not (path / "dataset.json").is_file():
        make_fresh(dataset_id, seed, base=base)
    dataset = load_dataset(dataset_id, fresh_root(seed, base))
    generator = dataset.card.generator
    if generator is None or generator.fresh_seed != seed:
        raise AtlasError(f"{path}: its card does not record fresh_seed {seed}")
    return dataset


def overlap(public: Dataset, fresh: Dataset, rows: list[dict[str, Any]] | None = None) -> list[str]:
    """Ids of fresh ``rows`` (default: all) that repeat a public item: same prompt after
    normalisation, same image or document, mc options in any order (``audit.content_key``)."""
    seen = {content_key(row, public.path) for row in public.rows}
    chosen = fresh.rows if rows is None else rows
    return [row["id"] for row in chosen if content_key(row, fresh.path) in seen]
