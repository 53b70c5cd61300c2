"""``metrics/audit.json`` as a whole: the rule, one block per dataset (``DatasetAudit.metrics``)
and the lineages that read before -> after (issue 19)."""

from __future__ import annotations

from typing import Any

from stages.datasets.audit import DatasetAudit
from stages.datasets.learned import MAX_MARGIN


def corpus_metrics(audits: dict[str, DatasetAudit]) -> dict[str, Any]:
    """``metrics/audit.json``: the rule, one block per dataset and the lineages (each dataset's
    versions in order with their :func:`summary`, so before -> after reads down a lineage).
    Which default workloads still run a flawed dataset is the report's to say (the check stage
    does not read ``workloads``)."""
    lineages: dict[str, list[str]] = {}
    for dataset_id in sorted(audits, key=_version_key):
        lineages.setdefault(dataset_id.rsplit("-v", 1)[0], []).append(dataset_id)
    blocks = {k: a.metrics() for k, a in sorted(audits.items())}
    return {
        "max_margin": MAX_MARGIN,
        "failed": sorted(k for k, a in audits.items() if a.status == "fail"),
        "flawed": sorted(k for k, a in audits.items() if a.status == "flawed"),
        "lineages": {k: [summary(d, blocks[d]) for d in v]
                     for k, v in sorted(lineages.items()) if len(v) > 1},  # fmt: skip
        "datasets": blocks,
    }


def summary(dataset_id: str, block: dict[str, Any]) -> dict[str, Any]:
    """One line of a lineage (before -> after): learned margin and interval per format, near
    misses rejected, echoes wrong, mutation score and status, from the dataset's block."""
    strength = block["strength"]

    def held(*names: str) -> str:
        tallies = [strength.get(n, {"held": 0, "tried": 0}) for n in names]  # older blocks
        return f"{sum(t['held'] for t in tallies)}/{sum(t['tried'] for t in tallies)}"

    margins = {fmt: {"margin": f["learned"]["margin"], "ci95": f["learned"]["ci95"],
                     "fails": f["learned"]["fails"]}
               for fmt, f in block["formats"].items() if f["learned"]}  # fmt: skip
    return {
        "id": dataset_id, "status": block["status"], "learned": margins,
        "near_misses_rejected": held("near_misses", "derived", "adversarial"),
        "right_accepted": held("alternatives", "gold", "flexible", "careful"),
        "echoes_wrong": held("echoes"), "mutation_score": block["mutation"]["score"],
    }  # fmt: skip


def _version_key(dataset_id: str) -> tuple[str, int]:
    base, _, version = dataset_id.rpartition("-v")
    return (base, int(version)) if version.isdigit() else (dataset_id, 0)
