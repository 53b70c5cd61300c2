"""Row, card and params schemas: exact acceptance and rejection rules."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from stages.cli import main
from stages.datasets.rows import EvalRow, HaystackRow, PromptRow
from stages.datasets.tokens import approx_tokens, bucket_for
from stages.params import DecodingParams, ModelParams

EVAL: dict[str, Any] = {
    "id": "x-0001",
    "category": "c",
    "difficulty": "easy",
    "prompt": "2+2?",
    "answer": "4",
    "scorer": "numeric",
    "meta": {},
}


def _prompt_row(content: str, shared_prefix: str | None = None) -> dict[str, Any]:
    tokens = approx_tokens([content], shared_prefix)
    return {
        "id": "p-1",
        "topic": "t",
        "bucket": bucket_for(tokens),
        "lang": "en",
        "approx_tokens": tokens,
        "messages": [{"role": "user", "content": content}],
        "shared_prefix": shared_prefix,
    }


@pytest.mark.parametrize(
    ("tokens", "bucket"),
    [
        (0, "xs"),
        (64, "xs"),
        (65, "s"),
        (256, "s"),
        (257, "m"),
        (1024, "m"),
        (1025, "l"),
        (4096, "l"),
        (4097, "xl"),
        (16384, "xl"),
        (16385, "xxl"),
        (300_000, "xxl"),
    ],
)
def test_bucket_edges_are_inclusive(tokens: int, bucket: str) -> None:
    assert bucket_for(tokens) == bucket


def test_approx_tokens_counts_shared_prefix() -> None:
    assert approx_tokens(["abcde"]) == 2
    assert approx_tokens(["abcd"], shared_prefix="abcd") == 2
    assert approx_tokens(["a"], shared_prefix="") == 1


def test_prompt_row_recomputes_tokens_and_bucket() -> None:
    PromptRow.model_validate(_prompt_row("x" * 260, "y" * 20))
    bad = _prompt_row("x" * 260)
    bad["approx_tokens"] = 66
    with pytest.raises(ValidationError, match="approx_tokens is 66, recomputed 65"):
        PromptRow.model_validate(bad)
    wrong_bucket = _prompt_row("x" * 260) | {"bucket": "m"}
    with pytest.raises(ValidationError, match="bucket is 'm', 65 tokens is 's'"):
        PromptRow.model_validate(wrong_bucket)


def test_eval_prompt_xor_messages() -> None:
    EvalRow.model_validate(EVAL)
    with pytest.raises(ValidationError, match="exactly one of prompt and messages"):
        EvalRow.model_validate(EVAL | {"messages": [{"role": "user", "content": "hi"}]})
    with pytest.raises(ValidationError, match="exactly one of prompt and messages"):
        EvalRow.model_validate({k: v for k, v in EVAL.items() if k != "prompt"})


def test_mc_answer_must_be_a_label_of_its_choices() -> None:
    EvalRow.model_validate(EVAL | {"scorer": "mc", "choices": ["a", "b", "c"], "answer": "C"})
    with pytest.raises(ValidationError, match=r"mc answer 'D' is not one of \['A', 'B', 'C'\]"):
        EvalRow.model_validate(EVAL | {"scorer": "mc", "choices": ["a", "b", "c"], "answer": "D"})
    with pytest.raises(ValidationError, match="choices are only for mc rows"):
        EvalRow.model_validate(EVAL | {"choices": ["a", "b"]})


def test_tests_field_only_with_code_exec_and_image_stays_inside() -> None:
    EvalRow.model_validate(
        EVAL | {"scorer": "code_exec", "tests": "assert f() == 1", "answer": "f"}
    )
    with pytest.raises(ValidationError, match="tests go with the code_exec scorer"):
        EvalRow.model_validate(EVAL | {"scorer": "code_exec"})
    with pytest.raises(ValidationError, match="must stay inside the dataset directory"):
        EvalRow.model_validate(EVAL | {"image": "../secret.png"})


def test_unknown_scorer_and_unknown_field_are_errors() -> None:
    with pytest.raises(ValidationError, match="scorer"):
        EvalRow.model_validate(EVAL | {"scorer": "fuzzy"})
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        EvalRow.model_validate(EVAL | {"note": "x"})


def test_haystack_kind_must_fit_needles() -> None:
    row = {
        "id": "hay-1k",
        "kind": "multi",
        "target_tokens": 1024,
        "seed": 1,
        "algorithm": "haystack-v1",
        "needles": [{"depth": 0.5, "text": "t", "answer": "a", "line_number": 3}],
        "question": "q",
        "answer": "a",
        "chars": 4093,
        "lines": 40,
        "approx_tokens": 1024,
        "sha256": "0" * 64,
        "static_file": None,
    }
    with pytest.raises(ValidationError, match="kind 'multi' does not fit 1 needle"):
        HaystackRow.model_validate(row)
    HaystackRow.model_validate(row | {"kind": "single"})


def test_decoding_rules() -> None:
    assert DecodingParams().effective_repeats == 1
    assert DecodingParams(temperature=0.7, seed=3).effective_repeats == 3
    assert DecodingParams(temperature=0.7, seed=3, repeats=5).effective_repeats == 5
    with pytest.raises(ValidationError, match="needs a seed"):
        DecodingParams(temperature=0.7, seed=None)


def test_model_base_url_forms() -> None:
    base = {"name": "m", "revision": "r"}
    assert ModelParams.model_validate(base | {"base_url": "embedded"}).is_embedded
    ModelParams.model_validate(base | {"base_url": ["http://a/v1", "http://b/v1"]})
    with pytest.raises(ValidationError, match="neither 'embedded' nor an http"):
        ModelParams.model_validate(base | {"base_url": "ftp://x"})
    with pytest.raises(ValidationError, match="revision"):
        ModelParams.model_validate({"name": "m", "revision": "", "base_url": "embedded"})


def test_schema_export_writes_one_schema_per_model(tmp_path: Path) -> None:
    assert main(["schema", "export", str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "dataset-card.schema.json",
        "row-eval.schema.json",
        "row-haystack.schema.json",
        "row-prompts.schema.json",
    ]
    schema = json.loads((tmp_path / "row-prompts.schema.json").read_text())
    assert schema["additionalProperties"] is False
    assert schema["properties"]["shared_prefix"]["description"].startswith("When set, sent as")


def test_probes_option_ok_must_mark_exactly_the_gold() -> None:
    row = {
        "id": "x-1",
        "category": "c",
        "difficulty": "easy",
        "prompt": "p",
        "answer": "B",
        "scorer": "mc",
        "choices": ["a", "b"],
    }
    ok = EvalRow.model_validate({**row, "probes": {"option_ok": [False, True]}})
    assert ok.probes is not None and ok.probes.option_ok == [False, True]
    for bad, message in [
        ([True, False], "marks ['A'] right, the gold is 'B'"),
        ([True, True], "marks ['A', 'B'] right"),
        ([False, True, False], "one verdict per choice"),
    ]:
        with pytest.raises(ValidationError, match=re.escape(message)):
            EvalRow.model_validate({**row, "probes": {"option_ok": bad}})
    with pytest.raises(ValidationError, match="for code_exec rows only"):
        EvalRow.model_validate({**row, "probes": {"reference": "def f(): pass"}})
