"""Reading a dataset directory: its card and its rows, validated with file, line and field named."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from stages.datasets.card import DatasetCard
from stages.errors import AtlasError
from stages.io import iter_jsonl, read_json

DATASETS_DIR = Path("datasets")
ROWS_FILE = "rows.jsonl"
CARD_FILE = "dataset.json"


def describe_validation(error: ValidationError) -> str:
    """``field: message`` for the first problem pydantic found."""
    first = error.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or "row"
    message = first["msg"].removeprefix("Value error, ")
    return f"{field}: {message}"


@dataclass(frozen=True)
class Dataset:
    """A dataset as loaded: where it lives, its card and its raw rows (validated)."""

    path: Path
    card: DatasetCard
    rows: list[dict[str, Any]]

    @property
    def id(self) -> str:
        return self.card.id

    def row_by_id(self) -> dict[str, dict[str, Any]]:
        return {row["id"]: row for row in self.rows}


def dataset_dir(dataset_id: str, root: Path = DATASETS_DIR) -> Path:
    """Directory of a dataset, with a clear error when it is missing."""
    path = root / dataset_id
    if not (path / CARD_FILE).is_file():
        raise AtlasError(f"dataset {dataset_id!r} not found: {path / CARD_FILE} does not exist")
    return path


def load_card(path: Path) -> DatasetCard:
    """Parse and validate ``dataset.json`` in ``path``."""
    card_path = path / CARD_FILE
    data = read_json(card_path)
    try:
        return DatasetCard.model_validate(data)
    except ValidationError as exc:
        raise AtlasError(f"{card_path}: {describe_validation(exc)}") from exc


def validate_rows(path: Path, kind: str) -> tuple[list[dict[str, Any]], list[str]]:
    """All rows of ``path/rows.jsonl`` and every problem found (schema, duplicate ids)."""
    from stages.datasets.rows import ROW_MODELS  # row models load only when rows are validated

    model: type[BaseModel] = ROW_MODELS[kind]
    rows_path = path / ROWS_FILE
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    first_line: dict[str, int] = {}
    try:
        for number, obj in iter_jsonl(rows_path):
            try:
                model.model_validate(obj)
            except ValidationError as exc:
                problems.append(f"{rows_path}:{number}: {describe_validation(exc)}")
                continue
            row_id = obj["id"]
            if row_id in first_line:
                problems.append(
                    f"{rows_path}:{number}: id: duplicate id {row_id!r} (first on line "
                    f"{first_line[row_id]})"
                )
                continue
            first_line[row_id] = number
            rows.append(obj)
    except AtlasError as exc:
        problems.append(str(exc))
    return rows, problems


def load_dataset(dataset_id: str, root: Path = DATASETS_DIR) -> Dataset:
    """Load and validate one dataset; any problem is an :class:`AtlasError`."""
    path = dataset_dir(dataset_id, root)
    card = load_card(path)
    rows, problems = validate_rows(path, card.kind)
    if problems:
        raise AtlasError("; ".join(problems[:5]))
    return Dataset(path=path, card=card, rows=rows)


def all_dataset_ids(root: Path = DATASETS_DIR) -> list[str]:
    """Every directory under ``datasets/`` that holds a card, sorted."""
    return sorted(p.parent.name for p in root.glob(f"*/{CARD_FILE}"))
