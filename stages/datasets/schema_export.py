"""JSON Schema export of the card and row models (``atlas schema export DIR``)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from stages.datasets.card import DatasetCard
from stages.datasets.rows import EvalRow, HaystackRow, PromptRow
from stages.io import write_json

SCHEMAS: dict[str, type[BaseModel]] = {
    "dataset-card": DatasetCard,
    "row-prompts": PromptRow,
    "row-eval": EvalRow,
    "row-haystack": HaystackRow,
}


def export_schemas(directory: Path) -> list[Path]:
    """Write one ``<name>.schema.json`` per model into ``directory``."""
    written = []
    for name, model in SCHEMAS.items():
        path = directory / f"{name}.schema.json"
        write_json(path, model.model_json_schema())
        written.append(path)
    return written
