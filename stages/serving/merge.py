"""``atlas merge W``: the shards of a workload joined into the files scoring and reports read
(issue 23; the rules are :mod:`stages.inference.shards`'). Nothing is sent and no endpoint is
contacted: a login node with the shards' folders can merge them."""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from stages.inference.definitions import timing
from stages.inference.journal import latest, read_records
from stages.inference.manifest import now_iso
from stages.inference.plan import Plan, for_engine, plan_workload
from stages.inference.provenance import manifest_entries
from stages.inference.shards import check_shards, shard_engine, shard_lock
from stages.io import atomic_write_bytes, read_json
from stages.locks import exclusive
from stages.outputs import output_set

SUMMED = ("finished_before", "sent", "resent_failed", "resent_drifted", "kept_failed")


def merge_lines(target: Path, sources: list[Path]) -> int:
    """Append to ``target`` every line of ``sources`` it does not hold yet; the lines added."""
    old = target.read_bytes() if target.is_file() else b""
    old = old[: old.rfind(b"\n") + 1]  # a torn last line is not kept
    seen = set(old.splitlines(keepends=True))
    new: list[bytes] = []
    for source in sources:
        if not source.is_file():
            continue
        data = source.read_bytes()
        for line in data[: data.rfind(b"\n") + 1].splitlines(keepends=True):
            if line.strip() and line not in seen:
                seen.add(line)
                new.append(line)
    if new or not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(target, old + b"".join(new))
    return len(new)


def _merge_index(target: Path, sources: list[Path]) -> None:
    """The shards' level indexes as one (each level was sent whole by one shard)."""
    from stages.io import write_json

    indexes = [read_json(source / "index.json") for source in sources]
    levels: dict[str, Any] = {}
    for index in indexes:
        levels.update(index.get("levels") or {})
    merged = {
        "run_key": indexes[0].get("run_key"),
        "mode": next((i["mode"] for i in indexes if i.get("mode")), None),
        "levels": dict(sorted(levels.items(), key=lambda item: float(item[0]))),
    }
    target.mkdir(parents=True, exist_ok=True)
    write_json(target / "index.json", merged)


def _counts(plan: Plan, records: list[dict[str, Any]], manifests: list[dict[str, Any]]) -> Any:
    failures = Counter(r["error"]["kind"] for r in records if r.get("error"))
    counts: dict[str, Any] = {
        "rows": len(plan.items) // plan.decoding["repeats"],
        "repeats": plan.decoding["repeats"],
        "requests": len(plan.items),
    }
    for field in SUMMED:
        counts[field] = sum(int((m.get("counts") or {}).get(field, 0)) for m in manifests)
    counts.update(
        ok=len(records) - sum(failures.values()),
        failed=sum(failures.values()),
        failed_by_kind=dict(sorted(failures.items())),
    )
    return counts


