"""Our every_eval_ever models against the published schema (issue 34).

With copies of the evaleval/every_eval_ever files at hand (:func:`export_helpers.upstream_dir`),
the repository's own version-0.3.0 example log and its instance line validate with our models
and dump back to the same JSON, and every property the JSON schemas define is a field of a
model (none missing, none invented). Without them those tests are skipped; the schema's rules
the models implement by hand are tested either way.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from export_helpers import EXAMPLE, have_upstream, upstream_dir, upstream_json
from pydantic import BaseModel, ValidationError

from stages.export.eee_instance import InstanceRecord
from stages.export.eee_log import EvaluationLog
from stages.export.eee_models import SCHEMA_VERSION, MetricConfig
from stages.export.eee_parts import ModelDetails, ModelInfo

upstream = pytest.mark.skipif(
    not have_upstream(), reason=f"no copy of the every_eval_ever files in {upstream_dir()}"
)


@upstream
def test_the_repository_example_validates_and_dumps_back_unchanged() -> None:
    example = upstream_json(f"{EXAMPLE}.json")
    assert example["schema_version"] == SCHEMA_VERSION
    log = EvaluationLog.model_validate(example)
    assert log.model_dump(mode="json", exclude_none=True) == example
    lines = (upstream_dir() / f"{EXAMPLE}_samples.jsonl").read_text(encoding="utf-8")
    for line in lines.splitlines():
        record = InstanceRecord.model_validate_json(line)
        assert record.model_dump(mode="json", exclude_none=True) == json.loads(line)


def _schema_properties(
    node: Any, defs: dict[str, Any], path: str, out: dict[str, set[str]]
) -> None:
    """Property names per object path of a JSON schema (``$ref`` and ``oneOf`` followed)."""
    if not isinstance(node, dict):
        return
    if "$ref" in node:
        _schema_properties(defs[node["$ref"].split("/")[-1]], defs, path, out)
    for variant in node.get("oneOf", []):
        _schema_properties(variant, defs, path, out)
    if "properties" in node:
        out.setdefault(path, set()).update(node["properties"])
        for name, inner in node["properties"].items():
            _schema_properties(inner, defs, f"{path}.{name}" if path else name, out)
    if "items" in node:
        _schema_properties(node["items"], defs, f"{path}[]", out)


def _model_fields(model: type[BaseModel], path: str, out: dict[str, set[str]]) -> None:
    out.setdefault(path, set()).update(model.model_fields)
    for name, field in model.model_fields.items():
        inner = f"{path}.{name}" if path else name
        for kind in _models_in(field.annotation):
            _model_fields(kind, inner + ("[]" if _is_list(field.annotation) else ""), out)


def _is_list(annotation: Any) -> bool:
    return "list[" in str(annotation)


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    found = []
    for arg in getattr(annotation, "__args__", ()) or ():
        found += _models_in(arg)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        found.append(annotation)
    return found


@upstream
@pytest.mark.parametrize(
    ("schema", "model"),
    [("eval.schema.json", EvaluationLog), ("instance_level_eval.schema.json", InstanceRecord)],
)
def test_every_schema_property_is_a_model_field_and_no_other(
    schema: str, model: type[BaseModel]
) -> None:
    document = upstream_json(schema)
    assert document["version"] == SCHEMA_VERSION
    expected: dict[str, set[str]] = {}
    _schema_properties(document, document.get("$defs", {}), "", expected)
    found: dict[str, set[str]] = {}
    _model_fields(model, "", found)
    # The schema names the source_data variants' properties under one path; so do we.
    assert {k: v for k, v in found.items() if v} == {k: v for k, v in expected.items() if v}


def test_every_field_has_a_docstring() -> None:
    found: dict[str, set[str]] = {}
    _model_fields(EvaluationLog, "", found)
    _model_fields(InstanceRecord, "", found)
    models: list[type[BaseModel]] = []
    for kind in (EvaluationLog, InstanceRecord):
        stack = [kind]
        while stack:
            model = stack.pop()
            if model in models:
                continue
            models.append(model)
            for field in model.model_fields.values():
                stack += _models_in(field.annotation)
    undocumented = [
        f"{m.__name__}.{n}" for m in models for n, f in m.model_fields.items() if not f.description
    ]
    assert len(models) > 20 and undocumented == []


def test_the_schema_rules_written_by_hand() -> None:
    bounded = {"lower_is_better": False, "score_type": "continuous"}
    with pytest.raises(ValidationError, match="needs min_score and max_score"):
        MetricConfig.model_validate({**bounded, "min_score": 0.0})
    assert MetricConfig.model_validate({**bounded, "min_score": "-Infinity", "max_score": 1})
    with pytest.raises(ValidationError, match="needs level_names"):
        MetricConfig.model_validate({"lower_is_better": False, "score_type": "levels"})
    with pytest.raises(ValidationError, match="extra"):
        MetricConfig.model_validate({"lower_is_better": False, "metric_type": "accuracy"})
    details = {"deployment_type": "self_deployed", "model_availability": "open_weights"}
    with pytest.raises(ValidationError, match="string"):
        ModelDetails.model_validate({**details, "params_billions": 8.357})  # the 0.2.0 example's
    with pytest.raises(ValidationError, match="model_availability"):
        ModelInfo.model_validate({"name": "m", "id": "o/m", "additional_details": {}})
    record = {
        "schema_version": SCHEMA_VERSION, "evaluation_id": "e", "model_id": "o/m",
        "evaluation_name": "x", "sample_id": "1", "interaction_type": "single_turn",
        "input": {"raw": "q", "reference": []}, "answer_attribution": [],
        "evaluation": {"score": 1, "is_correct": True},
    }  # fmt: skip
    with pytest.raises(ValidationError, match="single_turn record needs output"):
        InstanceRecord.model_validate(record)
    assert InstanceRecord.model_validate({**record, "output": {"raw": ["a"]}})
    with pytest.raises(ValidationError, match="agentic record needs messages"):
        InstanceRecord.model_validate({**record, "interaction_type": "agentic"})
