"""Helpers for the inference tests: a throw-away project with datasets, params and a stub."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
if str(REPO / "tests") not in sys.path:
    sys.path.append(str(REPO / "tests"))


def _lib() -> Any:
    """``_gen/common/lib.py``, imported as the generators import it (``_gen/`` on the path)."""
    if str(REPO / "_gen") not in sys.path:
        sys.path.insert(0, str(REPO / "_gen"))
    return importlib.import_module("common.lib")


GEN = _lib()


def write_dataset(
    root: Path,
    dataset_id: str,
    kind: str,
    rows: list[dict[str, Any]],
    extra_files: dict[str, bytes] | None = None,
) -> Path:
    out = root / "datasets" / dataset_id
    GEN.write_dataset(
        out, dataset_id=dataset_id, kind=kind, description="test rows", seed=1,
        generator_path=f"_gen/{dataset_id}.py", default_scorer="exact" if kind == "eval" else None,
        created="2026-01-01", rows=rows, extra_files=extra_files,
    )  # fmt: skip
    return out


def eval_row(idx: int, **extra: Any) -> dict[str, Any]:
    row = {
        "id": f"q-{idx:04d}",
        "category": "t",
        "difficulty": "easy",
        "prompt": f"What is {idx} + 1?",
        "answer": str(idx + 1),
        "scorer": "exact",
        "meta": {},
    }
    row.update(extra)
    return row


def prompt_row(idx: int, text: str | None = None, **extra: Any) -> dict[str, Any]:
    messages = [{"role": "user", "content": text or f"Say something about item {idx}."}]
    return GEN.prompt_row(f"p-{idx:04d}", "science", "en", messages, **extra)


def write_params(root: Path, base_url: str | list[str], **sections: Any) -> None:
    params: dict[str, Any] = {
        "model": {
            "base_url": base_url,
            "name": "stub-model",
            "revision": "r1",
            "api_key_env": "ATLAS_TEST_KEY",
        },
        "decoding": {"temperature": 0.0, "top_p": 1.0, "max_tokens": 32, "seed": 0},
        "run": {"concurrency": 4, "timeout_s": 5, "max_retries": 3, "limit": None},
        "workloads": {"w": {"dataset": "eval-t-v1"}},
    }
    for name, values in sections.items():
        if isinstance(values, dict) and isinstance(params.get(name), dict):
            params[name].update(values)
        else:
            params[name] = values
    (root / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")


def oracle(body: dict[str, Any]) -> str:
    """The right answer to eval_row's "What is N + 1?"."""
    question = body["messages"][-1]["content"]
    number = int(re.fullmatch(r"What is (\d+) \+ 1\?", question).group(1))  # type: ignore[union-attr]
    return f"Answer: {number + 1}"