def _endpoints(manifests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
    for manifest in manifests:
        for entry in manifest.get("endpoints") or []:
            into = merged.setdefault(
                entry["endpoint"], {**entry, "records": 0, "failed_over_from": 0}
            )
            into["records"] += entry.get("records", 0)
            into["failed_over_from"] += entry.get("failed_over_from", 0)
    return list(merged.values())


def merged_manifest(
    plan: Plan, records: list[dict[str, Any]], shards: list[tuple[Path, dict[str, Any]]]
) -> dict[str, Any]:
    manifests = [m for _, m in shards]
    out = {k: v for k, v in manifests[0].items() if k != "shard"}
    out.update(
        ids=list(dict.fromkeys(item.row_id for item in plan.items)),
        provenance=manifest_entries(records),
        superseded=[e for m in manifests for e in m.get("superseded") or []],
        endpoints=_endpoints(manifests),
        chat_templates={
            h: t for m in manifests for h, t in (m.get("chat_templates") or {}).items()
        },
        started_at=min(str(m.get("started_at")) for m in manifests),
        finished_at=max(str(m.get("finished_at")) for m in manifests),
        counts=_counts(plan, records, manifests),
        shards={
            "count": len(shards),
            "merged_at": now_iso(),
            "parts": [
                {
                    "shard": f"{i}/{len(shards)}",
                    "git_commit": m.get("git_commit"),
                    "started_at": m.get("started_at"),
                    "finished_at": m.get("finished_at"),
                    "requests": (m.get("counts") or {}).get("requests"),
                }
                for i, m in enumerate(manifests)
            ],
        },
    )
    return out


def merged_serving(
    plan: Plan, records: list[dict[str, Any]], shards: list[tuple[Path, dict[str, Any]]]
) -> dict[str, Any]:
    """The main pass's figures from the merged records (no wall clock: rates per shard), and
    every shard's levels, each sent whole by one shard."""
    from stages.serving.intervals import kept_or_computed
    from stages.serving.metrics import bucket_metrics, serving_metrics
    from stages.serving.slo import knee
    from stages.serving.stage import INTERVAL_SEED
    from stages.serving.sweep import serving_document

    main = serving_metrics(records, [], 0.0, plan.concurrency)
    main["intervals"] = kept_or_computed([[timing(r) for r in records]], None, INTERVAL_SEED, None)
    if plan.workload.perf and plan.dataset.card.kind == "prompts":
        rows = plan.dataset.rows
        bucket_of = {r["id"]: r["bucket"] for r in rows}
        main["buckets"] = bucket_metrics(
            records, bucket_of, {r["id"]: int(r["approx_tokens"]) for r in rows}
        )
    docs = [read_json(folder / "serving.json") for folder, _ in shards]
    main["shards"] = {
        f"{i}/{len(docs)}": (doc.get("main") or {}).get("requests_per_s")
        for i, doc in enumerate(docs)
    }
    main["run_key"] = plan.run_key
    levels: dict[str, Any] = {}
    for doc in docs:
        for mode in ("concurrency", "rate"):
            levels.setdefault(mode, {}).update(doc.get(mode) or {})
        if "search" in doc:
            levels["search"] = doc["search"]
    levels = {k: v for k, v in levels.items() if v}
    if "rate" in levels:
        levels["rate"] = dict(sorted(levels["rate"].items(), key=lambda kv: float(kv[0])))
        load, slo = plan.workload.load, plan.workload.slo
        if load is not None and slo is not None:
            shares = {
                float(k): None if "stopped" in v else (v.get("goodput") or {}).get("share")
                for k, v in levels["rate"].items()
            }
            levels["knee"] = {
                **knee(shares, load.goodput_target),
                "slo": slo.model_dump(exclude_none=True),
            }
    return serving_document(main, levels)


def merge_workload(
    name: str, results: Path = Path("results"), metrics: Path = Path("metrics")
) -> int:
    """Merge workload ``name``'s shards; returns the journal lines added."""
    from stages.inference.run import journal_lock

    plan = for_engine(plan_workload(name), shard_engine(results, name))
    journal = results / name / "responses.jsonl"
    with exclusive(journal_lock(name), str(journal)), contextlib.ExitStack() as held:
        shards = check_shards(results, name, plan)
        for folder, manifest in shards:  # no shard may be written while it is merged
            shard = (manifest["shard"]["index"], manifest["shard"]["count"])
            held.enter_context(exclusive(shard_lock(name, shard), str(folder / "responses.jsonl")))
        added = merge_lines(journal, [folder / "responses.jsonl" for folder, _ in shards])
        levels = sorted({p.name for folder, _ in shards for p in (folder / "load").glob("*")})
        _merge_index(results / name / "load", [folder / "load" for folder, _ in shards])
        for level in levels:
            sources = [folder / "load" / level for folder, _ in shards]
            if level == "index.json":
                continue
            if level.endswith(".jsonl"):
                merge_lines(results / name / "load" / level, sources)
            else:  # a level's stop marker: the shard that sent the level has it
                for source in sources:
                    if source.is_file():
                        atomic_write_bytes(results / name / "load" / level, source.read_bytes())
        current = latest(read_records(journal), plan.keys)
        records = [current[item.key] for item in plan.items if item.key in current]
        manifest = merged_manifest(plan, records, shards)
        serving = merged_serving(plan, records, shards)
        with output_set(
            f"infer-{name}-outputs", f"the manifest and serving metrics of {name}"
        ) as out:
            out.write_json(results / name / "manifest.json", manifest)
            out.write_json(metrics / f"{name}.serving.json", serving)
    sys.stderr.write(
        f"{name}: merged {len(shards)} shards: {len(records)} of {len(plan.items)} requests, "
        f"{added} journal lines added -> {journal}\n"
    )
    return added
