"""The run table that opens ``report.md`` and ``report.html``: which model answered, how.

One group per model and revision (in the order the workloads first name them), never repeated:
the decoding settings every workload of that model shares are stated once, and the table lists
only the settings that differ (typically ``max_tokens``), one row per distinct setting with the
workloads that used it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from stages.report.inputs import WorkloadInputs

MISSING = object()
"""A decoding key one group sets and another does not (shown as ``—``)."""


@dataclass(frozen=True)
class ModelRuns:
    """The workloads one model revision answered, grouped by decoding."""

    name: str
    revision: str
    shared: dict[str, Any]
    """Decoding settings with the same value in every group."""
    varying: list[str]
    """Decoding keys whose value differs between groups (sorted)."""
    groups: list[tuple[list[Any], list[str]]]
    """Per distinct decoding: the values of ``varying`` (``None`` where unset), its workloads."""

    @property
    def shared_json(self) -> str:
        return json.dumps(self.shared, sort_keys=True)

    @property
    def header(self) -> list[str]:
        return [*self.varying, "workloads"]

    def rows(self) -> list[list[Any]]:
        return [[*values, ", ".join(names)] for values, names in self.groups]


def model_runs(workloads: list[WorkloadInputs]) -> list[ModelRuns]:
    """Every model revision the workloads come from, with its decoding groups."""
    by_model: dict[tuple[str, str], dict[str, tuple[dict[str, Any], list[str]]]] = {}
    for w in workloads:
        decoding = dict(w.manifest.get("decoding") or {})
        groups = by_model.setdefault(w.model, {})
        groups.setdefault(json.dumps(decoding, sort_keys=True), (decoding, []))[1].append(w.name)
    out = []
    for (name, revision), groups in by_model.items():
        decodings = [decoding for decoding, _ in groups.values()]
        keys = sorted({k for d in decodings for k in d})
        shared = {
            k: decodings[0][k]
            for k in keys
            if all(d.get(k, MISSING) == decodings[0].get(k, MISSING) for d in decodings)
        }
        varying = [k for k in keys if k not in shared]
        rows = [([d.get(k) for k in varying], names) for d, names in groups.values()]
        out.append(ModelRuns(name, revision, shared, varying, rows))
    return out


def sentence(run: ModelRuns, code: Callable[[str], str]) -> str:
    """The line above a model's table; ``code`` marks up a literal (a Markdown code span, or an
    escaped html ``<code>``)."""
    by_group = "; by group:" if run.varying else "."
    return (
        f"Model {code(run.name)} revision {code(run.revision)}. Decoding of all its workloads: "
        f"{code(run.shared_json)}{by_group}"
    )
