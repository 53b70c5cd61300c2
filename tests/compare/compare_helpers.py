"""Helpers for the compare tests: scored revisions written by hand into a git repository —
dataset rows, ``metrics/<w>.json`` (its signature), ``metrics/verdicts/<w>.jsonl`` and optional
serving metrics."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path
from typing import Any


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True)
    return done.stdout


def commit(root: Path, message: str) -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


def rows_for(dataset_id: str, answers: list[str], categories: list[str]) -> list[dict[str, Any]]:
    return [
        {
            "id": f"{dataset_id[5:9]}-{i:03d}",
            "category": categories[i % len(categories)],
            "prompt": f"Question number {i}: what is the answer?",
            "answer": answer,
            "scorer": "exact",
            "meta": {},
        }
        for i, answer in enumerate(answers)
    ]


def write_dataset(root: Path, dataset_id: str, rows: list[dict[str, Any]]) -> str:
    path = root / "datasets" / dataset_id
    path.mkdir(parents=True, exist_ok=True)
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    (path / "rows.jsonl").write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def write_scored(
    root: Path,
    workload: str,
    dataset_id: str,
    sha: str,
    outcomes: dict[str, bool],
    model: str = "m-a",
    engine: dict[str, Any] | None = None,
    provenance: list[dict[str, Any]] | None = None,
    serving: dict[str, Any] | None = None,
    clusters: dict[str, str] | None = None,
    failed: dict[str, str] | None = None,
) -> None:
    """Write the metrics and verdict files of one workload ({item id: correct}; ``failed``:
    {item id: error kind} of failed requests, wrong whatever ``outcomes`` says)."""
    signature = {
        "workload": workload,
        "dataset": {"id": dataset_id, "sha256": sha},
        "model": {"name": model, "revision": "r1"},
        "decoding": {"temperature": 0.0},
        "scorers": {"exact": "exact-1"},
        "engine": engine,
        "provenance": provenance,
    }
    metrics = root / "metrics"
    (metrics / "verdicts").mkdir(parents=True, exist_ok=True)
    (metrics / f"{workload}.json").write_text(json.dumps({"kind": "eval", "signature": signature}))
    lines = [
        json.dumps(
            {"id": item, "repeat": 0, "cluster": (clusters or {}).get(item, item),
             "correct": ok and item not in (failed or {}), "flexible": None,
             "failed": (failed or {}).get(item), "extracted": "42" if ok else "7"},
            separators=(",", ":"),
        )
        for item, ok in sorted(outcomes.items())
    ]  # fmt: skip
    (metrics / "verdicts" / f"{workload}.jsonl").write_text("".join(x + "\n" for x in lines))
    if serving is not None:
        (metrics / f"{workload}.serving.json").write_text(json.dumps(serving))
