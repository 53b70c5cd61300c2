"""Instance records carry every verdict line exactly (issue 34), for generated runs: any
number of items, repeats, shared clusters, failures and any text in the extracted answers."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from compare_helpers import git, rows_for, write_dataset
from export_helpers import read_eee
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stages.cli import main

verdict = st.fixed_dictionaries(
    {
        "correct": st.booleans(),
        "failed": st.one_of(st.none(), st.sampled_from(["timeout", "http_5xx", "stream_torn"])),
        # any text, U+0085, U+2028 and U+2029 included: `atlas score` writes them raw
        # (ensure_ascii=False), and a reader that split lines on them lost the verdict
        "extracted": st.text(max_size=60) | st.sampled_from(["\x85", "1\u20282", "\u2029x"]),
        "cluster": st.integers(min_value=0, max_value=3),
    }
)


def write_run(root: Path, items: list[list[dict]]) -> tuple[float, list[dict]]:
    """One workload whose item i has ``items[i]`` as its repeats; returns the accuracy and the
    verdict lines written."""
    rows = rows_for("eval-gen-v1", ["1"] * len(items), ["x"])
    sha = write_dataset(root, "eval-gen-v1", rows)
    lines = [
        {"id": row["id"], "repeat": r, "cluster": f"c{v['cluster']}",
         "correct": v["correct"] and v["failed"] is None, "flexible": None,
         "failed": v["failed"], "extracted": v["extracted"]}
        for row, repeats in zip(rows, items, strict=True) for r, v in enumerate(repeats)
    ]  # fmt: skip
    n = len(lines)
    accuracy = round(sum(line["correct"] for line in lines) / n, 6)
    signature = {
        "dataset": {"id": "eval-gen-v1", "sha256": sha},
        "model": {"name": "m", "revision": "r"},
        "decoding": {"temperature": 0.0, "max_tokens": 8},
        "scorers": {"exact": "exact-1"},
        "run_key": "k",
    }
    metrics = {
        "kind": "eval", "n": n, "accuracy": accuracy, "signature": signature,
        "wilson_95": {"low": 0.0, "high": 1.0}, "clustered": {"se": None},
    }  # fmt: skip
    (root / "metrics/verdicts").mkdir(parents=True)
    (root / "metrics/gen.json").write_text(json.dumps(metrics))
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    (root / "metrics/verdicts/gen.jsonl").write_text(text, encoding="utf-8")
    return accuracy, lines


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(verdict, min_size=1, max_size=3), min_size=1, max_size=25))
def test_every_verdict_line_becomes_one_exact_record(items: list[list[dict]]) -> None:
    before = Path.cwd()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        git(root, "init", "-q")
        os.chdir(root)
        try:
            accuracy, lines = write_run(root, items)
            assert main(["export", "workspace", "--out", "out"]) == 0
            log, records, _, _ = read_eee(root / "out")
        finally:
            os.chdir(before)
    assert log.evaluation_results[0].score_details.score == accuracy
    assert len(records) == len(lines)
    for record, line in zip(records, lines, strict=True):
        assert record.metadata is not None
        assert (record.sample_id, record.metadata["repeat"]) == (line["id"], str(line["repeat"]))
        assert record.metadata["cluster"] == line["cluster"]
        assert record.evaluation.is_correct is line["correct"]
        assert record.evaluation.score == (1.0 if line["correct"] else 0.0)
        assert record.error == line["failed"] == record.metadata.get("failed")
        assert record.output is not None and record.output.raw == [line["extracted"]]
        assert record.answer_attribution[0].extracted_value == line["extracted"]
        assert record.metadata["answer_source"] == "verdict_extracted"
