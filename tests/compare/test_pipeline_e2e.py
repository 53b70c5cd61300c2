"""End to end through git and DVC (issues 10 and 15): a small project whose pipeline mirrors
``dvc.yaml`` (infer -> score -> report) runs twice against the loopback stub standing in for two
model revisions, whose answers differ on known items; both revisions are committed and their raw
results pushed to a local-folder DVC remote. Then, from a fresh clone with no server running:

* ``dvc pull`` brings the raw results back; ``atlas score`` and ``atlas report`` run without
  inference and reproduce the committed files byte for byte;
* ``atlas compare HEAD~1 HEAD`` names exactly the flipped items and the right verdicts;
* every comparison command README.md and docs/comparing.md show prints readable output (line
  width, row count), and the inference commands of docs/running.md that contact no endpoint run.

Revision A answers "Answer: 42", revision B "Answer: 7". Workload ``math`` (30 rows): answers 7
for rows 0-19, 42 for rows 20-23, 13 for the rest, so 20 items go wrong->right and 4
right->wrong: "B better". Workload ``code`` (8 rows): 3 right->wrong, 2 wrong->right: "no
detectable difference". Workload ``mix`` is a serving (prompts) workload.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from compare_helpers import git

REPO = Path(__file__).resolve().parents[2]
sys.path.append(str(REPO / "tests"))
sys.path.append(str(REPO / "tests" / "inference"))
sys.path.append(str(REPO / "tests" / "docs"))
from doc_commands import shown_commands  # noqa: E402
from infer_helpers import GEN  # noqa: E402
from stub_server import StubConfig, StubServer  # noqa: E402

#: The longest workload name in the real params.yaml: `dvc metrics show` widens by its path.
LONGEST_WORKLOAD = max(yaml.safe_load((REPO / "params.yaml").read_text())["workloads"], key=len)
DVC_VIEW_WIDTH = 120  # a terminal's width for DVC's own tables (atlas compare keeps to 100)
MATH_ANSWERS = ["7"] * 20 + ["42"] * 4 + ["13"] * 6
CODE_ANSWERS = ["42"] * 3 + ["7"] * 2 + ["13"] * 3

DVC_YAML = """\
stages:
  infer:
    foreach: ${workloads}
    do:
      cmd: atlas infer ${key}
      deps:
        - datasets/${item.dataset}
      params:
        - model
        - decoding
        - run
        - workloads.${key}
      outs:
        - results/${key}/responses.jsonl:
            persist: true
        - results/${key}/manifest.json
        - results/${key}/fresh:
            persist: true
        - results/${key}/load:
            persist: true
        - metrics/${key}.serving.json:
            cache: false
            persist: true
  score:
    foreach: ${workloads}
    do:
      cmd: atlas score ${key}
      deps:
        - results/${key}/responses.jsonl
        - results/${key}/manifest.json
        - results/${key}/load
        - datasets/${item.dataset}
      params:
        - workloads.${key}
      outs:
        - results/${key}/scored.jsonl
        - metrics/${key}.json:
            cache: false
        - metrics/verdicts/${key}.jsonl:
            cache: false
  report:
    cmd: atlas report
    deps:
      - results
    params:
      - workloads
    outs:
      - report.md:
          cache: false
          persist: true
      - report.html:
          cache: false
          persist: true
      - metrics/plots:
          cache: false
          persist: true
    metrics:
      - metrics/summary:
          cache: false
          persist: true
