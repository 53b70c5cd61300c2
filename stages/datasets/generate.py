"""``atlas dataset generate ID``: the ``gen-<id>`` stage — generate, measure, then move (issue 15).

The generator writes into a hidden temporary folder beside ``datasets/`` (same file system, so the
final move is one rename). Only when ``datasets/`` (with this dataset replaced by the new bytes)
plus ``_gen/`` stays within ``check.budget_mb`` does the new folder replace ``datasets/<id>``;
otherwise nothing under ``datasets/`` changes and the error names the largest datasets.
Generators run with ``PYTHONHASHSEED`` fixed (``regen.GEN_HASH_SEED``) so the committed bytes do
not depend on the process; ``atlas check`` then regenerates under two other values.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from stages.datasets.check import GEN_DIR, MB, largest, tree_bytes
from stages.datasets.load import DATASETS_DIR
from stages.datasets.regen import GEN_HASH_SEED, run_generator
from stages.errors import AtlasError

TMP_PREFIX = ".atlas-gen-"


def _replace(source: Path, target: Path) -> None:
    """Put ``source`` at ``target``, replacing an existing directory with two renames."""
    old = target.with_name(f".{target.name}.old")
    if old.exists():
        shutil.rmtree(old)
    if target.exists():
        os.replace(target, old)
    os.replace(source, target)
    shutil.rmtree(old, ignore_errors=True)


def generate(
    dataset_id: str,
    budget_mb: float,
    root: Path = Path("."),
    datasets_root: Path = DATASETS_DIR,
    out: Path | None = None,
    hash_seed: str = GEN_HASH_SEED,
    fresh_seed: int | None = None,
    timeout_s: float | None = None,
) -> Path:
    """Run ``_gen/<id>.py`` into a temporary folder, check the budget, then move it into place.

    ``out`` (default ``datasets/<id>``) is where the dataset lands; the budget counts it as part
    of ``datasets/`` only when it lies there. ``fresh_seed`` draws a fresh instance.
    """
    script = root / GEN_DIR / f"{dataset_id}.py"
    if not script.is_file():
        raise AtlasError(f"{script}: no generator for {dataset_id!r}")
    target = out if out is not None else root / datasets_root / dataset_id
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{dataset_id}-", dir=target.parent.parent))
    try:
        staged = tmp / dataset_id
        error = run_generator(script, staged, root, hash_seed, fresh_seed, timeout_s)
        if error:
            raise AtlasError(f"{script}: generator failed: {error}")
        corpus = root / datasets_root
        inside = target.resolve().parent == corpus.resolve()
        if inside:
            _check_budget(dataset_id, staged, corpus, root / GEN_DIR, budget_mb)
        _replace(staged, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def _check_budget(dataset_id: str, staged: Path, corpus: Path, gen: Path, budget_mb: float) -> None:
    sizes = {
        p.name: tree_bytes(p)
        for p in corpus.iterdir()
        if p.is_dir() and not p.name.startswith(".") and p.name != dataset_id
    }
    sizes[dataset_id] = tree_bytes(staged)
    loose = sum(p.stat().st_size for p in corpus.iterdir() if p.is_file())
    total = sum(sizes.values()) + loose + tree_bytes(gen)
    if total > budget_mb * MB:
        raise AtlasError(
            f"budget: with {dataset_id} at {sizes[dataset_id] / MB:.2f} MB, datasets/ + _gen/ "
            f"would use {total / MB:.2f} MB, over the {budget_mb:g} MB limit (check.budget_mb); "
            f"largest: {largest(sizes)}; nothing was written into {corpus}"
        )
