"""Sending a workload's fresh instances (``workloads.<w>.fresh_seeds``), after its public set.

For each seed the instance is (re)generated into ``fresh/seed-<s>/<id>/`` and planned exactly like
the public set (same limit, decoding and request building, via ``plan_workload`` with another
datasets root), then sent through the inference stage's own ``run_pass``. Each instance has its
own journal and manifest under ``results/<w>/fresh/seed-<s>/`` (resumable like the main one);
``results/<w>/fresh/index.json`` lists the seeds and is written for every workload, so the DVC
output ``results/<w>/fresh`` always exists.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from stages.io import sha256_file, write_json
from stages.params import PARAMS_FILE, workload

RESULTS_DIR = Path("results")


def fresh_results(name: str, results: Path = RESULTS_DIR) -> Path:
    """``results/<w>/fresh``: the index and one folder per seed."""
    return results / name / "fresh"


def infer_fresh(name: str, params_path: Path = PARAMS_FILE) -> dict[str, Any]:
    """Send every fresh instance of workload ``name``; returns ``{seed: counts}``."""
    from stages.inference.run import journal_lock
    from stages.locks import exclusive

    seeds = workload(name, params_path).fresh_seeds or []
    with exclusive(journal_lock(name), str(fresh_results(name))):
        return _infer_fresh(name, seeds, params_path)


def _infer_fresh(name: str, seeds: list[int], params_path: Path) -> dict[str, Any]:
    out = fresh_results(name)
    out.mkdir(parents=True, exist_ok=True)
    done: dict[str, Any] = {}
    if seeds:  # the generators (and every scorer they import) load only for fresh instances
        from stages.datasets.fresh import FRESH_DIR, fresh_root, make_fresh
        from stages.inference.endpoint import open_endpoint
        from stages.inference.plan import for_engine, plan_workload
        from stages.inference.run import run_pass

        spec = workload(name, params_path)
        for seed in seeds:
            make_fresh(spec.dataset, seed)
        plans = [plan_workload(name, params_path, fresh_root(seed, FRESH_DIR)) for seed in seeds]
        with open_endpoint(plans[0].model, plans[0].slots) as endpoint:
            for seed, planned in zip(seeds, plans, strict=True):
                plan = for_engine(planned, endpoint.kind, params_path)  # its neutral knobs
                concurrency = plan.concurrency
                path = out / f"seed-{seed}" / "responses.jsonl"
                result = run_pass(plan, endpoint, path, concurrency, f"{name} s{seed}")
                records, sent = result.records, result.fresh
                failed = sum(1 for r in records if r.get("error"))
                done[str(seed)] = {"requests": len(plan.items), "sent": len(sent), "failed": failed}
                rows = plan.dataset.path / "rows.jsonl"
                write_json(
                    path.with_name("manifest.json"),
                    {
                        "run_key": plan.run_key,
                        "dataset": {"id": plan.dataset.id, "sha256": sha256_file(rows)},
                        "fresh_seed": seed,
                        "ids": list(dict.fromkeys(item.row_id for item in plan.items)),
                        "counts": done[str(seed)],
                    },
                )
                sys.stderr.write(
                    f"{name} fresh seed {seed}: {len(plan.items)} requests, {len(sent)} sent, "
                    f"{failed} failed -> {path}\n"
                )
    write_json(out / "index.json", {"seeds": seeds})
    return done
