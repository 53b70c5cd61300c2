"""``atlas compare A B``: pair two revisions' item verdicts and compare them workload by workload.

Issue 10. Inputs, all read with git at each revision (or from disk for ``workspace``):
``metrics/verdicts/<w>.jsonl``, ``metrics/<w>.json`` (dataset, model, engine and provenance
signature), ``metrics/<w>.serving.json`` and the dataset rows (categories, flip excerpts).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from stages.compare.pairs import Side, WorkloadPairs, load_side, pair, refusal, workloads_at
from stages.compare.records import VerdictRecord
from stages.compare.revisions import Revision
from stages.compare.row import Row
from stages.compare.serving import compare_intervals, serving_figures
from stages.errors import AtlasError


@dataclass(frozen=True)
class ServingRow:
    """Serving figures of one workload at A and B: the headline figures, and every figure both
    measured with a bootstrap interval compared by the interval of B − A (issue 23)."""

    workload: str
    a: dict[str, float | None]
    b: dict[str, float | None]
    intervals: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Comparison:
    """Everything ``atlas compare`` prints or writes."""

    a: Revision
    b: Revision
    rows: list[Row] = field(default_factory=list)
    serving: list[ServingRow] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)
    """Workloads not compared because their datasets differ, with the reason."""
    skipped: dict[str, str] = field(default_factory=dict)
    """Workloads scored at one revision only."""
    unpaired: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Items (x repeats) present at A only and at B only, per workload."""
    runs: dict[str, list[str]] = field(default_factory=dict)
    """``"model / decoding at A -> at B"`` description -> workloads."""
    warnings: list[str] = field(default_factory=list)
    paired: dict[str, WorkloadPairs] = field(default_factory=dict)
    records_a: list[VerdictRecord] = field(default_factory=list)
    """The verdict records every row comes from (``compare_records``), at A and at B."""
    records_b: list[VerdictRecord] = field(default_factory=list)


def dataset_rows(paired: WorkloadPairs) -> dict[str, dict[str, Any]]:
    """The dataset rows (same bytes at both revisions) by id, read at B; {} when not tracked."""
    dataset_id, _ = paired.b.dataset
    for side in (paired.b, paired.a):
        text = side.revision.text(f"datasets/{dataset_id}/rows.jsonl") if dataset_id else None
        if text is not None:
            rows = (json.loads(line) for line in text.split("\n") if line.strip())
            return {str(r["id"]): r for r in rows if isinstance(r, dict) and "id" in r}
    return {}


def category_of(row: dict[str, Any] | None) -> str | None:
    """The category a dataset row names, top level or in ``meta`` (scalars only)."""
    if row is None:
        return None
    meta = row.get("meta") if isinstance(row.get("meta"), dict) else {}
    value = row.get("category", meta.get("category") if meta else None)
    return str(value) if isinstance(value, str | int) and not isinstance(value, bool) else None


def graded_measure(signature: dict[str, Any]) -> str:
    """The graded figure of a workload's verdict scores: DROP F1 (0-1) or chrF++ (0-100)."""
    scorers = signature.get("scorers") or {}
    return "f1" if "drop" in scorers else "chrf" if "chrf" in scorers else "score"


def side_records(side: Side, rows: dict[str, dict[str, Any]]) -> list[VerdictRecord]:
    """The verdict records of one workload at one revision, with categories from the rows."""
    measure = graded_measure(side.signature)
    _, sha = side.dataset
    return [
        VerdictRecord(
            workload=side.workload, id=item.id, repeat=item.repeat, seed=item.seed,
            cluster=item.cluster, correct=item.correct, score=item.score,
            measure=(item.measure or measure) if item.score is not None else None,
            scale=item.scale, failed=item.failed,
            category=category_of(rows.get(item.id)) if item.seed is None else None,
            dataset_sha256=sha, exhausted=item.exhausted,
        )
        for item in side.items.values()
    ]  # fmt: skip


def run_text(a: dict[str, Any], b: dict[str, Any]) -> str:
    """``model A -> model B`` and the decoding settings, once when they are the same."""

    def model(signature: dict[str, Any]) -> str:
        m = signature.get("model") or {}
        return f"{m.get('name')} @ {str(m.get('revision'))[:12]}"

    def decoding(signature: dict[str, Any]) -> str:
        return json.dumps(signature.get("decoding") or {}, sort_keys=True)

    if decoding(a) == decoding(b):
        return f"{model(a)} -> {model(b)}, same decoding {decoding(a)}"
    return f"{model(a)}, decoding {decoding(a)} -> {model(b)}, decoding {decoding(b)}"


