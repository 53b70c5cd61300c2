"""``atlas dataset import``: an external file becomes a pinned, never-regenerated eval dataset.

Kouman general knowledge (spec 000): multiple-choice records (subject, question, choices, answer)
sampled to a fixed size (300 unless ``--sample``) stratified by subject with a recorded seed.
Kouman translation: French <-> target pairs (source, references, accepted variants, direction,
dialect/script note), all of them unless ``--sample`` (then stratified by direction).

The card is ``external`` and records the source file's sha256, its stated origin, revision and
licence and the sample seed. Imported rows carry no difficulty, so every row says ``medium``.
The dataset is written into a hidden temporary directory and renamed into place, so a failed
import leaves nothing behind; an existing dataset is never overwritten (imports get new ids).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from stages.datasets.card import ID_RE, DatasetCard, ExternalSource
from stages.datasets.load import CARD_FILE, DATASETS_DIR, ROWS_FILE, describe_validation
from stages.datasets.rows import EvalRow
from stages.errors import AtlasError
from stages.io import dumps_pretty, sha256_file
from stages.review.sources import Record, list_cell, read_records, stratified, text_cell

MC_SAMPLE = 300
TOKEN_HEURISTIC = (
    "approx_tokens = ceil(sum(len(m.content) for m in messages [+ shared_prefix]) / 4)"
)
LANGUAGES = {
    "fr": "French",
    "en": "English",
    "bci": "Baoulé",
    "dyu": "Dioula",
    "de": "German",
    "es": "Spanish",
    "sw": "Swahili",
    "wo": "Wolof",
    "ha": "Hausa",
    "yo": "Yoruba",
}


def _letters(count: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(count)]


def _choices(record: Record) -> list[str]:
    if "choices" in record.data:
        return list_cell(record, "choices")
    lettered = []
    for letter in _letters(26):
        if not record.data.get(letter):
            break
        lettered.append(str(record.data[letter]).strip())
    if not lettered:
        raise AtlasError(f"{record.where}: choices: missing (a list, or columns A, B, C, ...)")
    return lettered


def _answer_letter(record: Record, choices: list[str]) -> str:
    """An int is a 0-based index; one letter in range is a label; other text must be a choice."""
    value = record.data.get("answer")
    letters = _letters(len(choices))
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(choices):
        return letters[value]
    if isinstance(value, str):
        text = value.strip()
        if text in letters:
            return text
        if text in choices:
            return letters[choices.index(text)]
        if text.isdigit() and int(text) < len(choices):
            return letters[int(text)]
    raise AtlasError(f"{record.where}: answer: {value!r} is not an index, letter or choice text")


def mc_row(record: Record, row_id: str) -> dict[str, Any]:
    subject = str(text_cell(record, "subject"))
    question = str(text_cell(record, "question"))
    choices = _choices(record)
    if len(choices) < 2:
        raise AtlasError(f"{record.where}: choices: needs at least two")
    options = "\n".join(
        f"{letter}. {text}" for letter, text in zip(_letters(len(choices)), choices, strict=True)
    )
    topic = subject.replace("_", " ")
    prompt = (
        f"The following is a multiple-choice question about {topic}.\n\n{question}\n\n"
        f"{options}\n\nAnswer with the letter of the correct option."
    )
    return {
        "id": row_id,
        "category": subject,
        "difficulty": "medium",
        "prompt": prompt,
        "choices": choices,
        "answer": _answer_letter(record, choices),
        "scorer": "mc",
        "meta": {"subject": subject, "source_index": record.index},
    }


def translation_row(record: Record, row_id: str) -> dict[str, Any]:
    source = str(text_cell(record, "source"))
    direction = str(text_cell(record, "direction"))
    if direction.count("-") != 1 or not all(direction.split("-")):
        raise AtlasError(f"{record.where}: direction: expected '<source>-<target>', e.g. fr-bci")
    src, tgt = direction.split("-")
    references = list_cell(record, "references")
    variants = list_cell(record, "variants", required=False)
    accepted = list(dict.fromkeys(references + variants))
    prompt = (
        f"Translate the following {LANGUAGES.get(src, src)} text into "
        f"{LANGUAGES.get(tgt, tgt)}. Reply with the translation only.\n\n{source}"
    )
    meta = {
        "direction": direction,
        "source_lang": src,
        "target_lang": tgt,
        "source": source,
        "references": references,
        "variants": variants,
        "source_index": record.index,
        "dialect_note": text_cell(record, "note", required=False),
    }
    return {
        "id": row_id,
        "category": direction,
        "difficulty": "medium",
        "prompt": prompt,
        "answer": accepted,
        "scorer": "chrf",
        "meta": meta,
    }


def _validated(rows: list[dict[str, Any]], records: list[Record]) -> None:
    for row, record in zip(rows, records, strict=True):
        try:
            EvalRow.model_validate(row)
        except ValidationError as exc:
            raise AtlasError(f"{record.where}: {describe_validation(exc)}") from exc


def _write(target: Path, rows: list[dict[str, Any]], card: dict[str, Any]) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.import-", dir=target.parent))
    try:
        lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        (tmp / ROWS_FILE).write_text(lines, encoding="utf-8")
        card["files"] = {ROWS_FILE: sha256_file(tmp / ROWS_FILE)}
        DatasetCard.model_validate(card)
        (tmp / CARD_FILE).write_text(dumps_pretty(card), encoding="utf-8")
        os.rename(tmp, target)  # atomic; fails rather than replace if target appeared meanwhile
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def import_dataset(
    source: Path,
    dataset_id: str,
    *,
    kind: str = "mc",
    sample: int | None = None,
    seed: int = 0,
    origin: str = "unknown",
    revision: str = "unknown",
    licence: str = "unknown",
    root: Path = DATASETS_DIR,
) -> Path:
    """Import ``source`` as ``datasets/<dataset_id>``; returns the dataset directory."""
    if not ID_RE.fullmatch(dataset_id) or not dataset_id.startswith("eval-"):
        raise AtlasError(f"--id {dataset_id!r}: expected eval-<name>-v<N>")
    if kind not in ("mc", "translation"):
        raise AtlasError(f"--kind {kind!r}: expected mc or translation")
    target = root / dataset_id
    if target.exists():
        raise AtlasError(f"{target}: already exists; an import never overwrites, use a new id")
    records = read_records(source)
    if not records:
        raise AtlasError(f"{source}: no records")
    field = "subject" if kind == "mc" else "direction"
    strata = {r.index: str(text_cell(r, field)) for r in records}
    size = sample if sample is not None else (MC_SAMPLE if kind == "mc" else None)
    drawn = stratified(records, strata, size, seed) if size is not None else records
    prefix = dataset_id.removeprefix("eval-").rsplit("-v", 1)[0]
    build = mc_row if kind == "mc" else translation_row
    rows = [build(r, f"{prefix}-{n:04d}") for n, r in enumerate(drawn, start=1)]
    _validated(rows, drawn)
    what = "multiple-choice items" if kind == "mc" else "translation pairs"
    card = {
        "id": dataset_id,
        "kind": "eval",
        "licence": licence,
        "generator": None,
        "description": f"{len(rows)} {what} imported from {source.name} ({origin}, {revision})"
        + (f", stratified by {field} with seed {seed}" if size is not None else "")
        + "; difficulty is not given by the source and is set to medium.",
        "external": True,
        "token_heuristic": TOKEN_HEURISTIC,
        "source": ExternalSource(
            file=source.name,
            sha256=sha256_file(source),
            origin=origin,
            revision=revision,
            licence=licence,
            sample_seed=seed if size is not None else None,
        ).model_dump(),
        "default_scorer": "mc" if kind == "mc" else "chrf",
        "rows": len(rows),
        "files": {},
        "created": datetime.now(UTC).date().isoformat(),
    }
    _write(target, rows, card)
    return target
