"""What ``atlas report`` reads: per workload its metrics, manifest, scored records and serving
metrics, plus ``metrics/check.json`` (issue 4, "Report").

A workload's metrics, manifest and scored records are required (an :class:`AtlasError` names the
missing file); serving metrics and the corpus check are optional because not every pipeline runs
them, and the report says so when they are absent. Timings (time to first token, latency) are
kept out of ``scored.jsonl`` so that re-scoring gives identical bytes; the report joins them from
the journal itself, the file ``dvc pull`` brings back (``timings.jsonl`` is a local convenience
copy that DVC ignores).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.io import iter_jsonl, read_json

METRICS_DIR = Path("metrics")
RESULTS_DIR = Path("results")


@dataclass(frozen=True)
class WorkloadInputs:
    """Everything the report knows about one workload."""

    name: str
    metrics: dict[str, Any]
    """``metrics/<name>.json`` as written by ``atlas score``."""
    manifest: dict[str, Any]
    """``results/<name>/manifest.json`` as written by ``atlas infer``."""
    scored: list[dict[str, Any]]
    """``results/<name>/scored.jsonl``: one object per scored record, with its ``ttft_s`` and
    ``latency_s`` joined from the journal record that was scored (None when it has none)."""
    serving: dict[str, Any] | None
    """``metrics/<name>.serving.json`` when inference wrote one."""

    @property
    def kind(self) -> str:
        return str(self.metrics.get("kind", "eval"))

    @property
    def dataset(self) -> str:
        dataset = self.manifest.get("dataset") or {}
        return str(
            dataset.get("id") or self.metrics.get("signature", {}).get("dataset", {}).get("id")
        )

    @property
    def model(self) -> tuple[str, str]:
        """(name, revision) of the model that answered."""
        model = self.manifest.get("model") or {}
        return str(model.get("name", "?")), str(model.get("revision", "?"))


def _object(path: Path) -> dict[str, Any]:
    data = read_json(path)
    if not isinstance(data, dict):
        raise AtlasError(f"{path}: expected a JSON object")
    return data


def _optional_object(path: Path) -> dict[str, Any] | None:
    return _object(path) if path.is_file() else None


def _seconds(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def with_timings(
    scored: list[dict[str, Any]], journal_path: Path, manifest: dict[str, Any]
) -> list[dict[str, Any]]:
    """Scored records with ``ttft_s``/``latency_s`` of the journal record scoring read (this
    run's, the last per id and repeat; the same selection ``atlas score`` makes)."""
    from stages.scoring.records import read_journal

    run_key = manifest.get("run_key")
    journal = read_journal(journal_path, run_key) if isinstance(run_key, str) else {}
    out = []
    for record in scored:
        measured = journal.get(str(record.get("id")), {}).get(int(record.get("repeat", 0)), {})
        out.append({**record, **{k: _seconds(measured.get(k)) for k in ("ttft_s", "latency_s")}})
    return out


def load_workload(name: str) -> WorkloadInputs:
    """Read one workload's inputs; a missing required file is an error naming it."""
    metrics_path = METRICS_DIR / f"{name}.json"
    if not metrics_path.is_file():
        raise AtlasError(f"{metrics_path}: file not found (run `atlas score {name}` first)")
    scored_path = RESULTS_DIR / name / "scored.jsonl"
    if not scored_path.is_file():
        raise AtlasError(f"{scored_path}: file not found (run `atlas score {name}` first)")
    manifest = _object(RESULTS_DIR / name / "manifest.json")
    scored = [obj for _, obj in iter_jsonl(scored_path)]
    return WorkloadInputs(
        name=name,
        metrics=_object(metrics_path),
        manifest=manifest,
        scored=with_timings(scored, RESULTS_DIR / name / "responses.jsonl", manifest),
        serving=_optional_object(METRICS_DIR / f"{name}.serving.json"),
    )


def load_check() -> dict[str, Any] | None:
    """``metrics/check.json`` when the check stage has run."""
    return _optional_object(METRICS_DIR / "check.json")
