"""``atlas compare`` on hand-made revisions in a git repository: flips, verdicts, refusals,
experiment names, the workspace, warnings, and every output kept within 100 columns."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from compare_helpers import commit, git, rows_for, write_dataset, write_scored

from stages.cli import main

ANSWERS = ["42"] * 40
CATEGORIES = ["arith", "words"]


def two_revisions(root: Path) -> tuple[dict[str, bool], dict[str, bool]]:
    """A: items 0-9 right; B: items 0-1 wrong, 2-29 right (2 right->wrong, 20 wrong->right)."""
    rows = rows_for("eval-flip-v1", ANSWERS, CATEGORIES)
    sha = write_dataset(root, "eval-flip-v1", rows)
    ids = [r["id"] for r in rows]
    a = {item: i < 10 for i, item in enumerate(ids)}
    b = {item: 2 <= i < 30 for i, item in enumerate(ids)}
    side_rows = rows_for("eval-side-v1", ["1"] * 12, ["x"])
    side_sha = write_dataset(root, "eval-side-v1", side_rows)
    side = {r["id"]: i % 2 == 0 for i, r in enumerate(side_rows)}
    serving = {"main": {"ttft_s": {"p50": 0.5}, "itl_s": {"p50": 0.02}}}
    write_scored(root, "flip", "eval-flip-v1", sha, a, serving=serving)
    write_scored(root, "side", "eval-side-v1", side_sha, side)
    commit(root, "A")
    serving_b = {"main": {"ttft_s": {"p50": 0.4}, "output_tokens_per_s": {"aggregate": 50.0}}}
    write_scored(root, "flip", "eval-flip-v1", sha, b, model="m-b", serving=serving_b)
    write_scored(root, "side", "eval-side-v1", side_sha, {**side}, model="m-b")
    commit(root, "B")
    return a, b


def compare_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    capsys.readouterr()
    assert main(["compare", *args, "--json", "--flips"]) == 0
    return json.loads(capsys.readouterr().out)


def test_flips_and_verdicts_between_two_commits(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    two_revisions(repo)
    data = compare_json(capsys, "HEAD~1", "HEAD")
    rows = {(r["workload"], r["category"]): r for r in data["rows"]}
    flip = rows[("flip", None)]
    assert flip["right_to_wrong"] == ["flip-000", "flip-001"]
    assert flip["wrong_to_right"] == [f"flip-{i:03d}" for i in range(10, 30)]
    assert (flip["n"], flip["a"], flip["b"], flip["verdict"]) == (40, 0.25, 0.7, "B better")
    assert rows[("side", None)]["verdict"] == "no detectable difference"
    assert rows[("side", None)]["right_to_wrong"] == rows[("side", None)]["wrong_to_right"] == []
    assert [c for w, c in rows if w == "flip"] == [None, "arith", "words"]
    assert data["a"]["name"] == "HEAD~1" and len(data["b"]["commit"]) == 40
    flips = data["flips"]["flip"]
    assert [f["key"] for f in flips] == ["flip-000", "flip-001"] + flip["wrong_to_right"]
    assert flips[0] == {
        "workload": "flip", "key": "flip-000", "direction": "right->wrong",
        "prompt": "Question number 0: what is the answer?", "gold": "42",
        "a": "42", "b": "7", "a_failed": None, "b_failed": None,
    }  # fmt: skip
    serving = {s["workload"]: s for s in data["serving"]}
    assert serving["flip"]["a"] == {
        "ttft_p50_s": 0.5,
        "itl_p50_s": 0.02,
        "output_tokens_per_s": None,
    }
    assert serving["flip"]["b"]["output_tokens_per_s"] == 50.0


def test_terminal_table_fits_100_columns(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two_revisions(repo)
    assert main(["compare", "HEAD~1", "HEAD", "--flips"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 100
    table = out.split("\n\n")[1].splitlines()
    assert table[0].split()[:4] == ["workload", "n", "A", "B"]
    assert re.match(r"flip +40 +25\.0 +70\.0 +\+45\.0 .* -2/\+20 .* B better$", table[1])
    assert "Serving headline figures (medians; intervals below where measured):" in out
    assert "Flips in flip: 2 right->wrong, 20 wrong->right" in out
    assert "  … 10 more wrong->right (all in --json and compare.md)" in out
    assert "  flip-000 right->wrong, gold: 42\n    A: 42 | B: 7\n    prompt: Question" in out


def test_out_writes_markdown_and_a_self_contained_page(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    two_revisions(repo)
    assert main(["compare", "HEAD~1", "HEAD", "--out", "build/cmp"]) == 0
    md = Path("build/cmp/compare.md").read_text()
    assert "| flip | 40 | 25.0 | 70.0 | +45.0 |" in md and "| flip-001 | right->wrong |" in md
    assert "| flip / arith | 20 |" in md and "| flip / words | 20 |" in md  # categories named
    page = Path("build/cmp/compare.html").read_text()
    assert "http://" not in page and "https://" not in page and "<script" not in page
    assert re.search(r"""(src|href)\s*=\s*["'](?!#)""", page) is None
    (svg,) = re.findall(r"<svg.*?</svg>", page, flags=re.S)
    chart = ET.fromstring(svg)
    assert chart.findtext("title") == "B - A per workload, with 95 % paired clustered intervals"
    assert [c.findtext("title") for c in chart.iter("circle")][0].startswith("flip: +45.0 [+")


