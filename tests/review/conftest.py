"""A throw-away project for the review workflow: identity and translation datasets, params,
fake journaled responses of two workloads and the demo study file."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import copy_gen

REPO = Path(__file__).resolve().parents[2]
RUN_KEY = "a" * 64
OTHER_RUN = "b" * 64

PARAMS = """\
datasets: []
check:
  budget_mb: 25
model:
  base_url: embedded
  name: SmolLM2-135M-Instruct-Q4_1
  revision: deadbeef
  context_length: 8192
  card:
    name: SmolLM2-135M-Instruct
    developer: Hugging Face   # the organisation
    parameters: "135M"
    context_length: 8192
    knowledge_cutoff: unknown
    languages:
      - en
decoding:
  temperature: 0.0
  top_p: 1.0
  max_tokens: 64
  seed: 0
  repeats: null
run:
  limit: 12
workloads:
  identity:
    dataset: eval-identity-v1
    limit: 6
  translation:
    dataset: eval-translation-v1
    limit: 4
"""

STUDY = """\
seed: 7
demo: true
reviewers: [ana, ben]
tracks:
  identity: {workload: identity, rubric: identity-0-2}
  translation: {workload: translation, rubric: translation-0-4, group_by: direction}
"""

PAIRS = [
    ("fr-en", "Le chat dort.", ["The cat is sleeping."], ["The cat sleeps."]),
    ("en-fr", "Good morning.", ["Bonjour."], []),
    ("fr-en", "Il pleut.", ["It is raining."], []),
    ("en-fr", "Thank you.", ["Merci."], ["Merci bien."]),
    ("fr-en", "Où est la gare ?", ["Where is the station?"], []),
]


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")


def write_run(workload: str, outputs: dict[str, str], error_ids: tuple[str, ...] = ()) -> None:
    """A manifest and a journal: one record per row of this run plus a stale other-run record."""
    base = Path("results") / workload
    base.mkdir(parents=True, exist_ok=True)
    manifest = {
        "run_key": RUN_KEY,
        "workload": workload,
        "model": {"name": "SmolLM2-135M-Instruct-Q4_1", "revision": "deadbeef", "endpoint": "x"},
        "decoding": {"temperature": 0.0, "top_p": 1.0, "max_tokens": 64, "seed": 0},
        "dataset": {"id": f"eval-{workload}-v1", "sha256": "0" * 64},
    }
    (base / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    records = []
    for row_id, text in outputs.items():
        records.append(
            {
                "key": hashlib.sha256(row_id.encode()).hexdigest(),
                "run_key": OTHER_RUN,
                "id": row_id,
                "repeat": 0,
                "output": "STALE OTHER MODEL",
                "error": None,
            }
        )
        error = {"kind": "timeout", "message": "t"} if row_id in error_ids else None
        records.append(
            {
                "key": hashlib.sha256(row_id.encode()).hexdigest(),
                "run_key": RUN_KEY,
                "id": row_id,
                "repeat": 0,
                "output": "" if error else text,
                "error": error,
            }
        )
    write_jsonl(base / "responses.jsonl", records)


@pytest.fixture
def review_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """cwd = a project with both datasets, two workloads' responses and review/studies/demo.yaml."""
    copy_gen(tmp_path, "eval-identity-v1.py")
    (tmp_path / "params.yaml").write_text(PARAMS, "utf-8")
    subprocess.run(
        [sys.executable, "_gen/eval-identity-v1.py", "datasets/eval-identity-v1"],
        check=True,
        cwd=tmp_path,
        capture_output=True,
    )
    monkeypatch.chdir(tmp_path)
    from stages.review.importer import import_dataset

    source = tmp_path / "pairs.jsonl"
    write_jsonl(
        source,
        [
            {"direction": d, "source": s, "references": r, "variants": v, "note": "demo"}
            for d, s, r, v in PAIRS
        ],
    )
    import_dataset(
        source,
        "eval-translation-v1",
        kind="translation",
        origin="tests",
        revision="1",
        licence="MIT",
    )
    identity_rows = [
        json.loads(x) for x in Path("datasets/eval-identity-v1/rows.jsonl").read_text().splitlines()
    ][:6]
    write_run(
        "identity",
        {r["id"]: f"I am a small model (answer {n})." for n, r in enumerate(identity_rows)},
        error_ids=("identity-0006",),
    )
    write_run("translation", {f"translation-{n:04d}": PAIRS[n - 1][2][0] for n in range(1, 5)})
    Path("review/studies").mkdir(parents=True)
    Path("review/studies/demo.yaml").write_text(STUDY, "utf-8")
    yield tmp_path


def fill_verdicts(path: Path, label: Any) -> None:
    """Fill every null field of a verdict template with ``label(blind_id, field)``."""
    data = json.loads(path.read_text("utf-8"))
    for entry in data["verdicts"]:
        for name, value in list(entry.items()):
            if value is None:
                entry[name] = label(entry["id"], name)
    path.write_text(json.dumps(data, indent=2), "utf-8")


@pytest.fixture
def fill() -> Any:
    """:func:`fill_verdicts`, as a fixture (test modules cannot import conftest)."""
    return fill_verdicts


@pytest.fixture
def journal() -> Any:
    """:func:`write_run`, as a fixture."""
    return write_run


def lists_in(document: Any, where: str = "") -> list[str]:
    """Paths of every list inside a metrics document (DVC drops lists from metrics)."""
    if isinstance(document, list):
        return [where or "/"]
    if isinstance(document, dict):
        return [p for k, v in document.items() for p in lists_in(v, f"{where}/{k}")]
    return []


@pytest.fixture
def no_lists() -> Any:
    """:func:`lists_in`, as a fixture."""
    return lists_in


AUDIT_STUDY = """\
seed: 11
reviewers: [ana, ben, cid]
audit:
  corpus: corpus.jsonl
  take: {A: 6, B: 4, C: 5}
  score_field: rescore
  band: [4, 7]
  outcome: {field: converts, label: "no"}
  pass1: {rubric: convert-pass1, show: [question, choices, answer]}
  pass2: {rubric: convert-pass2, show: [question, choices, answer, rewrite], only_with: rewrite}
"""


def corpus_row(n: int) -> dict[str, Any]:
    stratum = "A" if n < 40 else "B" if n < 50 else "C"
    score = {"A": 9, "B": 2, "C": (4, 5, 6, 7, 7)[n - 50] if n >= 50 else None}[stratum]
    return {
        "id": f"q-{n:03d}",
        "stratum": stratum,
        "rescore": score,
        "question": f"Question number {n}?",
        "choices": ["alpha", "beta"],
        "answer": "alpha",
        "rewrite": f"Open question {n}?" if stratum == "C" or n % 2 == 0 else None,
    }


@pytest.fixture
def audit_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """cwd = an audit project: a 55-item corpus in three strata and review/studies/conv.yaml."""
    monkeypatch.chdir(tmp_path)
    Path("corpus.jsonl").write_text("".join(json.dumps(corpus_row(n)) + "\n" for n in range(55)))
    Path("review/studies").mkdir(parents=True)
    Path("review/studies/conv.yaml").write_text(AUDIT_STUDY)
    return tmp_path
