"""Fresh instances pooled into the learned baseline of a dataset being published (issue 19).

36 mc rows cannot tell a 5-point shortcut from luck (the 95 % interval is ±15 points wide), and
a generator's shortcut lives in the generator, not in its particular rows. So before a generated
dataset is published, the audit also draws :data:`SEEDS` fresh instances of it (the generator
re-run with ``ATLAS_FRESH_SEED``, exactly as ``atlas dataset fresh`` does: same families,
difficulties and answer formats per row, new items) into a temporary directory and learns on
the committed rows and the fresh ones together: four times the rows, half the interval. The
other audits (scorer strength, mutation, uniqueness, leaks, duplicates) prove the committed
rows, which are what a model is sent. A seed the generator cannot draw is skipped and named.

Published and imported datasets are audited on their committed rows only.
"""

from __future__ import annotations

import json
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from stages.datasets.card import DatasetCard
from stages.datasets.regen import GEN_HASH_SEED, run_generator

SEEDS = (1901, 1902, 1903)
TIMEOUT_S = 300.0
WORKERS = 2


def fresh_rows(card: DatasetCard, root: Path) -> tuple[list[dict[str, Any]], dict[int, str]]:
    """Rows of every fresh instance that builds, and ``{seed: why}`` for those that do not."""
    if card.generator is None:
        return [], {}
    script = root / card.generator.path
    if not script.is_file():
        return [], {seed: f"generator {card.generator.path} not found" for seed in SEEDS}
    with tempfile.TemporaryDirectory(prefix="atlas-audit-") as tmp:

        def draw(seed: int) -> str | None:
            out = Path(tmp) / str(seed) / card.id
            return run_generator(script, out, root, GEN_HASH_SEED, seed, TIMEOUT_S)

        with ThreadPoolExecutor(max_workers=WORKERS) as pool:
            errors = dict(zip(SEEDS, pool.map(draw, SEEDS), strict=True))
        rows: list[dict[str, Any]] = []
        for seed in SEEDS:
            if errors[seed] is None:
                path = Path(tmp) / str(seed) / card.id / "rows.jsonl"
                rows += [json.loads(line) for line in path.read_text("utf-8").split("\n") if line]
    return rows, {seed: why for seed, why in errors.items() if why is not None}
