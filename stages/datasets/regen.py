"""Regeneration check: a generator must give the committed bytes in any process (issue 15).

Each generator runs twice, each time in a fresh process with its own ``PYTHONHASHSEED``
(``HASH_SEEDS``), into temporary directories. ``atlas dataset generate`` writes the committed
bytes under ``GEN_HASH_SEED``, so three string-hash orders are compared in all: code that
iterates a set of strings (``list({"alpha", ...})``) changes order between them and fails every
time, instead of passing when the random seed happens to agree. (Two orders coincide by chance only
for a very small set, e.g. about one seed pair in two for two strings, one in 720 for six.)

A difference is named by row id and field, e.g. ``row hash-0003, field choices[0]: committed
'alpha', regenerated 'gamma'``, never by a line number of a digest file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from stages.datasets.card import DatasetCard

#: PYTHONHASHSEED of ``atlas dataset generate`` (the committed bytes).
GEN_HASH_SEED = "0"
#: The two PYTHONHASHSEED values ``atlas check`` regenerates under.
HASH_SEEDS = ("1", "2")
_CLIP = 60
#: The variable ``_gen/common/seeds.py`` reads for a fresh instance (``atlas dataset fresh``).
FRESH_SEED_ENV = "ATLAS_FRESH_SEED"


def _clip(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _CLIP else text[: _CLIP - 3] + "..."


def field_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first (depth-first, keys in sorted order) path where ``a`` and ``b`` differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            where = f"{path}.{key}" if path else str(key)
            if key not in a or key not in b:
                return where, a.get(key, "<absent>"), b.get(key, "<absent>")
            found = field_difference(a[key], b[key], where)
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = field_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        return None
    return None if a == b and type(a) is type(b) else (path or "value", a, b)


def _rows(path: Path) -> list[dict[str, Any]] | int:
    """The rows of ``path``, or the number of its first line that is not a JSON object (a
    corrupted committed file: the schema check names it; here it only must not crash)."""
    rows = []
    for number, line in enumerate(path.read_bytes().split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return number
        if not isinstance(row, dict):
            return number
        rows.append(row)
    return rows


def rows_difference(expected: Path, actual: Path, label: str) -> str | None:
    """Name the first row (by id) and field where two ``rows.jsonl`` files differ."""
    want, got = _rows(expected), _rows(actual)
    if isinstance(want, int):
        return f"committed rows.jsonl line {want} is not a JSON object, {label} it is"
    if isinstance(got, int):
        return f"{label} rows.jsonl line {got} is not a JSON object"
    for number, (a, b) in enumerate(zip(want, got, strict=False), start=1):
        if a == b:
            continue
        if a.get("id") != b.get("id"):
            return f"row {number}: committed id {a.get('id')!r}, {label} id {b.get('id')!r}"
        found = field_difference(a, b)
        assert found is not None
        where, x, y = found
        return f"row {a.get('id')}, field {where}: committed {_clip(x)}, {label} {_clip(y)}"
    if len(want) != len(got):
        return f"committed {len(want)} rows, {label} {len(got)}"
    if expected.read_bytes() != actual.read_bytes():
        return "rows.jsonl has the same rows in other bytes (key order or spacing)"
    return None


def first_difference(expected: Path, actual: Path, label: str = "regenerated") -> str | None:
    """Name the first difference between two dataset directories, or None when identical.

    Rows come first (by row id and field); then other files by name; the card last, by field
    (its digests differ whenever a file does, so it is reported only when nothing else is).
    """
    want = {p.relative_to(expected).as_posix() for p in expected.rglob("*") if p.is_file()}
    got = {p.relative_to(actual).as_posix() for p in actual.rglob("*") if p.is_file()}
    for rel in sorted(want ^ got):
        side = "not produced by the generator" if rel in want else "produced but not committed"
        return f"{rel} is {side}"
    if "rows.jsonl" in want:
        found = rows_difference(expected / "rows.jsonl", actual / "rows.jsonl", label)
        if found:
            return found
    for rel in sorted(want - {"rows.jsonl", "dataset.json"}):
        if (expected / rel).read_bytes() != (actual / rel).read_bytes():
            return f"{rel} differs"
    if "dataset.json" in want:
        a, b = (json.loads((d / "dataset.json").read_text("utf-8")) for d in (expected, actual))
        field = field_difference(a, b)
        if field:
            where, x, y = field
            return f"dataset.json field {where}: committed {_clip(x)}, {label} {_clip(y)}"
        if (expected / "dataset.json").read_bytes() != (actual / "dataset.json").read_bytes():
            return "dataset.json has the same fields in other bytes"
    return None


def run_generator(
    script: Path,
    out: Path,
    root: Path,
    hash_seed: str,
    fresh_seed: int | None = None,
    timeout_s: float | None = None,
) -> str | None:
    """Run ``python SCRIPT OUT`` in a fresh process; the last error line, or None.

    ``fresh_seed`` sets ``ATLAS_FRESH_SEED`` (a fresh instance); otherwise it is removed from the
    environment, so the published bytes never depend on the caller's shell.
    """
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    env.pop(FRESH_SEED_ENV, None)
    if fresh_seed is not None:
        env[FRESH_SEED_ENV] = str(fresh_seed)
    try:
        proc = subprocess.run(
            [sys.executable, str(script), str(out)],
            capture_output=True,
            text=True,
            cwd=root,
            env=env,
            timeout=timeout_s,
        )
    except subprocess.TimeoutExpired:
        return f"no result within {timeout_s:g} s (a draw this seed cannot satisfy?)"
    if proc.returncode == 0:
        return None
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
    return tail[0]


def regenerate(card: DatasetCard, committed: Path, root: Path) -> str | None:
    """Regenerate under each of ``HASH_SEEDS``; the first problem found, or None."""
    assert card.generator is not None
    script = root / card.generator.path
    if not script.is_file():
        return f"{committed}: generator {card.generator.path} not found"
    with tempfile.TemporaryDirectory(prefix="atlas-regen-") as tmp:
        for seed in HASH_SEEDS:
            out = Path(tmp) / seed / card.id
            error = run_generator(script, out, root, seed)
            if error:
                return f"{committed}: generator {card.generator.path} failed: {error}"
            diff = first_difference(committed, out, f"PYTHONHASHSEED={seed}")
            if diff:
                return (
                    f"{committed}: not reproducible under PYTHONHASHSEED={seed}: {diff} "
                    f"(hash-order or other nondeterminism, or a stale commit: rerun "
                    f"`atlas dataset generate {card.id}`)"
                )
    return None
