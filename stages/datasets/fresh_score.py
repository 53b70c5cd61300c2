"""The ``fresh`` block of ``metrics/<w>.json``: public versus fresh-instance accuracy (issue 13).

A model that has seen the public items scores higher on them than on fresh instances of the same
generator (GSM1k, Zhang et al. 2024; GSM-Symbolic, Mirzadeh et al. 2024). Definitions:

* accuracy is over items: an item's score is the mean correctness of its repeats (greedy runs
  have one), over binary records (failed requests count as wrong, as in the main metrics);
* ``instances``: each fresh seed's accuracy, items sent, and ``overlap`` (sent fresh items that
  repeat a public item, which dilute the probe); ``mean``, ``sd`` (sample, ddof=1), ``min`` and
  ``max`` over instances describe the spread across re-instantiations;
* ``gap`` = public accuracy − pooled fresh accuracy (every instance sends the same number of items,
  so the pooled accuracy equals the mean of the instances);
* ``gap_ci95``: Newcombe's hybrid score interval for a difference of two independent proportions
  (Newcombe 1998, method 10), public items against pooled fresh items, each side from its Wilson
  interval. Why: the two samples are independent draws (different items), and unlike the Wald
  interval it stays inside [-1, 1] and keeps its coverage at accuracies near 0 or 1 and at the
  small n of quick runs. Items sharing a passage are treated as independent (no clustering).
"""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any

from stages.datasets.audit import wilson
from stages.datasets.fresh import load_fresh, overlap
from stages.datasets.fresh_run import fresh_results
from stages.datasets.load import ROWS_FILE, Dataset
from stages.errors import AtlasError
from stages.io import read_json, sha256_file
from stages.params import WorkloadParams
from stages.scoring.metrics import ScoredRecord
from stages.scoring.records import (
    ScoreFn,
    ScoringContext,
    read_journal,
    score_sent_row,
    sent_rows,
)

INTERVAL = "newcombe-hybrid-score-95: public items vs pooled fresh items (independent samples)"


def newcombe(k1: float, n1: int, k2: float, n2: int) -> tuple[float, float]:
    """95 % Newcombe hybrid score interval for ``k1/n1 - k2/n2`` (independent proportions)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(p1, n1)
    l2, u2 = wilson(p2, n2)
    low = p1 - p2 - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = p1 - p2 + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return low, high


def item_scores(records: list[ScoredRecord]) -> dict[str, float]:
    """Each item's mean correctness over its binary records (items without any are left out)."""
    by_item: dict[str, list[bool]] = {}
    for record in records:
        if record.binary:
            by_item.setdefault(record.id, []).append(record.correct is True)
    return {item: sum(v) / len(v) for item, v in by_item.items()}


def _instance(
    name: str, seed: int, params: WorkloadParams, score_fn: ScoreFn | None
) -> tuple[Dataset, list[dict[str, Any]], list[ScoredRecord]]:
    folder = fresh_results(name) / f"seed-{seed}"
    manifest_path = folder / "manifest.json"
    if not manifest_path.is_file():
        raise AtlasError(f"{manifest_path}: file not found (run `atlas infer {name}` first)")
    manifest = read_json(manifest_path)
    dataset = load_fresh(params.dataset, seed)
    if manifest["dataset"]["sha256"] != sha256_file(dataset.path / ROWS_FILE):
        raise AtlasError(
            f"{manifest_path}: dataset.sha256: fresh instance {dataset.path} changed since the "
            f"run (run `atlas infer {name}` again)"
        )
    journal = read_journal(folder / "responses.jsonl", manifest["run_key"])
    context = ScoringContext("eval", dataset.path, dataset.card.default_scorer, score_fn)
    rows = sent_rows(dataset, manifest, journal, params.limit, manifest_path)
    records = [record for row in rows for record in score_sent_row(row, journal, context)]
    return dataset, rows, records


Instance = tuple[int, Dataset, list[dict[str, Any]], list[ScoredRecord]]


def score_instances(name: str, params: WorkloadParams, score_fn: ScoreFn | None) -> list[Instance]:
    """(seed, dataset, rows sent, scored records) of every fresh instance of workload ``name``;
    their verdict lines (with the seed) let ``atlas compare`` pair instances (issue 18)."""
    return [(seed, *_instance(name, seed, params, score_fn)) for seed in params.fresh_seeds or []]


def fresh_block(
    name: str,
    public: Dataset,
    public_records: list[ScoredRecord],
    scored: list[Instance],
) -> dict[str, Any]:
    """Compare the scored fresh instances of workload ``name`` with its public set."""
    public_items = item_scores(public_records)
    if not public_items:
        raise AtlasError(f"workload {name}: no scored public items to compare fresh ones with")
    instances: dict[str, dict[str, Any]] = {}
    pooled: list[float] = []
    for seed, dataset, rows, records in scored:
        scores = item_scores(records)
        if not scores:
            raise AtlasError(f"workload {name}: fresh seed {seed} has no scored items")
        pooled += scores.values()
        instances[str(seed)] = {
            "n": len(scores),
            "accuracy": _round(sum(scores.values()) / len(scores)),
            "overlap": len(overlap(public, dataset, rows)),
            "sha256": sha256_file(dataset.path / ROWS_FILE),
        }
    accuracies = [float(i["accuracy"]) for i in instances.values()]
    k1, n1 = sum(public_items.values()), len(public_items)
    k2, n2 = sum(pooled), len(pooled)
    low, high = newcombe(k1, n1, k2, n2)
    return {
        "seeds": [seed for seed, *_ in scored],
        "public": {"n": n1, "accuracy": _round(k1 / n1)},
        "instances": instances,
        "mean": _round(statistics.fmean(accuracies)),
        "sd": _round(statistics.stdev(accuracies)) if len(accuracies) > 1 else None,
        "min": min(accuracies),
        "max": max(accuracies),
        "gap": _round(k1 / n1 - k2 / n2),
        "gap_ci95": {"low": _round(low), "high": _round(high)},
        "interval": INTERVAL,
    }


def _round(value: float) -> float:
    return round(value, 4)
