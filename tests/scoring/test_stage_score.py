"""``atlas score``: record selection (run_key, torn line, ids, limit, repeats) and written files.

A fake registry (exact string match) stands in for the real scorers so that these tests check the
stage's bookkeeping only.
"""

from __future__ import annotations

import hashlib
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from stages.cli import main
from stages.errors import AtlasError
from stages.scoring.metrics import wilson_interval
from stages.scoring.stage import score_workload
from stages.scoring.verdict import Verdict

RK = "a" * 64
OTHER = "b" * 64


def fake_score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Exact match on the stripped output; deliberately ignores ``error`` (the stage must not)."""
    out = response["output"].strip()
    ok = out == row["answer"]
    return Verdict(row["scorer"], ok, float(ok), out, "equal" if ok else "differs", {})


EVAL_ROWS = [
    {"id": "t-1", "category": "arith", "difficulty": "easy", "answer": "2", "meta": {"lang": "en"}},
    {"id": "t-2", "category": "arith", "difficulty": "hard", "answer": "4", "meta": {"lang": "fr"}},
    {
        "id": "t-3",
        "category": "words",
        "difficulty": "easy",
        "answer": "cat",
        "meta": {"lang": "en", "subject": "animals"},
    },
    {"id": "t-4", "category": "words", "difficulty": "medium", "answer": "dog", "meta": {}},
    {"id": "t-5", "category": "words", "difficulty": "easy", "answer": "owl", "meta": {}},
]


def write_dataset(root: Path, dataset_id: str, kind: str, rows: list[dict[str, Any]]) -> str:
    path = root / "datasets" / dataset_id
    path.mkdir(parents=True)
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    (path / "rows.jsonl").write_bytes(data)
    card = {
        "id": dataset_id,
        "kind": kind,
        "description": "test fixture",
        "licence": "MIT",
        "generator": {"path": f"_gen/{dataset_id}.py", "seed": 1},
        "token_heuristic": "chars/4",
        "default_scorer": "exact" if kind == "eval" else None,
        "rows": len(rows),
        "files": {},
        "created": "2026-01-01",
    }
    (path / "dataset.json").write_text(json.dumps(card))
    return hashlib.sha256(data).hexdigest()


def record(row_id: str, output: str, repeat: int = 0, run_key: str = RK, **kw: Any) -> str:
    obj = {"run_key": run_key, "id": row_id, "repeat": repeat, "output": output, "error": None}
    obj.update(kw)
    return json.dumps(obj) + "\n"


def timeout() -> dict[str, str]:
    return {"kind": "timeout", "message": "120 s"}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    rows = [{**r, "prompt": f"Q {r['id']}", "scorer": "exact"} for r in EVAL_ROWS]
    sha = write_dataset(tmp_path, "eval-tiny-v1", "eval", rows)
    (tmp_path / "params.yaml").write_text("workloads:\n  tiny:\n    dataset: eval-tiny-v1\n")
    results = tmp_path / "results" / "tiny"
    results.mkdir(parents=True)
    manifest = {
        "run_key": RK,
        "model": {"name": "m", "revision": "rev-1", "endpoint": "embedded"},
        "decoding": {"temperature": 0.0, "top_p": 1.0, "max_tokens": 32, "seed": 0},
        "dataset": {"id": "eval-tiny-v1", "sha256": sha},
        "workload": "tiny",
        "counts": {},
    }
    (results / "manifest.json").write_text(json.dumps(manifest))
    journal = (
        record("t-5", "owl", run_key=OTHER)  # another model's run: ignored
        + record("t-1", "wrong", run_key=OTHER)
        + record("t-1", " 2 ")
        + record("t-2", "4", error=timeout())  # right text, failed request: still wrong
        + record("t-3", "", error={"kind": "http_5xx", "message": "502"})
        + record("t-3", "cat")  # the retry supersedes the failure
        + record("t-4", "dog", ttft_s=0.25, latency_s=1.5)
        + '{"run_key": "'
        + RK
        + '", "id": "t-5", "rep'  # torn last line
    )
    (results / "responses.jsonl").write_text(journal)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def set_manifest(project: Path, **changes: Any) -> None:
    path = project / "results" / "tiny" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest.update(changes)
    path.write_text(json.dumps(manifest))


def test_scores_this_run_only_and_drops_the_torn_line(project: Path) -> None:
    metrics = score_workload("tiny", fake_score, {"exact": "exact-1"})
    low, high = wilson_interval(3, 4)
    assert metrics["n"] == 4 and metrics["correct"] == 3 and metrics["accuracy"] == 0.75
    assert metrics["wilson_95"] == {"low": round(low, 6), "high": round(high, 6)}
    assert metrics["failed"] == 1
    assert metrics["failures"] == {"t-2": "timeout"}
    assert metrics["breakdowns"] == {
        "category": {
            "arith": {
                "n": 2,
                "correct": 1,
                "accuracy": 0.5,
                "correct_flexible": 1,
                "accuracy_flexible": 0.5,
            },
            "words": {
                "n": 2,
                "correct": 2,
                "accuracy": 1.0,
                "correct_flexible": 2,
                "accuracy_flexible": 1.0,
            },
        },
        "difficulty": {
            "easy": {
                "n": 2,
                "correct": 2,
                "accuracy": 1.0,
                "correct_flexible": 2,
                "accuracy_flexible": 1.0,
            },
            "hard": {
                "n": 1,
                "correct": 0,
                "accuracy": 0.0,
                "correct_flexible": 0,
                "accuracy_flexible": 0.0,
            },
            "medium": {
                "n": 1,
                "correct": 1,
                "accuracy": 1.0,
                "correct_flexible": 1,
                "accuracy_flexible": 1.0,
            },
        },
        "lang": {
            "en": {
                "n": 2,
                "correct": 2,
                "accuracy": 1.0,
                "correct_flexible": 2,
                "accuracy_flexible": 1.0,
            },
            "fr": {
                "n": 1,
                "correct": 0,
                "accuracy": 0.0,
                "correct_flexible": 0,
                "accuracy_flexible": 0.0,
            },
        },
        "subject": {
            "animals": {
                "n": 1,
                "correct": 1,
                "accuracy": 1.0,
                "correct_flexible": 1,
                "accuracy_flexible": 1.0,
            }
        },
        "scorer": {
            "exact": {
                "n": 4,
                "correct": 3,
                "accuracy": 0.75,
                "correct_flexible": 3,
                "accuracy_flexible": 0.75,
            }
        },
    }
    assert metrics["signature"] == {
        "workload": "tiny",
        "run_key": RK,
        "dataset": {"id": "eval-tiny-v1", "sha256": metrics["signature"]["dataset"]["sha256"]},
        "model": {"name": "m", "revision": "rev-1"},
        "decoding": {"temperature": 0.0, "top_p": 1.0, "max_tokens": 32, "seed": 0},
        "scorers": {"exact": "exact-1"},
        "engine": None,
        "provenance": None,
    }
    # Four independent items: the CR1 figure is the plain CLT one, s / sqrt(n), and the interval
    # is the headline one (Wilson; issue 18: no Wald interval reaching 100 %).
    se = (0.25 / 4) ** 0.5  # the sample variance of (1, 0, 1, 1) is 0.75 / 3 = 0.25
    assert metrics["clustered"] == {
        "se": round(se, 6),
        "ci95": metrics["wilson_95"],
        "clusters": 4,
        "n_eff": 4.0,
        "note": None,
    }
    assert json.loads(Path("metrics/tiny.json").read_text()) == metrics


def test_scored_jsonl_has_one_line_per_record(project: Path) -> None:
    score_workload("tiny", fake_score, {})
    lines = [json.loads(x) for x in Path("results/tiny/scored.jsonl").read_text().splitlines()]
    assert [(x["id"], x["correct"], x["failed"]) for x in lines] == [
        ("t-1", True, None),
        ("t-2", False, "timeout"),
        ("t-3", True, None),
        ("t-4", True, None),
    ]
    assert lines[3] == {
        "id": "t-4",
        "repeat": 0,
        "scorer": "exact",
        "correct": True,
        "score": 1.0,
        "extracted": "dog",
        "why": "equal",
        "extras": {},
        "failed": None,
        "correct_flexible": True,
        "extracted_flexible": None,
        "facets": {"category": "words", "difficulty": "medium", "scorer": "exact"},
        "haystack": None,
        "gold": "dog",
        "prompt_excerpt": "Q t-4",
    }


def test_manifest_ids_decide_what_was_sent(project: Path) -> None:
    set_manifest(project, ids=["t-1", "t-5"])
    metrics = score_workload("tiny", fake_score, {})
    assert (metrics["n"], metrics["correct"]) == (2, 1)
    assert metrics["failures"] == {"t-5": "no_response"}


def test_workload_limit_keeps_the_first_rows(project: Path) -> None:
    (project / "params.yaml").write_text(
        "workloads:\n  tiny:\n    dataset: eval-tiny-v1\n    limit: 2\n"
    )
    metrics = score_workload("tiny", fake_score, {})
    assert (metrics["n"], metrics["correct"], metrics["failures"]) == (2, 1, {"t-2": "timeout"})


def test_repeats_are_each_scored(project: Path) -> None:
    Path("results/tiny/responses.jsonl").write_text(
        record("t-1", "2") + record("t-1", "3", repeat=1) + record("t-1", "", 2, error=timeout())
    )
    metrics = score_workload("tiny", fake_score, {})
    assert (metrics["n"], metrics["correct"], metrics["repeats"]) == (3, 1, 3)
    assert metrics["failures"] == {"t-1#2": "timeout"}


def test_a_corrupt_line_before_the_end_is_an_error(project: Path) -> None:
    Path("results/tiny/responses.jsonl").write_text(record("t-1", "2") + "{oops\n")
    with pytest.raises(AtlasError, match=r"responses\.jsonl:2: invalid JSON"):
        score_workload("tiny", fake_score, {})


def test_missing_inputs_name_the_file(project: Path) -> None:
    Path("results/tiny/responses.jsonl").unlink()
    with pytest.raises(AtlasError, match=r"results/tiny/responses\.jsonl: file not found"):
        score_workload("tiny", fake_score, {})
    Path("results/tiny/manifest.json").unlink()
    with pytest.raises(AtlasError, match=r"results/tiny/manifest\.json: file not found"):
        score_workload("tiny", fake_score, {})


def test_changed_dataset_or_other_dataset_is_refused(project: Path) -> None:
    set_manifest(project, dataset={"id": "eval-tiny-v1", "sha256": "0" * 64})
    with pytest.raises(AtlasError, match=r"dataset\.sha256: .*rows\.jsonl changed since the run"):
        score_workload("tiny", fake_score, {})
    set_manifest(project, dataset={"id": "eval-other-v1", "sha256": "0" * 64})
    with pytest.raises(AtlasError, match=r"dataset\.id: 'eval-other-v1' is not workloads\.tiny"):
        score_workload("tiny", fake_score, {})


def test_prompts_workload_is_counted_not_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = [
        {
            "id": f"p-{i}",
            "topic": "t",
            "bucket": "xs",
            "lang": lang,
            "approx_tokens": 3,
            "shared_prefix": None,
            "messages": [{"role": "user", "content": "Hello there"}],
        }
        for i, lang in ((1, "en"), (2, "fr"))
    ]
    sha = write_dataset(tmp_path, "prompts-tiny-v1", "prompts", rows)
    (tmp_path / "params.yaml").write_text("workloads:\n  mix:\n    dataset: prompts-tiny-v1\n")
    results = tmp_path / "results" / "mix"
    results.mkdir(parents=True)
    manifest = {"run_key": RK, "dataset": {"id": "prompts-tiny-v1", "sha256": sha}}
    (results / "manifest.json").write_text(json.dumps(manifest))
    (results / "responses.jsonl").write_text(
        record("p-1", "Hi", ttft_s=0.1) + record("p-2", "", error=timeout())
    )
    monkeypatch.chdir(tmp_path)
    metrics = score_workload("mix")
    assert "accuracy" not in metrics
    assert (metrics["n"], metrics["failed"], metrics["failures"]) == (2, 1, {"p-2": "timeout"})
    assert metrics["breakdowns"] == {
        "bucket": {"xs": {"n": 2, "failed": 1}},
        "lang": {"en": {"n": 1, "failed": 0}, "fr": {"n": 1, "failed": 1}},
    }


def test_atlas_score_end_to_end(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    registry = types.ModuleType("stages.scoring.registry")
    registry.score_row = fake_score  # type: ignore[attr-defined]
    registry.SCORER_VERSIONS = {"exact": "exact-1"}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "stages.scoring.registry", registry)
    assert main(["score", "tiny"]) == 0
    assert (
        capsys.readouterr().out
        == "score tiny: 4 records, accuracy 0.7500 (flexible 0.7500), 1 failed\n"
    )
    metrics = json.loads(Path("metrics/tiny.json").read_text())
    assert metrics["signature"]["scorers"] == {"exact": "exact-1"}
    assert len(Path("results/tiny/scored.jsonl").read_text().splitlines()) == 4
    assert main(["score", "nope"]) == 2
    assert "unknown workload 'nope'" in capsys.readouterr().err


def test_timings_leave_scored_records_for_their_own_file(project: Path) -> None:
    score_workload("tiny", fake_score, {})
    timings = Path("results/tiny/timings.jsonl").read_text().splitlines()
    assert timings == [
        '{"id":"t-1","repeat":0,"ttft_s":null,"latency_s":null}',
        '{"id":"t-2","repeat":0,"ttft_s":null,"latency_s":null}',
        '{"id":"t-3","repeat":0,"ttft_s":null,"latency_s":null}',
        '{"id":"t-4","repeat":0,"ttft_s":0.25,"latency_s":1.5}',
    ]
    assert "ttft_s" not in Path("results/tiny/scored.jsonl").read_text()


def test_verdict_lines_are_short_sorted_and_clustered(project: Path) -> None:
    Path("results/tiny/responses.jsonl").write_text(
        record("t-3", "cat", repeat=1)
        + record("t-3", "c" * 70)
        + record("t-1", "2")
        + record("t-2", "4", error=timeout())
    )
    set_manifest(project, ids=["t-1", "t-2", "t-3"])
    score_workload("tiny", fake_score, {})
    assert Path("metrics/verdicts/tiny.jsonl").read_text() == (
        '{"id":"t-1","repeat":0,"cluster":"t-1","correct":true,"flexible":true,"failed":null,'
        '"extracted":"2"}\n'
        '{"id":"t-2","repeat":0,"cluster":"t-2","correct":false,"flexible":false,'
        '"failed":"timeout","extracted":"4"}\n'
        '{"id":"t-3","repeat":0,"cluster":"t-3","correct":false,"flexible":false,"failed":null,'
        '"extracted":"' + "c" * 59 + '…"}\n'
        '{"id":"t-3","repeat":1,"cluster":"t-3","correct":true,"flexible":true,"failed":null,'
        '"extracted":"cat"}\n'
    )


def test_rescoring_the_same_journal_gives_the_same_bytes(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15: a measured duration (the code sandbox's) must not reach tracked outputs."""
    clock = iter([0.5, 1.25, 2.0, 3.5, 4.0, 5.5, 6.0, 7.5])

    def timed_score(row: dict[str, Any], response: dict[str, Any], path: Path) -> Verdict:
        verdict = fake_score(row, response, path)
        extras = {"seconds": next(clock), "isolation": "basic"}
        return Verdict(verdict.scorer, verdict.correct, verdict.score, verdict.extracted,
                       verdict.why, extras)  # fmt: skip

    tracked = ["results/tiny/scored.jsonl", "metrics/tiny.json", "metrics/verdicts/tiny.jsonl"]
    score_workload("tiny", timed_score, {})
    first = {name: Path(name).read_bytes() for name in tracked}
    first_timings = Path("results/tiny/timings.jsonl").read_text()
    score_workload("tiny", timed_score, {})
    assert {name: Path(name).read_bytes() for name in tracked} == first
    assert '"sandbox_s":0.5' in first_timings
    assert '"sandbox_s":4.0' in Path("results/tiny/timings.jsonl").read_text()
    assert "isolation" in Path("results/tiny/scored.jsonl").read_text()


def test_signature_copies_engine_and_provenance(project: Path) -> None:
    engine = {"llama_cpp_python": "0.3.36", "n_threads": 2, "isa_built": ["AVX2"]}
    provenance = [
        {"endpoint": "http://127.0.0.1:1/v1", "chat_template_sha256": "ab" * 32,
         "system_fingerprint": None, "records": 4},
    ]  # fmt: skip
    set_manifest(project, engine=engine, provenance=provenance)
    signature = score_workload("tiny", fake_score, {})["signature"]
    assert signature["engine"] == engine and signature["provenance"] == provenance