"""


@dataclass(frozen=True)
class Pipeline:
    origin: Path
    clone: Path
    env: dict[str, str]

    def run(self, cwd: Path, command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            shlex.split(command), cwd=cwd, env=self.env, capture_output=True, text=True
        )
        if check and done.returncode != 0:
            raise AssertionError(f"{command} failed ({done.returncode}):\n{done.stderr}")
        return done


def eval_rows(prefix: str, answers: list[str]) -> list[dict[str, Any]]:
    return [
        {"id": f"{prefix}-{i:03d}", "category": "even" if i % 2 == 0 else "odd",
         "difficulty": "easy", "prompt": f"{prefix} question {i}?", "answer": answer,
         "scorer": "exact", "meta": {}}
        for i, answer in enumerate(answers)
    ]  # fmt: skip


def write_project(root: Path, url: str) -> None:
    hello = [{"role": "user", "content": "Hi"}]
    datasets = {
        "eval-e2e-math-v1": ("eval", eval_rows("m", MATH_ANSWERS)),
        "eval-e2e-code-v1": ("eval", eval_rows("c", CODE_ANSWERS)),
        "prompts-e2e-mix-v1": (
            "prompts",
            [GEN.prompt_row(f"p-{i}", "t", "en", hello) for i in (1, 2)],
        ),
    }
    for dataset_id, (kind, rows) in datasets.items():
        GEN.write_dataset(
            root / "datasets" / dataset_id, dataset_id=dataset_id, kind=kind, description="e2e",
            seed=1, generator_path=f"_gen/{dataset_id}.py",
            default_scorer="exact" if kind == "eval" else None, created="2026-01-01", rows=rows,
        )  # fmt: skip
    params = {
        "model": {"base_url": url, "name": "stub-a", "revision": "r1"},
        "decoding": {"temperature": 0.0, "top_p": 1.0, "max_tokens": 16, "seed": 0},
        "run": {"concurrency": 4, "timeout_s": 10, "max_retries": 0, "limit": None},
        "workloads": {
            "math": {"dataset": "eval-e2e-math-v1"},
            "code": {"dataset": "eval-e2e-code-v1"},
            "mix": {"dataset": "prompts-e2e-mix-v1", "perf": True},
        },
    }
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    (root / "dvc.yaml").write_text(DVC_YAML)
    (root / ".gitignore").write_text("/results/\n")
    shutil.copy(REPO / ".dvcignore", root / ".dvcignore")  # timings.jsonl stays out of hashes


def set_model(root: Path, name: str) -> None:
    params = yaml.safe_load((root / "params.yaml").read_text())
    params["model"]["name"] = name
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pipeline]:
    base = tmp_path_factory.mktemp("e2e")
    origin, clone, store = base / "origin", base / "clone", base / "store"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
           "DVC_NO_ANALYTICS": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@atlas",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@atlas"}  # fmt: skip
    origin.mkdir()
    p = Pipeline(origin, clone, env)
    git(origin, "init", "-q", "-b", "main")
    p.run(origin, "dvc init -q")
    with StubServer(StubConfig(reply="Answer: 42")) as stub:
        write_project(origin, stub.url)
        p.run(origin, "dvc repro -q")
        git(origin, "add", "-A")
        p.run(origin, "git commit -q -m A")
        stub.config.reply = "Answer: 7"
        set_model(origin, "stub-b")
        p.run(origin, "dvc repro -q")
        p.run(origin, f"dvc remote add -d store {store}")
        git(origin, "add", "-A")
        p.run(origin, "git commit -q -m B")
        p.run(origin, "dvc push -q")
        stub.config.reply = "Answer: 13"
        p.run(origin, "dvc exp run -q -n my-exp -S model.name=stub-c")
    p.run(base, f"git clone -q {origin} {clone}")
    p.run(clone, "dvc pull -q")
    yield p
    shutil.rmtree(base, ignore_errors=True)


def test_fresh_clone_scores_and_reports_without_inference(pipeline: Pipeline) -> None:
    clone = pipeline.clone
    assert (clone / "results/math/responses.jsonl").is_file()  # raw outputs came from the remote
    status = pipeline.run(clone, "dvc status --json").stdout
    assert json.loads(status) == {}  # nothing to re-run: no inference needed
    for command in ("atlas score math", "atlas score code", "atlas score mix", "atlas report"):
        pipeline.run(clone, command)  # the stub is gone: any request would fail
    # Re-scoring and re-reporting elsewhere reproduces every committed byte (issue 15).
    assert pipeline.run(clone, "git status --porcelain").stdout == ""
    assert "Running stage" not in pipeline.run(clone, "dvc repro").stdout


def test_compare_names_exactly_the_flips_from_a_fresh_clone(pipeline: Pipeline) -> None:
    out = pipeline.run(pipeline.clone, "atlas compare HEAD~1 HEAD --json --flips").stdout
    data = json.loads(out)
    rows = {(r["workload"], r["category"]): r for r in data["rows"]}
    math = rows[("math", None)]
    assert math["wrong_to_right"] == [f"m-{i:03d}" for i in range(20)]
    assert math["right_to_wrong"] == [f"m-{i:03d}" for i in range(20, 24)]
    assert (math["a"], math["b"], math["verdict"]) == (4 / 30, 20 / 30, "B better")
    code = rows[("code", None)]
    assert (code["right_to_wrong"], code["wrong_to_right"]) == (["c-000", "c-001", "c-002"],
                                                                ["c-003", "c-004"])  # fmt: skip
    assert code["verdict"] == "no detectable difference"
    categories = sorted(k for k in rows if k[1] is not None)
    assert categories == [("code", "even"), ("code", "odd"), ("math", "even"), ("math", "odd")]
    assert "mix" not in {w for w, _ in rows} and "mix" in {s["workload"] for s in data["serving"]}
    first, last = data["flips"]["math"][0], data["flips"]["math"][-1]  # right->wrong come first
    assert (first["key"], first["gold"], first["a"], first["b"]) == ("m-020", "42", "42", "7")
    assert (last["key"], last["gold"], last["a"], last["b"]) == ("m-019", "7", "42", "7")
    assert first["prompt"] == "m question 20?"
    table = pipeline.run(pipeline.clone, "atlas compare HEAD~1 HEAD").stdout
    assert max(map(len, table.splitlines())) <= 100
    assert re.search(r"^math +30 +13\.3 +66\.7 +\+53\.3 .* -4/\+20 .* B better$", table, re.M)


def test_compare_resolves_a_dvc_experiment_name(pipeline: Pipeline) -> None:
    data = json.loads(pipeline.run(pipeline.origin, "atlas compare HEAD my-exp --json").stdout)
    math = next(r for r in data["rows"] if r["workload"] == "math" and r["category"] is None)
    assert (math["b"], math["verdict"]) == (0.2, "B worse")  # "13" is right on rows 24-29 only
    (run,) = data["runs"]
    assert run.startswith("stub-b @ r1 -> stub-c @ r1, same decoding {")


def doc_commands(pages: tuple[str, ...], starts: tuple[str, ...]) -> list[str]:
    """The code-block commands of ``pages`` that start with one of ``starts``, in page order,
    each once (``tests/docs/doc_commands.py`` finds them)."""
    commands = []
    for page in pages:
        for shown in shown_commands(REPO / page):
            if shown.block and shown.text.startswith(starts) and shown.text not in commands:
                commands.append(shown.text)
    return commands


def readme_commands() -> list[str]:
    """The comparison commands README.md and docs/comparing.md show."""
    return doc_commands(
        ("README.md", "docs/comparing.md"), ("dvc metrics", "dvc exp show", "atlas compare")
    )


def test_readme_comparison_commands_print_readable_output(pipeline: Pipeline) -> None:
    commands = readme_commands()
    assert [shlex.split(c)[:3] for c in commands] == [
        ["dvc", "metrics", "diff"], ["atlas", "compare", "HEAD~1"], ["atlas", "compare", "HEAD"],
        ["dvc", "metrics", "show"], ["dvc", "exp", "show"], ["atlas", "compare", "HEAD~1"],
        ["atlas", "compare", "HEAD~1"],
    ]  # fmt: skip
    longest = max(("math", "code", "mix"), key=len)
    for command in commands:
        out = pipeline.run(pipeline.origin, command).stdout
        if "--json" in command:
            assert json.loads(out)["rows"], command  # JSON, not a table: no width to keep
            continue
        lines = out.splitlines()
        assert lines, command
        width = max(map(len, lines))
        if command.startswith("dvc metrics show"):
            # One row per workload; the real project's longest workload name widens the path.
            assert len(lines) == 1 + 3, out
            width += len(LONGEST_WORKLOAD) - len(longest)
        limit = 100 if command.startswith("atlas") else DVC_VIEW_WIDTH
        assert width <= limit, f"{command}: {width} columns\n{out}"
        table = out.split("\nFlips in ")[0].splitlines()
        assert len(table) <= 40, f"{command}: {len(table)} lines\n{out}"
        for block in out.split("\nFlips in ")[1:]:  # per workload: count, 2 x 10 flips, 2 "more"
            assert len(block.splitlines()) <= 1 + 2 * (3 * 10 + 1), block
        assert "…" not in out or command.startswith("atlas"), out
    diff = pipeline.run(pipeline.origin, "dvc metrics diff HEAD~1").stdout
    assert "metrics/summary/math.json  accuracy" in re.sub(r" +", "  ", diff)


def test_the_inference_commands_that_send_nothing_run_as_documented(pipeline: Pipeline) -> None:
    """docs/running.md's commands that contact no endpoint, for real, on the stub-free clone."""
    commands = doc_commands(("README.md", "docs/running.md"), ("atlas workloads",))
    commands += [
        c for c in doc_commands(("README.md", "docs/running.md"), ("atlas infer",))
        if "--dry-run" in c
    ]  # fmt: skip
    assert commands == ["atlas workloads", "atlas infer math --limit 5 --dry-run"]
    listing = pipeline.run(pipeline.clone, commands[0]).stdout
    assert [line.split()[:3] for line in listing.splitlines()[1:]] == [
        ["math", "eval-e2e-math-v1", "30"], ["code", "eval-e2e-code-v1", "8"],
        ["mix", "prompts-e2e-mix-v1", "2"],
    ]  # fmt: skip
    plan = pipeline.run(pipeline.clone, commands[1]).stdout.splitlines()
    assert plan[0].startswith("math: eval-e2e-math-v1 (eval), 5 of 30 rows x 1 repeat(s) = 5 ")
    assert plan[-2:] == ["estimate: nothing to send", "nothing sent (--dry-run)"]