def test_refuses_a_workload_whose_dataset_changed(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    two_revisions(repo)
    rows = rows_for("eval-side-v1", ["2"] * 12, ["x"])
    sha = write_dataset(repo, "eval-side-v1", rows)
    write_scored(repo, "side", "eval-side-v1", sha, {r["id"]: True for r in rows})
    commit(repo, "C: side rebuilt")
    data = compare_json(capsys, "HEAD~1", "HEAD")
    assert list(data["refused"]) == ["side"]
    assert data["refused"]["side"].startswith("eval-side-v1 has sha256 ")
    assert {r["workload"] for r in data["rows"]} == {"flip"}
    assert main(["compare", "HEAD~1", "HEAD", "-w", "side"]) == 2
    assert "nothing to compare: refused side: eval-side-v1 has sha256" in capsys.readouterr().err


def test_experiment_names_and_the_workspace(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two_revisions(repo)
    baseline = git(repo, "rev-parse", "HEAD~1").strip()
    # DVC keeps an experiment as refs/exps/<2 hex>/<rest of the baseline sha>/<name>.
    git(repo, "update-ref", f"refs/exps/{baseline[:2]}/{baseline[2:]}/tidy-lamb", "HEAD")
    data = compare_json(capsys, "HEAD~1", "tidy-lamb")
    assert data["b"]["commit"] == git(repo, "rev-parse", "HEAD").strip()
    assert next(r for r in data["rows"] if r["workload"] == "flip")["verdict"] == "B better"
    # Uncommitted verdicts: the workspace against HEAD.
    rows = rows_for("eval-flip-v1", ANSWERS, CATEGORIES)
    sha = write_dataset(repo, "eval-flip-v1", rows)
    write_scored(repo, "flip", "eval-flip-v1", sha, {r["id"]: False for r in rows})
    data = compare_json(capsys, "HEAD", "workspace")
    flip = next(r for r in data["rows"] if r["workload"] == "flip")
    assert (flip["verdict"], len(flip["right_to_wrong"])) == ("B worse", 28)


def test_engine_and_provenance_changes_are_warned(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = rows_for("eval-flip-v1", ["1"] * 4, ["x"])
    sha = write_dataset(repo, "eval-flip-v1", rows)
    outcomes = {r["id"]: True for r in rows}
    where = {"endpoint": "http://127.0.0.1:1/v1", "chat_template_sha256": "a", "records": 4}
    write_scored(repo, "flip", "eval-flip-v1", sha, outcomes, engine={"n_threads": 2},
                 provenance=[{**where, "system_fingerprint": None}])  # fmt: skip
    commit(repo, "A")
    write_scored(repo, "flip", "eval-flip-v1", sha, outcomes, engine={"n_threads": 4},
                 provenance=[{**where, "system_fingerprint": "fp-2"}])  # fmt: skip
    commit(repo, "B")
    warnings = compare_json(capsys, "HEAD~1", "HEAD")["warnings"]
    assert warnings[0] == "engine differs: n_threads 2 -> 4 (flip)"
    assert warnings[1].startswith("provenance differs (endpoint, chat template or system finger")


def test_the_same_build_on_another_cpu_is_a_note_not_an_engine_difference(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 20: greedy verdicts of one reproducible build on two CPUs are the same engine."""
    rows = rows_for("eval-flip-v1", ["1"] * 4, ["x"])
    sha = write_dataset(repo, "eval-flip-v1", rows)
    outcomes = {r["id"]: True for r in rows}
    build = {"id": "e1", "binary_sha256": "b" * 64, "slots": 4}
    write_scored(
        repo,
        "flip",
        "eval-flip-v1",
        sha,
        outcomes,
        engine={**build, "isa_cpu": ["AVX2"], "binary": "/home/a/llama-server"},
    )
    commit(repo, "A")
    write_scored(
        repo,
        "flip",
        "eval-flip-v1",
        sha,
        outcomes,
        engine={**build, "isa_cpu": ["AVX2", "AVX512F"], "binary": "/b/llama-server"},
    )
    commit(repo, "B")  # fmt: skip
    warnings = compare_json(capsys, "HEAD~1", "HEAD")["warnings"]
    assert warnings == [
        "the CPUs differ (same build): isa_cpu ['AVX2'] -> ['AVX2', 'AVX512F']; the build's "
        "instruction set is isa_built (flip)"
    ]


def test_shared_clusters_and_unpaired_items_are_noted(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = rows_for("eval-flip-v1", ["1"] * 12, ["x"])
    sha = write_dataset(repo, "eval-flip-v1", rows)
    clusters = {r["id"]: f"passage-{i // 4}" for i, r in enumerate(rows)}
    write_scored(repo, "flip", "eval-flip-v1", sha, {r["id"]: False for r in rows[:10]},
                 clusters=clusters)  # fmt: skip
    commit(repo, "A")
    write_scored(repo, "flip", "eval-flip-v1", sha, {r["id"]: True for r in rows},
                 clusters=clusters)  # fmt: skip
    commit(repo, "B")
    assert main(["compare", "HEAD~1", "HEAD"]) == 0
    out = capsys.readouterr().out
    assert "flip: 0 items at A only and 2 at B only were left out" in out
    assert "flip: 3 clusters for 10 items: too few for a cluster-robust standard error" in out
    assert re.search(
        r"^flip +10 +0\.0 +100\.0 +\+100\.0 +— .* no detectable difference$", out, re.M
    )


def test_bad_revisions_are_named(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two_revisions(repo)
    assert main(["compare", "HEAD~1", "no-such-thing"]) == 2
    err = capsys.readouterr().err
    assert "'no-such-thing' is neither a git revision, a DVC experiment" in err
    git(repo, "rm", "-q", "-r", "metrics/verdicts")
    commit(repo, "C: verdicts gone")
    assert main(["compare", "HEAD~1", "HEAD"]) == 2
    assert "no workload has item verdicts (metrics/verdicts/) at both" in capsys.readouterr().err
