"""_gen/eval-identity-v1.py: its tiny params.yaml reader agrees with PyYAML and ModelCard, and
the 100 items hold the planned mix of direct, unsupported and false-premise questions."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from stages.params import model_params

VARIANTS = [
    "model:\n  name: x\n  card:\n    name: 'Tiny-1'\n    developer: \"Lab # 1\"  # note\n"
    "    parameters: 1.5B\n    context_length: 4096\n    knowledge_cutoff: 2024-06\n"
    "    languages: [en, fr]\ndecoding: {}\n",
    "# top comment\nmodel:\n  base_url: embedded\n\n  card:\n    name: Tiny-2\n"
    "    developer: Lab\n    parameters: 7B\n    context_length: 8192\n"
    "    knowledge_cutoff: unknown\n    languages:  # as published\n    - en\n    - bci\n"
    "  revision: r\n"
    "run:\n  limit: 1\n",
]


def load_generator(project: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_identity", project / "_gen" / "eval-identity-v1.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_card_reader_agrees_with_pyyaml_and_the_params_model(review_project: Path) -> None:
    generator = load_generator(review_project)
    for text in VARIANTS:
        assert generator.read_card(text) == yaml.safe_load(text)["model"]["card"]
    card = model_params().card
    assert card is not None
    assert generator.read_card(Path("params.yaml").read_text()) == card.model_dump()
    with pytest.raises(SystemExit, match="model.card is missing"):
        generator.read_card("model:\n  name: x\ncard:\n  name: y\n")
    with pytest.raises(SystemExit, match="unsupported YAML"):
        generator.read_card(VARIANTS[0].replace("'Tiny-1'", "{a: 1}"))


def test_items_mix_and_gold_follow_the_card(review_project: Path) -> None:
    rows = [
        json.loads(x) for x in Path("datasets/eval-identity-v1/rows.jsonl").read_text().splitlines()
    ]
    assert len(rows) == 100
    assert Counter(r["difficulty"] for r in rows) == {"easy": 48, "hard": 36, "medium": 16}
    false = [r for r in rows if r["meta"]["false_premise"]]
    assert len(false) == 36 and all(r["answer"]["false_claim"] in r["prompt"] for r in false)
    assert Counter(r["meta"]["card_field"] for r in false)["developer"] == 6
    assert Counter(r["meta"]["lang"] for r in rows) == {"en": 50, "fr": 50}
    cutoff = next(r for r in rows if r["category"] == "knowledge_cutoff")
    assert cutoff["answer"]["card_value"] is None  # the card says unknown: nothing to recite
    assert "not published" in cutoff["answer"]["expected"]
    developer = next(r for r in false if r["meta"]["card_field"] == "developer")
    assert "the developer is Hugging Face, not" in developer["answer"]["expected"]
    assert {r["meta"]["false_premise"] for r in rows[:8]} == {True, False}


def test_generator_is_deterministic_and_needs_the_card(review_project: Path) -> None:
    out = review_project / "again"
    subprocess.run([sys.executable, "_gen/eval-identity-v1.py", str(out)], check=True)
    assert (out / "rows.jsonl").read_bytes() == Path(
        "datasets/eval-identity-v1/rows.jsonl"
    ).read_bytes()
    params = Path("params.yaml")
    params.write_text(params.read_text().split("  card:")[0] + "decoding: {}\n")
    proc = subprocess.run(
        [sys.executable, "_gen/eval-identity-v1.py", str(out)], capture_output=True, text=True
    )
    assert proc.returncode != 0 and "model.card is missing" in proc.stderr
