"""A scored project in a temp dir: an eval, a serving (prompts) and a long-context workload.

Scoring uses a fake exact-match scorer so the report tests do not depend on the real scorers.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stages.scoring.stage import score_workload
from stages.scoring.verdict import Verdict

RK = "c" * 64
PARAMS = """\
workloads:
  math:
    dataset: eval-tiny-v1
  mix:
    dataset: prompts-tiny-v1
  lc:
    dataset: eval-lc-v1
"""


def fake_score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    if response.get("error"):
        return Verdict(row["scorer"], False, 0.0, None, "request failed", {})
    out = response["output"].strip()
    ok = out == row["answer"]
    return Verdict(row["scorer"], ok, float(ok), out, "equal" if ok else "differs", {})


def _dataset(root: Path, dataset_id: str, kind: str, rows: list[dict[str, Any]]) -> str:
    path = root / "datasets" / dataset_id
    path.mkdir(parents=True)
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    (path / "rows.jsonl").write_bytes(data)
    card = {
        "id": dataset_id,
        "kind": kind,
        "description": "fixture",
        "licence": "MIT",
        "generator": {"path": f"_gen/{dataset_id}.py", "seed": 1},
        "token_heuristic": "chars/4",
        "default_scorer": None,
        "rows": len(rows),
        "files": {},
        "created": "2026-01-01",
    }
    (path / "dataset.json").write_text(json.dumps(card))
    return hashlib.sha256(data).hexdigest()


def _run(root: Path, name: str, dataset_id: str, sha: str, records: list[dict[str, Any]]) -> None:
    results = root / "results" / name
    results.mkdir(parents=True)
    manifest = {
        "run_key": RK,
        "model": {"name": "tiny-model", "revision": "rev-42", "endpoint": "embedded"},
        "decoding": {"temperature": 0.0, "max_tokens": 16},
        "dataset": {"id": dataset_id, "sha256": sha},
        "workload": name,
    }
    (results / "manifest.json").write_text(json.dumps(manifest))
    lines = [json.dumps({"run_key": RK, "repeat": 0, "error": None, **r}) for r in records]
    (results / "responses.jsonl").write_text("".join(x + "\n" for x in lines))


def _eval_row(row_id: str, category: str, answer: str, **meta: Any) -> dict[str, Any]:
    return {
        "id": row_id,
        "category": category,
        "difficulty": "easy",
        "scorer": "exact",
        "prompt": f"Question {row_id}?",
        "answer": answer,
        "meta": meta,
    }


def _prompt_row(row_id: str, content: str, bucket: str, tokens: int) -> dict[str, Any]:
    return {
        "id": row_id,
        "topic": "t",
        "bucket": bucket,
        "lang": "en",
        "approx_tokens": tokens,
        "shared_prefix": None,
        "messages": [{"role": "user", "content": content}],
    }


def _haystack(tokens: int, depth: float) -> dict[str, Any]:
    return {"haystack": {"target_tokens": tokens, "needles": [{"depth": depth}]}}


@pytest.fixture
def scored_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = tmp_path
    (root / "params.yaml").write_text(PARAMS)
    math_rows = [
        _eval_row("m-1", "arith", "2"),
        _eval_row("m-2", "arith", "4"),
        _eval_row("m-3", "words", "cat"),
        _eval_row("m-4", "words", "owl|bat"),
    ]
    sha = _dataset(root, "eval-tiny-v1", "eval", math_rows)
    _run(
        root,
        "math",
        "eval-tiny-v1",
        sha,
        [
            {"id": "m-1", "output": "2", "latency_s": 1.0},
            {"id": "m-2", "output": "5", "latency_s": 2.0},
            {"id": "m-3", "output": "", "error": {"kind": "timeout", "message": "slow"}},
            {"id": "m-4", "output": "owl|bat", "latency_s": 3.0},
        ],
    )
    mix_rows = [
        _prompt_row("p-1", "Hello there", "xs", 3),
        _prompt_row("p-2", "Hi", "xs", 1),
        _prompt_row("p-3", "x" * 400, "s", 100),
    ]
    sha = _dataset(root, "prompts-tiny-v1", "prompts", mix_rows)
    _run(
        root,
        "mix",
        "prompts-tiny-v1",
        sha,
        [
            {"id": "p-1", "output": "a", "ttft_s": 0.1, "latency_s": 0.5},
            {"id": "p-2", "output": "b", "ttft_s": 0.3, "latency_s": 0.7},
            {"id": "p-3", "output": "c", "ttft_s": 0.8, "latency_s": 1.2},
        ],
    )
    lc_rows = [
        _eval_row("l-1", "needle", "111", **_haystack(1024, 0.0)),
        _eval_row("l-2", "needle", "222", **_haystack(1024, 0.5)),
        _eval_row("l-3", "needle", "333", **_haystack(8192, 0.0)),
        _eval_row("l-4", "needle", "444", **_haystack(8192, 0.5)),
    ]
    sha = _dataset(root, "eval-lc-v1", "eval", lc_rows)
    _run(
        root,
        "lc",
        "eval-lc-v1",
        sha,
        [
            {"id": "l-1", "output": "111"},
            {"id": "l-2", "output": "222"},
            {"id": "l-3", "output": "333"},
            {"id": "l-4", "output": "", "error": {"kind": "context_overflow", "message": "8192"}},
        ],
    )
    (root / "metrics").mkdir()
    serving = {"requests_failed": 0, "ttft_s": {"xs": {"p50": 0.2}}}
    (root / "metrics" / "mix.serving.json").write_text(json.dumps(serving))
    (root / "metrics" / "check.json").write_text(json.dumps({"datasets": 3, "failures": 0}))
    monkeypatch.chdir(root)
    for name in ("math", "mix", "lc"):
        score_workload(name, fake_score, {"exact": "exact-test"})
    yield root