def _endpoints(signature: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The distinct (endpoint, chat template, fingerprint) of a run, in a stable order. A remote
    endpoint shows no template and a failed request no fingerprint: null sorts before any value
    (Python cannot order None against a string)."""
    provenance = signature.get("provenance") or []
    keys = ("endpoint", "chat_template_sha256", "system_fingerprint")
    found = {tuple(p.get(k) for k in keys) for p in provenance if isinstance(p, dict)}
    return sorted(found, key=lambda values: [(v is not None, str(v)) for v in values])


_NOT_ENGINE = ("isa_cpu", "binary")
"""Engine facts that do not change what the engine computes: what the CPU offers beyond the
build's fixed instruction set, and where the binary lies (issue 20)."""


def engine_warnings(paired: WorkloadPairs) -> list[str]:
    """What differs in the engine facts or the provenance of the two runs of a workload. The
    build (engine id and the facts it hashes) and the CPU that ran it are told apart: the same
    build on two CPUs is the same engine, and says so only as a note."""
    sig_a, sig_b = paired.a.signature, paired.b.signature
    out = []
    engine_a, engine_b = sig_a.get("engine") or {}, sig_b.get("engine") or {}
    changed = sorted(
        k
        for k in set(engine_a) | set(engine_b)
        if k not in _NOT_ENGINE and engine_a.get(k) != engine_b.get(k)
    )
    if changed:
        shown = ", ".join(f"{k} {engine_a.get(k)!r} -> {engine_b.get(k)!r}" for k in changed[:4])
        more = f" and {len(changed) - 4} more" if len(changed) > 4 else ""
        out.append(f"engine differs: {shown}{more}")
    if engine_a.get("isa_cpu") != engine_b.get("isa_cpu"):
        same = " (same build)" if not changed else ""
        out.append(
            f"the CPUs differ{same}: isa_cpu {engine_a.get('isa_cpu')!r} -> "
            f"{engine_b.get('isa_cpu')!r}; the build's instruction set is isa_built"
        )
    if _endpoints(sig_a) != _endpoints(sig_b):
        out.append(
            "provenance differs (endpoint, chat template or system fingerprint): "
            f"{_endpoints(sig_a)} -> {_endpoints(sig_b)}"
        )
    return out


def compare(a_name: str, b_name: str, only: list[str] | None = None) -> Comparison:
    """Compare revision ``b_name`` against ``a_name`` (every workload both scored, or ``only``)."""
    result = Comparison(Revision.of(a_name), Revision.of(b_name))
    names_a, names_b = set(workloads_at(result.a)), set(workloads_at(result.b))
    names = sorted(names_a | names_b) if only is None else list(only)
    for name in names:
        if name not in names_a | names_b:
            raise AtlasError(
                f"workload {name!r} has no verdicts at {result.a.short} or {result.b.short}"
            )
    if not names_a & names_b & set(names):
        raise AtlasError(
            f"no workload has item verdicts (metrics/verdicts/) at both {result.a.short} and "
            f"{result.b.short}: score both revisions with this version of `atlas score`"
        )
    records_a, records_b = result.records_a, result.records_b
    warnings: dict[str, list[str]] = {}
    for name in names:
        side_a, side_b = load_side(result.a, name), load_side(result.b, name)
        if side_a is None or side_b is None:
            missing = result.a if side_a is None else result.b
            result.skipped[name] = f"no verdicts at {missing.short}"
            continue
        reason = refusal(side_a, side_b)
        if reason is not None:
            result.refused[name] = reason
            continue
        paired = pair(side_a, side_b)
        result.paired[name] = paired
        if paired.only_a or paired.only_b:
            result.unpaired[name] = (paired.only_a, paired.only_b)
        rows = dataset_rows(paired)
        records_a += side_records(side_a, rows)
        records_b += side_records(side_b, rows)
        figures_a, figures_b = serving_figures(side_a.serving), serving_figures(side_b.serving)
        if any(v is not None for v in (*figures_a.values(), *figures_b.values())):
            compared = compare_intervals(side_a.serving, side_b.serving)
            result.serving.append(ServingRow(name, figures_a, figures_b, compared))
        run = run_text(side_a.signature, side_b.signature)
        result.runs.setdefault(run, []).append(name)
        for warning in engine_warnings(paired):
            warnings.setdefault(warning, []).append(name)
    from stages.compare.api import compare_records  # numpy and scipy: only when comparing

    result.rows = compare_records(records_a, records_b)
    result.warnings = [f"{w} ({', '.join(names)})" for w, names in warnings.items()]
    return result
