"""``atlas gate POLICY.yaml A B`` (issue 18): exit 0 pass, 1 fail, 3 inconclusive, 2 bad input;
one line per rule; one Holm family over every rule's decisions. The end-to-end test runs a CI
job script in a fresh clone of a project whose branches hold a planted regression and a null
change: the job fails on the first and passes on the second."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from compare_helpers import commit, git, rows_for, write_dataset, write_scored

from stages.cli import main

POLICY = """\
alpha: 0.05
rules:
  - check: no_worse            # no workload significantly worse
  - check: non_inferior        # math at most 2 points below A, at 95 % confidence
    workloads: [math]
    margin: 2
  - check: no_new_failures
"""
CI_JOB = """\
#!/bin/sh
# The CI job: fail the build when B regresses against the base branch.
set -e
atlas gate ci/policy.yaml origin/main HEAD
"""
N_MATH, N_CODE = 2000, 400


def base(root: Path) -> tuple[dict[str, bool], dict[str, bool], dict[str, str]]:
    """A: math 60 % right (first 1,200 items), code 50 % (even items); returns outcomes and shas."""
    shas = {}
    for dataset_id, n in (("eval-math-v1", N_MATH), ("eval-code-v1", N_CODE)):
        shas[dataset_id] = write_dataset(root, dataset_id, rows_for(dataset_id, ["1"] * n, ["x"]))
    math = {f"math-{i:03d}": i < 1200 for i in range(N_MATH)}
    code = {f"code-{i:03d}": i % 2 == 0 for i in range(N_CODE)}
    return math, code, shas


def write(root: Path, math: dict[str, bool], code: dict[str, bool], shas: dict[str, str],
          failed: dict[str, str] | None = None) -> None:  # fmt: skip
    write_scored(root, "math", "eval-math-v1", shas["eval-math-v1"], math, failed=failed)
    write_scored(root, "code", "eval-code-v1", shas["eval-code-v1"], code)


def flip(outcomes: dict[str, bool], down: int, up: int) -> dict[str, bool]:
    """Turn ``down`` right items wrong and ``up`` wrong items right (the first of each)."""
    right = [k for k, v in outcomes.items() if v][:down]
    wrong = [k for k, v in outcomes.items() if not v][:up]
    return {**outcomes, **dict.fromkeys(right, False), **dict.fromkeys(wrong, True)}


def project(root: Path) -> None:
    """main: A; branch null: 100 flips each way on math; branch regress: math loses 6 points
    (160 right->wrong, 40 wrong->right) and 5 requests fail at B."""
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "test")
    git(root, "config", "user.email", "test@atlas")
    math, code, shas = base(root)
    (root / "ci").mkdir()
    (root / "ci" / "policy.yaml").write_text(POLICY)
    (root / "ci" / "gate.sh").write_text(CI_JOB)
    write(root, math, code, shas)
    commit(root, "A")
    git(root, "checkout", "-q", "-b", "null")
    write(root, flip(math, 100, 100), code, shas)
    commit(root, "null change")
    git(root, "checkout", "-q", "-b", "regress", "main")
    failed = {f"math-{i:03d}": "timeout" for i in range(1195, 1200)}
    write(root, flip(math, 160, 40), code, shas, failed)
    commit(root, "planted regression")
    git(root, "checkout", "-q", "main")


def test_the_gate_fails_a_ci_job_on_a_regression_and_passes_a_null_change(tmp_path: Path) -> None:
    origin, clone = tmp_path / "origin", tmp_path / "clone"
    origin.mkdir()
    project(origin)
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    outcomes = {}
    for branch in ("regress", "null"):
        git(clone, "checkout", "-q", branch)
        job = subprocess.run(["sh", "ci/gate.sh"], cwd=clone, env=env, capture_output=True,
                             text=True)  # fmt: skip
        outcomes[branch] = (job.returncode, job.stdout.splitlines())
    code, lines = outcomes["regress"]
    assert code == 1, lines
    # 165 right->wrong (5 of them failed requests) and 40 wrong->right of 2,000: -6.25 points;
    # Tango's interval -7.68..-4.91, rounded outward.
    assert lines[0] == ("FAIL          all workloads: not worse — math B worse: Δ -6.2 (95% CI "
                        "-7.7..-4.9), p adj <.001 (1 other workload fine)")  # fmt: skip
    assert lines[1].startswith("FAIL          math: not worse by more than 2 points — math below")
    assert lines[2] == ("FAIL          all workloads: no new failures — math: 5 new failures "
                        "(math-1195, math-1196, math-1197, math-1198, math-1199) "
                        "(1 other workload fine)")  # fmt: skip
    assert lines[3] == "gate: fail (exit 1); alpha 0.05 over 3 statistical decisions (Holm)"
    code, lines = outcomes["null"]
    assert code == 0, lines
    # Non-inferiority: Tango's score statistic at -2 points is 2.786 (restricted MLE found by
    # numerical optimisation: tests/compare/test_stats.py), two-sided p 0.00534, x 3 by Holm.
    assert lines[:3] == [
        "PASS          all workloads: not worse — 2 workloads, none worse",
        "PASS          math: not worse by more than 2 points — math within the margin -2: "
        "Δ +0.0 (95% CI -1.4..+1.4), p adj 0.016",
        "PASS          all workloads: no new failures — 2 workloads, no new failures",
    ]


def _two(repo: Path, n: int, down: int, up: int) -> None:
    rows = rows_for("eval-math-v1", ["1"] * n, ["x"])
    sha = write_dataset(repo, "eval-math-v1", rows)
    a = {r["id"]: i % 2 == 0 for i, r in enumerate(rows)}
    write_scored(repo, "math", "eval-math-v1", sha, a)
    commit(repo, "A")
    write_scored(repo, "math", "eval-math-v1", sha, flip(a, down, up))
    commit(repo, "B")


def test_too_little_data_is_inconclusive(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _two(repo, 40, 2, 2)
    Path("policy.yaml").write_text(POLICY.replace("workloads: [math]", "workloads: all"))
    assert main(["gate", "policy.yaml", "HEAD~1", "HEAD"]) == 3
    out = capsys.readouterr().out.splitlines()
    # 2 flips each way of 40: Tango's interval is +-12.52 points, rounded outward.
    assert out[0] == "PASS          all workloads: not worse — math not worse: Δ +0.0 (95% CI " + (
        "-12.6..+12.6)"
    )
    assert out[1].startswith("INCONCLUSIVE  all workloads: not worse by more than 2 points — math ")
    assert "not shown within the margin -2" in out[1]
    Path("policy.yaml").write_text("rules:\n  - check: no_worse\n    max_mde: 5\n")
    assert main(["gate", "policy.yaml", "HEAD~1", "HEAD"]) == 3
    assert "math: could not see a 5-point loss (MDE " in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rules: []\n", "policy.yaml:1: rules: List should have at least 1 item"),
        (
            "rules:\n  - check: better\n",
            "policy.yaml:2: rules[0].check: Input should be 'no_worse'",
        ),
        ("rules:\n  - check: no_worse\n    margin: 2\n", "margin applies to non_inferior"),
        ("rules:\n  - check: no_worse\n    workloads: [nope]\n", "workload 'nope' is not compared"),
        ("rules: [\n", "policy.yaml:2: invalid YAML"),
    ],
)
def test_bad_policies_exit_2_and_say_where(
    repo: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    _two(repo, 40, 2, 2)
    Path("policy.yaml").write_text(text)
    assert main(["gate", "policy.yaml", "HEAD~1", "HEAD"]) == 2
    assert message in capsys.readouterr().err
