"""Splitting one workload across machines, and joining the pieces (issue 23, "Shards").

``atlas infer W --shard I/N`` (0 <= I < N) sends the planned requests whose position in the plan
is I modulo N — the plan is a function of the params and the dataset alone, so N machines with the
same checkout and params split the work exactly, with no coordination — and the load levels
whose position in sorted order is I modulo N (each level whole: a level measures one client at
one load, so it is never split). Each shard keeps its own journal, manifest, serving figures and
level journals under ``results/W/shards/I-of-N/``, behind its own lock, so shards may also run
side by side on one machine. Fresh-seed instances are not sharded: ``atlas infer W`` sends them.

``atlas merge W`` joins the N shards into ``results/W/responses.jsonl`` (the journal scoring
reads), the level journals under ``results/W/load/``, the manifest and ``metrics/W.serving.json``.
It refuses shards of different run keys or datasets, a missing or unfinished shard, and shards of
another run than the params describe now. Lines already in the main journal are kept and not
written twice, so merging again changes nothing. The main pass's wall-clock rates are null in the
merged figures (the shards had a clock each: ``shards`` lists each one's rate); latency figures,
intervals and levels come from the merged records.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.inference.plan import Plan

SHARD_RE = re.compile(r"^(\d+)/(\d+)$")
SHARDS_DIR = "shards"


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """``"2/4"`` -> ``(2, 4)``; an error for anything but I/N with 0 <= I < N."""
    if text is None:
        return None
    found = SHARD_RE.match(text.strip())
    if not found or not int(found[1]) < int(found[2]):
        raise AtlasError(
            f"--shard {text!r}: expected I/N with 0 <= I < N (e.g. 0/4 for the first of four)"
        )
    return int(found[1]), int(found[2])


def shard_name(shard: tuple[int, int]) -> str:
    return f"{shard[0]}-of-{shard[1]}"


def shard_dir(results: Path, name: str, shard: tuple[int, int]) -> Path:
    return results / name / SHARDS_DIR / shard_name(shard)


def shard_plan(plan: Plan, shard: tuple[int, int]) -> Plan:
    """The part of ``plan`` shard I of N sends: every Nth planned request from the Ith."""
    index, count = shard
    return dataclasses.replace(plan, items=plan.items[index::count])


def shard_lock(name: str, shard: tuple[int, int]) -> str:
    return f"infer-{name}-shard-{shard_name(shard)}"


def _shards(results: Path, name: str) -> dict[tuple[int, int], Path]:
    found: dict[tuple[int, int], Path] = {}
    for folder in sorted((results / name / SHARDS_DIR).glob("*-of-*")):
        parts = re.fullmatch(r"(\d+)-of-(\d+)", folder.name)
        if parts and folder.is_dir():
            found[(int(parts[1]), int(parts[2]))] = folder
    return found


def shard_engine(results: Path, name: str) -> str | None:
    """The engine kind the shards' endpoint showed (their manifests' ``engine_kind``): the
    bodies, and so the keys, a remote engine's shards were sent with depend on it."""
    from stages.io import read_json

    for folder in _shards(results, name).values():
        with contextlib.suppress(AtlasError, OSError):  # check_shards names a bad one
            manifest = read_json(folder / "manifest.json")
            kind = manifest.get("engine_kind") if isinstance(manifest, dict) else None
            if isinstance(kind, str):
                return kind
    return None


def check_shards(results: Path, name: str, plan: Plan) -> list[tuple[Path, dict[str, Any]]]:
    """Every shard of one split, finished, of the run and dataset the params describe now; the
    shards' folders and manifests in shard order. Anything else is an error naming the shards."""
    from stages.io import read_json, sha256_file

    shards = _shards(results, name)
    where = results / name / SHARDS_DIR
    if not shards:
        raise AtlasError(f"{where}: no shard to merge (run `atlas infer {name} --shard I/N`)")
    counts = sorted({count for _, count in shards})
    if len(counts) > 1:
        raise AtlasError(f"{where}: shards of different splits ({', '.join(map(str, counts))}); "
                         "keep the shards of one split only")  # fmt: skip
    count = counts[0]
    missing = [f"{i}/{count}" for i in range(count) if (i, count) not in shards]
    if missing:
        raise AtlasError(
            f"{where}: shard {', '.join(missing)} of {count} is missing (run `atlas infer {name} "
            f"--shard {missing[0]}` where it should run)"
        )
    rows = sha256_file(plan.dataset.path / "rows.jsonl")
    out = []
    for index in range(count):
        folder = shards[(index, count)]
        if not (folder / "manifest.json").is_file():
            raise AtlasError(
                f"{folder}: unfinished (no manifest: stopped before its end?); run `atlas infer "
                f"{name} --shard {index}/{count}` again"
            )
        manifest = read_json(folder / "manifest.json")
        if not isinstance(manifest, dict):
            raise AtlasError(f"{folder / 'manifest.json'}: expected a JSON object")
        dataset = manifest.get("dataset") or {}
        if (dataset.get("id"), dataset.get("sha256")) != (plan.dataset.id, rows):
            raise AtlasError(
                f"{folder}: dataset {dataset.get('id')} ({str(dataset.get('sha256'))[:12]}) is "
                f"not the workload's {plan.dataset.id} ({rows[:12]}): shards of another dataset "
                "cannot be merged"
            )
        if manifest.get("run_key") != plan.run_key:
            raise AtlasError(
                f"{folder}: run key {str(manifest.get('run_key'))[:12]} is not "
                f"{plan.run_key[:12]}, the run params.yaml describes now (model, revision or "
                "decoding changed): shards of different runs cannot be merged"
            )
        out.append((folder, manifest))
    return out
