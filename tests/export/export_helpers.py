"""Reading an export back: the aggregate log and its records through our own models, and
the every_eval_ever repository's files (schemas and example data) where a copy is at hand."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import yaml

from stages.export.eee_instance import InstanceRecord
from stages.export.eee_log import EvaluationLog

REPO = Path(__file__).resolve().parents[2]
UPSTREAM_COMMIT = "9bce4136e789ec006c62582f5f9d107d20f8b398"
"""The evaleval/every_eval_ever commit the models and the example files come from."""
EXAMPLE = "f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40"
"""Its version-0.3.0 example log (tests/data/skill_reference_conversion/.../demo-model/)."""


def upstream_dir() -> Path:
    """Where copies of the repository's schemas and example files are: ``ATLAS_EEE_FILES``,
    else ``shared/every_eval_ever`` beside the checkout (they are not committed here)."""
    return Path(os.environ.get("ATLAS_EEE_FILES") or REPO.parent / "shared" / "every_eval_ever")


def upstream_json(name: str) -> Any:
    return json.loads((upstream_dir() / name).read_text(encoding="utf-8"))


def have_upstream() -> bool:
    names = ("eval.schema.json", "instance_level_eval.schema.json", f"{EXAMPLE}.json")
    return all((upstream_dir() / name).is_file() for name in names)


def key_paths(value: Any, prefix: str = "") -> set[str]:
    """Every key path of a JSON value (``a.b``; a list's items as ``a[]``)."""
    if isinstance(value, dict):
        found = set()
        for key, inner in value.items():
            path = f"{prefix}.{key}" if prefix else key
            found |= {path} | key_paths(inner, path)
        return found
    if isinstance(value, list):
        return set().union(*(key_paths(v, f"{prefix}[]") for v in value)) if value else set()
    return set()


def read_eee(out: Path) -> tuple[EvaluationLog, list[InstanceRecord], dict[str, Any], bytes]:
    """The log (validated), its records (validated), the raw aggregate and the JSONL bytes."""
    (aggregate,) = sorted(out.glob("data/*/*/*/*.json"))
    raw = json.loads(aggregate.read_text(encoding="utf-8"))
    log = EvaluationLog.model_validate(raw)
    assert log.detailed_evaluation_results is not None
    samples = out / log.detailed_evaluation_results.file_path
    data = samples.read_bytes()
    assert hashlib.sha256(data).hexdigest() == log.detailed_evaluation_results.checksum
    records = [InstanceRecord.model_validate_json(line) for line in data.splitlines()]
    assert len(records) == log.detailed_evaluation_results.total_rows
    return log, records, raw, data


def read_hf(out: Path) -> dict[str, list[dict[str, Any]]]:
    """``.eval_results/<name>.yaml`` by name."""
    return {
        p.name: yaml.safe_load(p.read_text(encoding="utf-8"))
        for p in sorted((out / ".eval_results").glob("*.yaml"))
    }
