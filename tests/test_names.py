"""Workload, study and output-set names checked where they enter (issue 31, :mod:`stages.names`):
params.yaml, every command-line argument naming one, every lock and output set. Before, a name
with a dot could never run (and the message blamed a missing ``workloads.llama3`` section), a
``/`` ended in a FileNotFoundError traceback, and an absolute name wrote a journal outside the
project once ``.atlas/locks/infer-<that path>/`` existed."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from dvc.stage.utils import is_valid_name
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

REPO = Path(__file__).resolve().parents[1]
for extra in (REPO / "tests", REPO / "tests" / "inference"):
    if str(extra) not in sys.path:
        sys.path.append(str(extra))
from infer_helpers import eval_row, write_dataset, write_params  # noqa: E402
from stub_server import StubServer  # noqa: E402

from stages.cli import main  # noqa: E402
from stages.errors import AtlasError  # noqa: E402
from stages.locks import exclusive  # noqa: E402
from stages.outputs import output_set  # noqa: E402
from stages.params import ParamsFile, load_params  # noqa: E402

RULE = (
    "is not a valid name: a name is 1-64 ASCII letters, digits, '-' and '_', starting with a "
    "letter or digit (DVC's rule for stage names; no '.', '/', space or other punctuation)"
)


def _project(root: Path, url: str, name: str) -> None:
    write_dataset(root, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
    write_params(root, url, workloads={name: {"dataset": "eval-t-v1"}})


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("name", ["llama3.1-math", "a/b", "../escape", "-x", "with space"])
def test_params_refuses_a_workload_name_naming_the_key(
    name: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(project, "http://127.0.0.1:9/v1", name)
    code, err = _run(["infer", "w", "--dry-run"], capsys)
    assert code == 2 and "Traceback" not in err
    line = next(i for i, t in enumerate((project / "params.yaml").read_text().splitlines(), 1)
                if t.strip().startswith((f"{name}:", f"'{name}':")))  # fmt: skip
    assert err == f"atlas: error: params.yaml:{line}: workloads.{name}: {name!r} {RULE}\n"


def test_an_absolute_workload_name_writes_nothing_outside_the_project(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside" / "w"
    with StubServer() as stub:
        _project(project, stub.url, str(outside))
        (project / ".atlas" / "locks" / f"infer-{outside.parent}").mkdir(parents=True)
        code, err = _run(["infer", str(outside)], capsys)
        assert stub.stats.requests == 0
    assert code == 2 and "Traceback" not in err
    assert err == f"atlas: error: WORKLOAD: {str(outside)!r} {RULE}\n"
    with pytest.raises(AtlasError, match=re.escape(f"workloads.{outside}: {str(outside)!r}")):
        load_params(project / "params.yaml")  # params.yaml itself is refused too
    assert not (tmp_path / "outside").exists()
    assert not (project / "results").exists()


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["infer", "../w", "--dry-run"], "WORKLOAD"),
        (["infer", "/tmp/w"], "WORKLOAD"),
        (["score", "a/b"], "WORKLOAD"),
        (["merge", "w.1"], "WORKLOAD"),
        (["judge", ".."], "WORKLOAD"),
        (["compare", "HEAD", "workspace", "-w", "../../etc/passwd"], "--workload"),
        (["compare", "HEAD", "workspace", "-w", "w.1"], "--workload"),
        (["report", "--protocol", "kouman", "--study", "../x"], "--study"),
        (["review", "export", "--study", "a/b"], "--study"),
        (["review", "import", "--study", "/tmp/x"], "--study"),
    ],
)
def test_command_line_names_are_refused_naming_the_argument(
    args: list[str], field: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(project, "http://127.0.0.1:9/v1", "w")
    code, err = _run(args, capsys)
    bad = next(a for a in args if "/" in a or "." in a and a != "workspace")
    rule = RULE
    if field == "--workload":  # compare pairs a workload or its review or judge verdicts
        rule = RULE.replace(
            ": a name", ": a workload name, or one followed by .review or .judge; a name"
        )
    assert (code, err.splitlines()[0]) == (2, f"atlas: error: {field}: {bad!r} {rule}")
    assert sorted(p.name for p in project.iterdir()) == ["datasets", "params.yaml"]


def test_judge_study_follows_the_same_rule(project: Path) -> None:
    judge = {"study": "../x", "judges": {"j": {"base_url": "http://127.0.0.1:9/v1"}}}
    with pytest.raises(ValidationError, match=re.escape(f"'../x' {RULE}")):
        ParamsFile.model_validate({"judge": judge})


def test_locks_and_output_sets_refuse_a_path(project: Path) -> None:
    for name in ("infer-/tmp/x", "score-../x", "a.b"):
        with pytest.raises(AtlasError, match="not a valid name"), exclusive(name, "x"):
            pass
        with pytest.raises(AtlasError, match="not a valid name"), output_set(name, "x"):
            pass
    assert not (project / ".atlas").exists()


VALID = r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}"  # the documented rule (docs/pipeline.md#names)
NAMES = st.text(st.characters(codec="utf-8"), max_size=70) | st.from_regex(VALID, fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(name=NAMES)
def test_params_accepts_exactly_the_documented_rule(name: str) -> None:
    """A name params.yaml accepts is a DVC stage name, a single path component inside the
    project and free of dots; every other name is refused at its key."""
    document = {"workloads": {name: {"dataset": "eval-t-v1"}}}
    valid = re.fullmatch(VALID, name) is not None
    try:
        ParamsFile.model_validate(document)
    except ValidationError as exc:
        assert not valid
        (error,) = exc.errors()
        assert error["loc"][:2] == ("workloads", name)
        return
    assert valid and is_valid_name(name)  # DVC's own check of a stage name
    assert "." not in name and "/" not in name and not Path(name).is_absolute()
    assert (Path("results") / name).parent == Path("results")
