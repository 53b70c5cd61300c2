"""The model and engine facts of a run, from the signatures ``atlas score`` committed.

Each ``metrics/<w>.json`` carries the run manifest's facts that its figures depend on (model
name and revision, decoding, engine, provenance: docs/formats.md#metrics); the manifest itself
is a DVC output and is not in git. An export is of one run: every exported workload must name
the same model and revision.
"""

from __future__ import annotations

import json
from typing import Any

from stages.errors import AtlasError
from stages.export.eee_parts import InferenceEngine, ModelDetails, ModelInfo
from stages.export.run_files import ScoredWorkload

_EMBEDDED = "embedded:"


def run_signature(workloads: list[ScoredWorkload]) -> dict[str, Any]:
    """The signature of the first workload, once every workload names the same model."""
    models: dict[tuple[Any, Any], list[str]] = {}
    for workload in workloads:
        model = workload.signature.get("model") or {}
        models.setdefault((model.get("name"), model.get("revision")), []).append(workload.name)
    if len(models) > 1:
        seen = "; ".join(f"{n} @ {str(r)[:12]} ({', '.join(w)})" for (n, r), w in models.items())
        raise AtlasError(
            f"the workloads were run on different models ({seen}): export one run "
            "at a time with --workload"
        )
    return workloads[0].signature


def _endpoints(signature: dict[str, Any]) -> list[str]:
    provenance = signature.get("provenance") or []
    return sorted({str(p.get("endpoint")) for p in provenance if isinstance(p, dict)})


def model_info(signature: dict[str, Any], model_id: str | None) -> ModelInfo:
    """``model_info``: names, engine and deployment facts of the run's model."""
    model = signature.get("model") or {}
    name = str(model.get("name") or "unknown")
    endpoints = _endpoints(signature)
    embedded = bool(endpoints) and all(e.startswith(_EMBEDDED) for e in endpoints)
    engine = signature.get("engine") or {}
    provenance = signature.get("provenance") or []
    extra = {
        "revision": model.get("revision"),
        "endpoints": endpoints,
        "chat_template_sha256": sorted({str(p.get("chat_template_sha256")) for p in provenance}),
        "system_fingerprint": sorted({str(p.get("system_fingerprint")) for p in provenance}),
        "engine": {k: v for k, v in engine.items() if k != "binary"} or None,
    }
    details = {
        k: json.dumps(v) if not isinstance(v, str) else v for k, v in extra.items() if v is not None
    }
    identifier = model_id or name
    return ModelInfo(
        name=name,
        id=identifier,
        developer=identifier.split("/", 1)[0] if "/" in identifier else None,
        inference_platform="local (embedded llama-server)"
        if embedded
        else ", ".join(endpoints) or None,
        inference_engine=InferenceEngine(
            name=str(engine.get("server") or "llama-server") + " (llama.cpp)",
            version=f"{engine.get('llama_cpp_version')} {engine.get('llama_cpp_commit')}",
        )
        if engine
        else None,
        # An embedded run loads published GGUF weights on this machine; of a remote endpoint
        # the export cannot know either fact.
        additional_details=ModelDetails.model_validate(
            {
                "deployment_type": "self_deployed" if embedded else "unknown",
                "model_availability": "open_weights" if embedded else "unknown",
                **details,
            }
        ),
    )
