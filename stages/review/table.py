"""Long rating tables for ``atlas agreement``: CSV or JSONL rows of item, rater, label [, field].

One rating per line keeps tables easy to append to and to join; a missing rating is simply an
absent line. Every defect names the file and line.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.io import iter_jsonl
from stages.review.agreement import ORDINAL_METHODS, Rating

REQUIRED = ("item", "rater", "label")


def label_text(value: Any) -> str | None:
    """A label as text: JSON 3 and 3.0 both become ``"3"``; None for anything not a label."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def _csv_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError as exc:
        raise AtlasError(f"{path}: file not found") from exc
    except UnicodeDecodeError as exc:
        raise AtlasError(f"{path}: not UTF-8 (byte {exc.start})") from exc
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
    if missing:
        raise AtlasError(f"{path}:1: header: missing column(s) {', '.join(missing)}")
    for record in reader:
        yield reader.line_num, dict(record)


def read_table(path: Path) -> list[Rating]:
    """All ratings of a ``.csv`` or ``.jsonl`` table; duplicates and blanks are errors."""
    if path.suffix.lower() == ".csv":
        records = _csv_records(path)
    elif path.suffix.lower() in (".jsonl", ".ndjson"):
        records = iter_jsonl(path)
    else:
        raise AtlasError(f"{path}: expected a .csv or .jsonl table (item, rater, label)")
    ratings: list[Rating] = []
    first: dict[tuple[str, str, str], int] = {}
    for line, record in records:
        cells = {key: label_text(record.get(key)) for key in (*REQUIRED, "field")}
        for key in REQUIRED:
            if cells[key] is None:
                raise AtlasError(f"{path}:{line}: {key}: missing or empty")
        rating = Rating(
            item=str(cells["item"]),
            rater=str(cells["rater"]),
            label=str(cells["label"]),
            field=cells["field"] or "",
        )
        key3 = (rating.item, rating.rater, rating.field)
        if key3 in first:
            raise AtlasError(
                f"{path}:{line}: item {rating.item}: rater {rating.rater!r} rated it already "
                f"on line {first[key3]}"
            )
        first[key3] = line
        ratings.append(rating)
    if not ratings:
        raise AtlasError(f"{path}: the table has no ratings")
    return ratings


def _numeric(label: str) -> float | None:
    try:
        return float(label)
    except ValueError:
        return None


def resolve_labels(ratings: list[Rating], option: str | None, method: str) -> list[str]:
    """The label set in order: ``--labels`` as given, else the labels seen (numeric order when
    they are all numbers). Ordinal methods on non-numeric labels need ``--labels``."""
    seen = sorted({r.label for r in ratings})
    if option is not None:
        labels = [part.strip() for part in option.split(",") if part.strip()]
        if len(set(labels)) != len(labels):
            raise AtlasError(f"--labels: {option!r} names a label twice")
        unknown = [label for label in seen if label not in labels]
        if unknown:
            raise AtlasError(f"--labels: the table uses {unknown}, which are not in {labels}")
        return labels
    if all(_numeric(label) is not None for label in seen):
        return sorted(seen, key=lambda label: (_numeric(label) or 0.0, label))
    if method in ORDINAL_METHODS:
        raise AtlasError(
            f"--method {method}: the labels are not numbers, so give their order with --labels"
        )
    return seen
