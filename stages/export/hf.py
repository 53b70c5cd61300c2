"""A scored run as Hugging Face Hub ``.eval_results/`` YAML, for a model repository.

Follows the Hub's "Evaluation Results" page (https://huggingface.co/docs/hub/eval-results):
each ``.eval_results/<name>.yaml`` is a YAML list of results, each with ``dataset`` (``id``, the
Hub dataset; ``task_id``, the task in the dataset's ``eval.yaml``), ``value`` and, optionally,
``date`` (ISO 8601) and ``notes`` (the evaluation setup). One file per figure, because the Hub
keeps different setups of one benchmark in different files. The project's datasets are
generated, not Hub benchmarks: ``dataset.id`` is ``<namespace>/<dataset id>`` for the namespace
the datasets are published under (``--hf-namespace``). Values are on the scale the Hub's
benchmarks use, percentages (chrF++ is one already); ``notes`` carries the 95 % interval, n and
the revision, which the format has no field for.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import yaml

from stages.export.figures import Figure

DEFAULT_NAMESPACE = "inference-atlas"


def _percent(figure: Figure, value: float) -> float:
    # Metrics keep 6 decimals of a proportion: 4 decimals of a percentage lose nothing.
    return round(value * 100, 4) if figure.scale == (0.0, 1.0) else value


def entry(figure: Figure, namespace: str, commit: str | None, when: int | None) -> dict[str, Any]:
    """The YAML entry of one figure."""
    dataset = figure.workload.dataset
    notes = [f"n={figure.n}"]
    if figure.interval is not None:
        low, high = (_percent(figure, v) for v in figure.interval)
        notes.append(f"95% CI {low}-{high} (Wilson, clustered)")
    notes.append(f"dataset sha256 {str(dataset.get('sha256'))[:12]}")
    notes.append(f"inference-atlas {commit[:12] if commit else 'workspace'}")
    found: dict[str, Any] = {
        "dataset": {"id": f"{namespace}/{dataset.get('id')}", "task_id": task_id(figure)},
        "value": _percent(figure, figure.score),
    }
    if when is not None:
        found["date"] = datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    found["notes"] = "; ".join(notes)
    return found


def task_id(figure: Figure) -> str:
    """The workload for its accuracy, ``<workload>-<measure>`` for another of its figures (two
    figures of one task would read as two scores of the same thing)."""
    if figure.measure == "accuracy":
        return figure.workload.name
    return f"{figure.workload.name}-{figure.measure}"


def file_name(figure: Figure) -> str:
    """``.eval_results/<task id>.yaml``."""
    return f".eval_results/{task_id(figure)}.yaml"


def build(
    figures: list[Figure], namespace: str, commit: str | None, when: int | None
) -> dict[str, bytes]:
    """The export's files by path under ``--out``."""
    return {
        file_name(figure): yaml.safe_dump(
            [entry(figure, namespace, commit, when)], sort_keys=False, allow_unicode=True
        ).encode()
        for figure in figures
    }
