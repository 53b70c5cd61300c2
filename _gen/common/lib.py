"""The one module a generator imports for what every dataset shares (standard library only).

Generators stay small because everything that must be identical across datasets lives here or
in the two modules it draws on: the canonical JSONL writer (``canonical``: ``canonical_line``),
per-row random generators (``seeds``: ``row_rng``), the ``approx_tokens`` heuristic and buckets,
the dataset card (``dataset.json``) with the sha256 of every file, and ``run``, the command line
every generator ends with. Fresh instances (``atlas dataset fresh``) are drawn by ``fresh``.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from common import fresh
from common.canonical import canonical_json, canonical_line
from common.seeds import fresh_seed, row_rng

#: The repository root (``_gen/common/lib.py`` is two folders below it).
REPO = Path(__file__).resolve().parents[2]
LICENCE = "MIT"
TOKEN_HEURISTIC = (
    "approx_tokens = ceil(sum(len(m.content) for m in messages [+ shared_prefix]) / 4)"
)
BUCKETS: dict[str, tuple[int, int | None]] = {
    "xs": (0, 64),
    "s": (65, 256),
    "m": (257, 1024),
    "l": (1025, 4096),
    "xl": (4097, 16384),
    "xxl": (16385, None),
}


def approx_tokens(contents: Iterable[str], shared_prefix: str | None = None) -> int:
    """``ceil(chars / 4)`` over message contents, plus ``shared_prefix`` when it is set."""
    chars = sum(len(text) for text in contents)
    if shared_prefix is not None:
        chars += len(shared_prefix)
    return math.ceil(chars / 4)


def bucket_for(tokens: int) -> str:
    """Name of the bucket whose inclusive range contains ``tokens``."""
    for name, (low, high) in BUCKETS.items():
        if tokens >= low and (high is None or tokens <= high):
            return name
    raise ValueError(f"negative token count {tokens}")


def prompt_row(
    row_id: str,
    topic: str,
    lang: str,
    messages: list[dict[str, str]],
    shared_prefix: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A ``prompts`` row with ``approx_tokens`` and ``bucket`` computed, never typed by hand."""
    tokens = approx_tokens((m["content"] for m in messages), shared_prefix)
    row: dict[str, Any] = {
        "id": row_id,
        "topic": topic,
        "bucket": bucket_for(tokens),
        "lang": lang,
        "approx_tokens": tokens,
        "messages": messages,
        "shared_prefix": shared_prefix,
    }
    row.update(extra)
    return row


def assert_unique(
    rows: list[dict[str, Any]], key: Callable[[dict[str, Any]], Any], what: str
) -> None:
    """Fail when two rows share ``key(row)`` (ids, prompt texts, ...)."""
    seen: dict[Any, str] = {}
    for row in rows:
        value = key(row)
        if value in seen:
            raise AssertionError(f"duplicate {what}: rows {seen[value]} and {row['id']}")
        seen[value] = row["id"]


def card(
    *,
    dataset_id: str,
    kind: str,
    description: str,
    generator_path: str,
    seed: int,
    default_scorer: str | None,
    created: str,
    rows: int,
    files: dict[str, str],
    fresh: int | None = None,
) -> dict[str, Any]:
    """The ``dataset.json`` card: identical shape for every generated dataset (a fresh instance
    also records its ``fresh_seed``)."""
    generator: dict[str, Any] = {"path": generator_path, "seed": seed}
    if fresh is not None:
        generator["fresh_seed"] = fresh
    return {
        "id": dataset_id,
        "kind": kind,
        "description": description,
        "licence": LICENCE,
        "generator": generator,
        "external": False,
        "source": None,
        "token_heuristic": TOKEN_HEURISTIC,
        "default_scorer": default_scorer,
        "rows": rows,
        "files": files,
        "created": created,
    }


def write_dataset(
    outdir: Path,
    *,
    dataset_id: str,
    kind: str,
    description: str,
    generator_path: str,
    seed: int,
    default_scorer: str | None,
    created: str,
    rows: list[dict[str, Any]],
    extra_files: dict[str, bytes] | None = None,
) -> None:
    """Write ``rows.jsonl``, any extra files and ``dataset.json`` into ``outdir`` atomically.

    Everything is written into a sibling temporary directory that replaces ``outdir`` only once
    complete, so an interrupted generator never leaves a half-written dataset.
    """
    assert_unique(rows, lambda r: r["id"], "id")
    payload: dict[str, bytes] = {
        "rows.jsonl": "".join(canonical_line(r) + "\n" for r in rows).encode("utf-8")
    }
    for rel, data in sorted((extra_files or {}).items()):
        if rel.startswith("/") or ".." in rel.split("/") or rel in ("rows.jsonl", "dataset.json"):
            raise ValueError(f"extra file path {rel!r} is not allowed")
        payload[rel] = data
    files = {rel: hashlib.sha256(data).hexdigest() for rel, data in sorted(payload.items())}
    meta = card(
        dataset_id=dataset_id,
        kind=kind,
        description=description,
        generator_path=generator_path,
        seed=seed,
        default_scorer=default_scorer,
        created=created,
        rows=len(rows),
        files=files,
        fresh=fresh_seed(),
    )
    payload["dataset.json"] = canonical_json(meta).encode("utf-8")

    outdir = outdir.resolve()
    outdir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{outdir.name}.", dir=outdir.parent))
    try:
        for rel, data in payload.items():
            target = tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        old = outdir.with_name(f".{outdir.name}.old")
        if old.exists():
            shutil.rmtree(old)
        if outdir.exists():
            os.replace(outdir, old)
        os.replace(tmp, outdir)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def run(
    *,
    dataset_id: str,
    kind: str,
    description: str,
    generator_file: str,
    seed: int,
    count: int,
    default_scorer: str | None,
    created: str,
    generate: Callable[[random.Random, int], dict[str, Any]],
    prove: Callable[[dict[str, Any]], None],
    prove_all: Callable[[list[dict[str, Any]]], None] | None = None,
    extra_files: Callable[[list[dict[str, Any]]], dict[str, bytes]] | None = None,
    argv: list[str] | None = None,
) -> None:
    """The command line every generator shares: ``python _gen/<id>.py OUTDIR``.

    Builds row ``idx`` with ``generate(row_rng(seed, idx), idx)``, runs ``prove`` on every row
    and ``prove_all`` on the whole set (uniqueness, coverage); an AssertionError stops the run
    before anything is written. Then it writes the dataset.
    """
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.exit(f"usage: python {generator_file} OUTDIR")
    if fresh_seed() is None:
        rows = [generate(row_rng(seed, idx), idx) for idx in range(count)]
        for row in rows:
            prove(row)
        if prove_all:
            prove_all(rows)
    else:  # a fresh instance: rows drawn and proved one by one (``fresh.fresh_rows``)
        published = REPO / "datasets" / dataset_id / "rows.jsonl"
        rows = fresh.fresh_rows(generate, prove, prove_all, seed, count, published)
    files = extra_files(rows) if extra_files else {}
    write_dataset(
        Path(args[0]),
        dataset_id=dataset_id,
        kind=kind,
        description=description,
        generator_path=generator_file,
        seed=seed,
        default_scorer=default_scorer,
        created=created,
        rows=rows,
        extra_files=files,
    )
