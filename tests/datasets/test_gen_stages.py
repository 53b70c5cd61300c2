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


#: What every generator runs through ``from common import lib``.
COMMON = [
    "_gen/common/__init__.py",
    "_gen/common/canonical.py",
    "_gen/common/fresh.py",  # lib imports it for fresh instances
    "_gen/common/lib.py",
    "_gen/common/seeds.py",
]


def test_helpers_are_the_transitive_imports() -> None:
    assert helpers("eval-code-v1", REPO) == [
        *COMMON,
        "_gen/families/__init__.py",  # a package's __init__ runs on import: a dep too
        "_gen/families/code/__init__.py",
        "_gen/families/code/base.py",
        "_gen/families/code/lists.py",
        "_gen/families/code/numbers.py",
        "_gen/families/code/parsing.py",
        "_gen/families/code/strings.py",
    ]
    # eval-longctx-v1 imports families.haystack.needles, which imports families.haystack.build;
    # the standard library (and Pillow, for eval-vision-v1) is no dep.
    assert helpers("eval-longctx-v1", REPO) == [
        *COMMON,
        "_gen/families/__init__.py",
        "_gen/families/haystack/__init__.py",
        "_gen/families/haystack/build.py",
        "_gen/families/haystack/needles.py",
    ]
    assert helpers("eval-vision-v1", REPO)[-3:] == [
        "_gen/families/vision/draw.py",
        "_gen/families/vision/pixels.py",
        "_gen/families/vision/questions.py",
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
        f"    deps: [_gen/eval-algebra-v1.py, {', '.join(COMMON)}, stages/datasets/generate.py]\n"
    ) in text
    assert "  gen-eval-math-v1:\n" in text
    assert stage_failures(Path(".")) == []

    # A new family package: the generator imports one module, which imports a sibling
    # relatively; a second one is imported inside a function.
    family = Path("_gen/families/algebra")
    family.mkdir(parents=True)
    Path("_gen/families/__init__.py").write_text('"""Families."""\n', encoding="utf-8")
    (family / "__init__.py").write_text("", encoding="utf-8")
    (family / "tables.py").write_text("VALUE = 1\n", encoding="utf-8")
    (family / "terms.py").write_text("from .tables import VALUE\n", encoding="utf-8")
    (family / "late.py").write_text("LATE = 2\n", encoding="utf-8")
    script = Path("_gen/eval-algebra-v1.py")
    text = script.read_text(encoding="utf-8").replace(
        "from common import lib\n", "from common import lib\nfrom families.algebra import terms\n"
    )
    text = text.replace(
        "def prove(row", "def _late() -> None:\n    import families.algebra.late\n\n\ndef prove(row"
    )
    script.write_text(text, encoding="utf-8")
    added = [
        "__init__.py",
        "algebra/__init__.py",
        "algebra/late.py",
        "algebra/tables.py",
        "algebra/terms.py",
    ]
    assert stage_failures(Path(".")) == [
        "dvc.yaml: stage gen-eval-algebra-v1: deps do not match the generator's imports "
        f"(missing {[f'_gen/families/{name}' for name in added]}, extra none); "
        "run `atlas dataset stages`"
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
