"""A workload's load levels, their repeats and search, and the serving metrics file (issues 14, 23).

``workloads.<w>.load`` names a mode and its levels (``run.sweep`` on a ``perf`` workload is
shorthand for ``{mode: concurrency, levels: run.sweep}``); each level is sent by
:mod:`stages.serving.load` from its own journal, ``results/<w>/load/<mode>-<level>.jsonl``, once
per run of ``repeats``. Per level the figures pool every run
(:mod:`stages.serving.level_metrics`), ``runs`` gives each run's key figures and ``intervals``
their bootstrap intervals: across runs when there are several, within the run otherwise
(:mod:`stages.serving.intervals`). In rate mode the knee follows the levels
(:mod:`stages.serving.slo`) and ``search`` the bisection for the highest rate meeting the goodput
target (:mod:`stages.serving.search`). A shard (``--shard I/N``) sends the levels whose position
in sorted order is I modulo N, and the search in shard 0.

``metrics/<w>.serving.json`` (shape in docs/formats.md#serving-metrics)::

    {"run_key": ..., "definitions": ..., "main": {figures of the main pass, "intervals"},
     "concurrency": {"<level>": {...}}, "rate": {"<rate>": {...}}, "knee": {...}, "search": {...}}
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from stages.inference.definitions import timing
from stages.inference.endpoint import Endpoint
from stages.inference.plan import Plan
from stages.inference.tokenize import count_reasoning
from stages.params import LoadParams, SloParams
from stages.serving.level_metrics import level_metrics
from stages.serving.load import LevelRun, level_label, level_trace, load_spec, run_level
from stages.serving.slo import knee, meets

if TYPE_CHECKING:
    from stages.serving.trace import Trace

DEFINITIONS = (
    "vLLM benchmark_serving conventions: TTFT to the first token delta; TPOT = (E2E - TTFT) / "
    "(output tokens - 1); ITL = every gap between token deltas, pooled; E2E to the last chunk; "
    "output tokens from usage else streamed deltas; percentiles linear (numpy default); rate "
    "levels also from the scheduled send. See stages/inference/definitions.py."
)
RUN_FIGURES = tuple((f, q) for f in ("ttft_s", "itl_s", "latency_s") for q in ("p50", "p99"))


def _levels(load: LoadParams, trace: Trace | None) -> list[float]:
    if load.mode == "concurrency":
        return [float(level) for level in load.levels or ()]
    if load.rates is not None:
        return list(load.rates)
    return [trace.own_rate] if trace is not None and load.search is None else []


def _run_block(block: dict[str, Any]) -> dict[str, Any]:
    """One run's key figures (``runs`` of a level with repeats)."""
    out: dict[str, Any] = {"requests": block["requests"], "failed": block["requests_failed"]}
    for figure, q in RUN_FIGURES:
        out[f"{figure}.{q}"] = block[figure][q]
    if "goodput" in block:
        out["goodput_share"] = block["goodput"]["share"]
    if "achieved_rate" in block:
        out["achieved_rate"] = block["achieved_rate"]
    return out


