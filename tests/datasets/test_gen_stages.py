"""gen-<id> stages: exactly the helpers each generator imports, kept right by `atlas dataset new`
and `atlas dataset stages`, verified by `atlas check`, and re-running only the changed stage."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from stages.cli import main
from stages.datasets.gen_stages import BEGIN, END, helpers, stage_failures
from tests.conftest import REPO

DVC_YAML = f"stages:\n{BEGIN}\n{END}\n"


def test_helpers_are_the_transitive_imports() -> None:
    assert helpers("eval-code-v1", REPO) == [
        "_gen/_code_base.py",
        "_gen/_code_lists.py",
        "_gen/_code_numbers.py",
        "_gen/_code_parsing.py",
        "_gen/_code_strings.py",
        "_gen/_fresh.py",
        "_gen/_lib.py",
    ]
    # haystack-v1 imports _needles, which imports _haystack_build.
    assert helpers("eval-longctx-v1", REPO) == [
        "_gen/_fresh.py",  # _lib imports it for fresh instances
        "_gen/_haystack_build.py",
        "_gen/_lib.py",
        "_gen/_needles.py",
    ]


def test_the_repository_dvc_yaml_matches_every_generator() -> None:
    assert stage_failures(REPO) == []


def test_new_dataset_gets_its_stage_and_the_check_catches_a_new_import(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("dvc.yaml").write_text(DVC_YAML, encoding="utf-8")
    assert main(["dataset", "new", "eval-algebra-v1"]) == 0
    text = Path("dvc.yaml").read_text(encoding="utf-8")
    assert (
        "  gen-eval-algebra-v1:\n"
        "    cmd: atlas dataset generate eval-algebra-v1\n"
        "    deps: [_gen/eval-algebra-v1.py, _gen/_fresh.py, _gen/_lib.py, "
        "stages/datasets/generate.py]\n"
    ) in text
    assert "  gen-eval-math-v1:\n" in text
    assert stage_failures(Path(".")) == []

    Path("_gen/_more.py").write_text("VALUE = 1\n", encoding="utf-8")
    Path("_gen/_extra.py").write_text("from _more import VALUE\n", encoding="utf-8")
    script = Path("_gen/eval-algebra-v1.py")
    script.write_text(
        script.read_text().replace("import _lib  # noqa: E402", "import _extra, _lib  # noqa"),
        encoding="utf-8",
    )
    assert stage_failures(Path(".")) == [
        "dvc.yaml: stage gen-eval-algebra-v1: deps do not match the generator's imports "
        "(missing ['_gen/_extra.py', '_gen/_more.py'], extra none); run `atlas dataset stages`"
    ]
    assert main(["dataset", "stages"]) == 0
    assert "gen stages rewritten" in capsys.readouterr().out
    assert stage_failures(Path(".")) == []
    assert main(["dataset", "stages"]) == 0
    assert "gen stages up to date" in capsys.readouterr().out


def test_an_id_without_a_stage_and_a_hand_edited_block_fail(project: Path) -> None:
    Path("dvc.yaml").write_text(DVC_YAML, encoding="utf-8")
    assert stage_failures(Path(".")) == [
        "dvc.yaml: eval-math-v1 is listed in params.yaml datasets: but has no gen stage; "
        "run `atlas dataset stages`"
    ]
    assert main(["dataset", "stages"]) == 0
    text = Path("dvc.yaml").read_text(encoding="utf-8")
    Path("dvc.yaml").write_text(text.replace("{cache: false}", "{cache: true}"), "utf-8")
    assert stage_failures(Path(".")) == [
        "dvc.yaml: the gen-stage block is stale; run `atlas dataset stages`"
    ]


def _run(*cmd: str) -> str:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    return proc.stdout


def test_changing_one_generator_reruns_only_its_stage(project: Path) -> None:
    shutil.copy(REPO / "_gen" / "TEMPLATE.py", "_gen/eval-other-v1.py")
    Path("params.yaml").write_text(
        "datasets:\n  - eval-math-v1\n  - eval-other-v1\n\ncheck:\n  budget_mb: 25\n", "utf-8"
    )
    Path("stages/datasets").mkdir(parents=True)
    shutil.copy(REPO / "stages/datasets/generate.py", "stages/datasets/generate.py")
    Path("dvc.yaml").write_text(DVC_YAML, encoding="utf-8")
    assert main(["dataset", "stages"]) == 0
    _run("git", "init", "-q")
    _run("dvc", "init", "-q")
    _run("dvc", "repro", "-q")
    assert _run("dvc", "status", "-q") == ""
    script = Path("_gen/eval-other-v1.py")
    script.write_text(script.read_text().replace("COUNT = 100", "COUNT = 99"), "utf-8")
    status = _run("dvc", "status")
    assert "gen-eval-other-v1:" in status
    assert "gen-eval-math-v1" not in status
    _run("dvc", "repro", "-q")
    assert len(Path("datasets/eval-other-v1/rows.jsonl").read_text().splitlines()) == 99
