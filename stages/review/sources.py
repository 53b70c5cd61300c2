"""Reading an external file for ``atlas dataset import``: CSV, JSONL or Parquet, record by record.

Each record comes with where it was found (``file:line`` for text, ``file:row N`` for Parquet)
so every later complaint can point at it. Cells that hold lists in JSONL and Parquet are written
in CSV either as a JSON array or, for choices, as columns ``A``, ``B``, ``C``, ...
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.io import iter_jsonl


@dataclass(frozen=True)
class Record:
    """One source record, its 0-based index in the file and where it is."""

    index: int
    where: str
    data: dict[str, Any]


def read_records(path: Path) -> list[Record]:
    """Every record of a ``.csv``, ``.jsonl`` or ``.parquet`` file."""
    suffix = path.suffix.lower()
    if not path.is_file():
        raise AtlasError(f"{path}: file not found")
    if suffix == ".csv":
        text = path.read_bytes().decode("utf-8-sig", errors="strict")
        reader = csv.DictReader(io.StringIO(text))
        rows = [(reader.line_num, dict(r)) for r in reader]
        return [Record(i, f"{path}:{line}", r) for i, (line, r) in enumerate(rows)]
    if suffix in (".jsonl", ".ndjson"):
        return [Record(i, f"{path}:{line}", r) for i, (line, r) in enumerate(iter_jsonl(path))]
    if suffix == ".parquet":
        import polars as pl

        try:
            frame = pl.read_parquet(path)
        except Exception as exc:  # polars raises several types for a damaged file
            raise AtlasError(f"{path}: cannot read Parquet: {exc}") from exc
        return [Record(i, f"{path}: row {i + 1}", r) for i, r in enumerate(frame.to_dicts())]
    raise AtlasError(f"{path}: expected a .csv, .jsonl or .parquet file")


def text_cell(record: Record, name: str, required: bool = True) -> str | None:
    value = record.data.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise AtlasError(f"{record.where}: {name}: missing or empty")
        return None
    if not isinstance(value, str):
        raise AtlasError(f"{record.where}: {name}: expected text, got {type(value).__name__}")
    return value.strip()


def list_cell(record: Record, name: str, required: bool = True) -> list[str]:
    """A list of strings: a real list, a JSON array in a string, or one plain string."""
    value = record.data.get(name)
    if isinstance(value, str) and value.strip().startswith("["):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise AtlasError(f"{record.where}: {name}: invalid JSON array: {exc.msg}") from exc
    if isinstance(value, str):
        value = [value] if value.strip() else []
    if value is None:
        value = []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise AtlasError(f"{record.where}: {name}: expected a list of strings")
    items = [v.strip() for v in value if v.strip()]
    if required and not items:
        raise AtlasError(f"{record.where}: {name}: missing or empty")
    return items


def allocate(sizes: Mapping[str, int], total: int) -> dict[str, int]:
    """Proportional allocation of ``total`` over strata (largest remainder; ties by name)."""
    population = sum(sizes.values())
    if not 0 < total <= population:
        raise AtlasError(f"cannot draw {total} items from {population}")
    exact = {s: total * n / population for s, n in sizes.items()}
    quota = {s: int(q) for s, q in exact.items()}
    spare = total - sum(quota.values())
    for s in sorted(exact, key=lambda s: (-(exact[s] - quota[s]), s))[:spare]:
        quota[s] += 1
    return dict(sorted(quota.items()))


def stratified(
    records: list[Record], stratum: dict[int, str], total: int, seed: int
) -> list[Record]:
    """A fixed-size sample, each stratum drawn with its own seeded generator. Strata are then
    interleaved (file order inside each) so that any prefix a quick run sends mixes them."""
    groups: dict[str, list[Record]] = {}
    for record in records:
        groups.setdefault(stratum[record.index], []).append(record)
    quota = allocate({s: len(g) for s, g in groups.items()}, total)
    ranked: list[tuple[int, str, Record]] = []
    for name, count in quota.items():
        drawn = random.Random(f"{seed}\x1f{name}").sample(groups[name], count)
        ranked += [(rank, name, r) for rank, r in enumerate(sorted(drawn, key=lambda r: r.index))]
    return [r for _, _, r in sorted(ranked, key=lambda t: (t[0], t[1]))]