def level_block(
    level_runs: list[LevelRun],
    load: LoadParams,
    level: float,
    slo: SloParams | None,
    trace: Trace | None = None,
    kept: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The figures of one level from its runs' records: pooled figures, each run's, intervals
    (``kept``, the former document's, when computed from the same records), and the server's own
    account (``server``; per run with repeats)."""
    from stages.serving.intervals import kept_or_computed

    runs = [run.records for run in level_runs]
    stops = [run.stopped for run in level_runs]
    block = level_metrics([r for run in runs for r in run], load, level, slo)
    block["server"] = level_runs[0].server if load.repeats == 1 else None
    measured = [
        sorted((r for r in run if r.get("phase") == "measure"), key=lambda r: int(r["index"]))
        for run in runs
    ]
    timings = [[timing(r) for r in run] for run in measured]
    good = [[all(meets(t, slo).values()) for t in run] for run in timings] if slo else None
    if load.repeats > 1:
        block["runs"] = {
            str(trial): {
                **_run_block(level_metrics(run.records, load, level, slo)),
                "server": run.server,
            }
            for trial, run in enumerate(level_runs)
        }
    block["intervals"] = kept_or_computed(timings, good, load.seed, kept)
    if any(stops):
        block["stopped"] = {str(t): stop for t, stop in enumerate(stops) if stop is not None}
    if trace is not None:
        block["trace"] = {**trace.describe(), "time_scale": round(trace.own_rate / level, 9)}
    if load.ramp is not None and load.mode == "rate":
        block["ramp"] = load.ramp.model_dump()
    if load.cv is not None:
        block["cv"] = load.cv
    return block


def _meets(block: dict[str, Any], target: float) -> bool:
    share = (block.get("goodput") or {}).get("share")
    return "stopped" not in block and share is not None and share >= target


def run_load(
    plan: Plan,
    endpoint: Endpoint,
    out: Path,
    shard: tuple[int, int] | None = None,
    previous: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Every level of the workload's load spec: ``{mode: {level: figures}, "knee", "search"}``. A
    level that sends nothing keeps the ``server`` block ``previous`` (the last serving document
    of the same run) has for it: scrapes cannot be redone from the journal."""
    load = load_spec(plan)
    if load is None:
        write_level_index(out, plan, None, {})
        return {}
    trace = level_trace(load)
    index_entries: dict[str, Any] = {}
    slo = plan.workload.slo
    figures: dict[str, Any] = {}

    def measure(level: float, watch: bool) -> dict[str, Any]:
        label = level_label(level)
        if label not in figures:
            path = out / "load" / f"{load.mode}-{label}.jsonl"
            runs = [
                run_level(plan, endpoint, load, level, path, trial, trace, watch)
                for trial in range(load.repeats)
            ]
            for run in runs:  # issue 33: after the level, never beside its requests
                count_reasoning(endpoint, run.records, plan.model.name)
            former = ((previous or {}).get(load.mode) or {}).get(label) or {}
            if runs[0].server is None and previous and previous.get("run_key") == plan.run_key:
                runs[0].server = former.get("server")
            kept = former.get("intervals")
            figures[label] = level_block(runs, load, level, slo, trace, kept)
            if all(run.measured is not None for run in runs):
                index_entries[label] = {
                    "journal": path.name,
                    "runs": [
                        [{**e, "trial": t} for e in run.measured or []]
                        for t, run in enumerate(runs)
                    ],
                }
        block: dict[str, Any] = figures[label]
        return block

    levels = sorted(_levels(load, trace))
    index, count = shard or (0, 1)
    for level in levels[index::count]:
        measure(level, load.stop_on_saturation)
    result: dict[str, Any] = {load.mode: figures}
    if load.search is not None and slo is not None and index == 0:
        from stages.serving.search import search

        found = search(load.search, lambda rate: _meets(measure(rate, True), load.goodput_target))
        result["search"] = {
            **found,
            "goodput_target": load.goodput_target,
            "slo": slo.model_dump(exclude_none=True),
        }
    if load.mode == "rate" and slo is not None:
        shares = {
            float(k): (None if "stopped" in v else v["goodput"]["share"])
            for k, v in figures.items()
        }
        slo_set = slo.model_dump(exclude_none=True)
        result["knee"] = {**knee(shares, load.goodput_target), "slo": slo_set}
    result[load.mode] = dict(sorted(figures.items(), key=lambda item: float(item[0])))
    write_level_index(out, plan, load.mode, index_entries)
    return result


def write_level_index(out: Path, plan: Plan, mode: str | None, levels: dict[str, Any]) -> None:
    """``<out>/load/index.json``: every level sent and, per run, its measured entries (the key,
    row and repeat of each) — what ``atlas score`` pairs across levels. Written for every
    workload, so the folder is always there for DVC."""
    from stages.io import write_json

    ordered = dict(sorted(levels.items(), key=lambda item: float(item[0])))
    (out / "load").mkdir(parents=True, exist_ok=True)
    write_json(
        out / "load" / "index.json", {"run_key": plan.run_key, "mode": mode, "levels": ordered}
    )


def serving_document(main: dict[str, Any], levels: dict[str, Any]) -> dict[str, Any]:
    """``metrics/<w>.serving.json``: run key and definitions, then the main pass and levels."""
    main = dict(main)
    run_key = main.pop("run_key", None)
    return {"run_key": run_key, "definitions": DEFINITIONS, "main": main, **levels}
