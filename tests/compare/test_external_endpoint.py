"""``atlas compare`` and ``atlas gate`` between two revisions run against an external endpoint
(issue 31): the loopback stub, no embedded engine, so every record's engine and chat template
are null, and a failed request carries no ``system_fingerprint`` while the answered ones do.
Each revision is a commit of ``atlas infer`` + ``atlas score`` run for real; the comparison runs
in a fresh clone (no results/, no server)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from compare_helpers import commit, git

REPO = Path(__file__).resolve().parents[2]
for extra in (REPO / "tests", REPO / "tests" / "inference"):
    if str(extra) not in sys.path:
        sys.path.append(str(extra))
from infer_helpers import eval_row, oracle, write_dataset, write_params  # noqa: E402
from stub_server import StubConfig, StubServer  # noqa: E402

from stages.cli import main  # noqa: E402
from stages.inference import client  # noqa: E402

ATLAS = str(Path(sys.executable).with_name("atlas"))
POLICY = "alpha: 0.05\nrules:\n  - check: no_worse\n  - check: no_new_failures\n"
N = 8


def _atlas(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ATLAS, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def _revision(stub: StubServer, model: str, fingerprint: str) -> None:
    """Run and score workload w from scratch against the stub: the first request fails (no
    retry, one request at a time: item q-0000), the others are answered with ``fingerprint``;
    every answer is right."""
    shutil.rmtree("results", ignore_errors=True)
    params = yaml.safe_load(Path("params.yaml").read_text())
    params["model"]["name"] = model
    Path("params.yaml").write_text(yaml.safe_dump(params))
    stub.config.fingerprint = fingerprint
    stub.config.fail_first = stub.stats.requests + 1
    assert main(["infer", "w"]) == 0
    assert main(["score", "w"]) == 0


@pytest.fixture
def clone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Iterator[Path]:
    """A fresh clone of a project whose two commits ran against the stub (model stub-a with
    fingerprint fp-a, then stub-b with fp-b)."""
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q", "-b", "main")
    git(origin, "config", "user.name", "t")
    git(origin, "config", "user.email", "t@atlas")
    monkeypatch.chdir(origin)
    monkeypatch.setattr(client, "BACKOFF_BASE_S", 0.01)
    with StubServer(StubConfig(reply_fn=oracle, fail_status=500)) as stub:
        write_dataset(origin, "eval-t-v1", "eval", [eval_row(i) for i in range(N)])
        run = {"max_retries": 0, "max_failed_share": 0.5, "concurrency": 1}
        write_params(origin, stub.url, run=run)
        (origin / ".gitignore").write_text("/results/\n/.atlas/\n")
        _revision(stub, "stub-a", "fp-a")
        commit(origin, "A")
        _revision(stub, "stub-b", "fp-b")
        commit(origin, "B")
    metrics = json.loads((origin / "metrics" / "w.json").read_text())
    provenance = metrics["signature"]["provenance"]  # what made `atlas compare` crash
    assert {(p["system_fingerprint"], p["engine"]) for p in provenance} == {
        ("fp-b", None),
        (None, None),
    }
    (origin / "policy.yaml").write_text(POLICY)
    subprocess.run(["git", "clone", "-q", str(origin), str(tmp_path / "clone")], check=True)
    (tmp_path / "clone" / "policy.yaml").write_text(POLICY)
    capsys.readouterr()
    yield tmp_path / "clone"


def test_compare_two_external_endpoint_revisions_from_a_fresh_clone(clone: Path) -> None:
    assert not (clone / "results").exists()
    done = _atlas(clone, "compare", "HEAD~1", "HEAD", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    (row,) = [r for r in data["rows"] if r["category"] is None]
    # item q-0000 failed at both revisions (the first request of each pass), the rest right
    assert (row["workload"], row["n"], row["a"], row["b"]) == ("w", N, 7 / N, 7 / N)
    assert row["wrong_to_right"] == [] and row["right_to_wrong"] == []
    (run,) = data["runs"]
    assert run.startswith("stub-a @ r1 -> stub-b @ r1, same decoding ")
    warning = " ".join(data["warnings"])
    assert "provenance differs" in warning and "'fp-a'" in warning and "'fp-b'" in warning
    table = _atlas(clone, "compare", "HEAD~1", "HEAD")
    assert table.returncode == 0 and "Traceback" not in table.stderr
    assert re.search(
        r"^w +8 +87\.5 +87\.5 +\+0\.0 .* 1/1 no detectable difference$", table.stdout, re.M
    )
    assert "fp-b')] (w)" in table.stdout  # the warning names the fingerprints and the workload


def test_gate_two_external_endpoint_revisions_from_a_fresh_clone(clone: Path) -> None:
    done = _atlas(clone, "gate", "policy.yaml", "HEAD~1", "HEAD", "--json")
    assert done.returncode == 0, (done.stdout, done.stderr)
    decisions = json.loads(done.stdout)
    assert decisions["exit_code"] == 0 and "Traceback" not in done.stderr
