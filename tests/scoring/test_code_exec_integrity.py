"""Issue 12: no program can write its own code_exec verdict, find the gold, or leak host files.

Each hostile payload below scored correct (or leaked) before the verdict moved to the parent.
"""

from __future__ import annotations

import ctypes
import json
from pathlib import Path
from typing import Any

import pytest

from stages.scoring import code_exec
from stages.scoring.code_exec import run_tests
from stages.scoring.sandbox import Limits, available, isolation_mode
from stages.scoring.sandbox_guard import landlock_abi

REPO = Path(__file__).resolve().parents[2]
CODE_ROWS = REPO / "datasets" / "eval-code-v1" / "rows.jsonl"
FAST = Limits(cpu_s=2, wall_s=15.0)  # generous: the machine may be shared and loaded
FORGED = 'f=sys._getframe(1).f_locals; os.write(f["result_fd"], f["nonce"].encode()); os._exit(0)'
BARRIERS = [
    pytest.param(mode, marks=pytest.mark.skipif(not available(mode), reason=f"no {mode} here"))
    for mode in ("bwrap", "namespaces")
]
ALL_MODES = [*BARRIERS, "basic"]
ADD_TESTS = "assert add(2, 3) == 5\nassert add(-1, 1) == 0"
LANDLOCK = landlock_abi(ctypes.CDLL(None, use_errno=True)) > 0
MARKER = "host-secret-5b1f0c"


def _rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CODE_ROWS.read_text(encoding="utf-8").splitlines()]


def _verdict_text(verdict: Any) -> str:
    return json.dumps([verdict.why, verdict.extras, verdict.score, verdict.correct])


def test_forged_nonce_payload_is_wrong_on_every_code_row(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(code_exec, "LIMITS", FAST)
    output = f"```python\nimport os, sys\n{FORGED}\n```"
    verdicts = [code_exec.score(r, {"output": output, "error": None}, REPO) for r in _rows()]
    assert len(verdicts) == 120
    assert [v.correct for v in verdicts] == [False] * 120
    assert {v.why for v in verdicts} == {"the code raised KeyError before the tests"}


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_forged_report_without_the_gold_is_wrong(isolation: str) -> None:
    # The program finds the result pipe and writes a well-formed report claiming truthy values.
    forge = (
        "import json, os\n"
        "report = json.dumps({'code_error': None, 'setup_error': None,\n"
        "                     'results': [{'value': True}, {'value': True}]}).encode()\n"
        "for fd in sorted(int(n) for n in os.listdir('/proc/self/fd')):\n"
        "    if fd < 3:\n        continue\n"
        "    try:\n        os.write(fd, report)\n    except OSError:\n        pass\n"
        "os._exit(0)\n"
    )
    result = run_tests(forge, ADD_TESTS, FAST, isolation)
    assert (result.passed, result.why) == (False, "test 1 of 2 failed: 'add(2, 3) == 5'")


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_always_equal_object_is_wrong(isolation: str) -> None:
    code = (
        "class Anything:\n    def __eq__(self, other):\n        return True\n"
        "    def __ne__(self, other):\n        return False\n"
        "def add(a, b):\n    return Anything()\n"
    )
    result = run_tests(code, ADD_TESTS, FAST, isolation)
    assert (result.passed, result.why) == (
        False,
        "test 1 of 2 failed: 'add(2, 3)' returned a value that is not plain built-in data",
    )


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_int_subclass_and_patched_builtins_are_wrong(isolation: str) -> None:
    subclass = "class Five(int):\n    pass\ndef add(a, b):\n    return Five(a + b)\n"
    assert run_tests(subclass, ADD_TESTS, FAST, isolation).passed is False
    patched = "import builtins\nbuiltins.len = lambda x: 3\ndef add(a, b):\n    return [0]\n"
    result = run_tests(patched, "assert len(add(1, 2)) == 3", FAST, isolation)
    assert (result.passed, result.why) == (False, "test 1 of 1 failed: 'len(add(1, 2)) == 3'")


@pytest.mark.parametrize("isolation", BARRIERS)
def test_dataset_and_project_are_invisible(isolation: str) -> None:
    row = _rows()[0]
    entry = row["answer"]
    code = (
        f"import json\ndef {entry}(*args):\n"
        f"    for line in open({str(CODE_ROWS)!r}):\n"
        f"        exec(json.loads(line)['meta']['reference_solution'], globals())\n"
        f"    return {entry}(*args)\n"
    )
    result = run_tests(code, row["tests"], FAST, isolation)
    assert (result.passed, result.why) == (
        False,
        f"test 1 of {len(row['tests'].splitlines())} failed: "
        f"{row['tests'].splitlines()[0][7:].split(' == ')[0]!r} raised FileNotFoundError",
    )
    # the top level differs per machine (and Landlock refuses to list it): no /etc, /home, /tmp
    probe = (
        "import os\ntry:\n    names = set(os.listdir('/'))\nexcept PermissionError:\n"
        "    names = set()"
    )
    checks = "assert not names & {'etc', 'home', 'tmp', 'opt', 'var', 'mnt'}"
    assert run_tests(probe, checks, FAST, isolation).passed is True
    for hidden in (str(REPO), "/etc/passwd", "/home", str(Path.home() / ".cache")):
        probe = f"import os\nfound = os.path.exists({hidden!r})"
        assert run_tests(probe, "assert found is False", FAST, isolation).passed is True, hidden


GOLD_LOOKUP = """\
import json, sys
steps = sys._getframe(1).f_locals["steps"]  # the probes the boot is about to evaluate
probes = [step["probe"] for step in steps if "probe" in step]
for line in open(ROWS):
    row = json.loads(line)
    if all(probe in row["tests"] for probe in probes):  # this item's row: run its reference
        exec(row["meta"]["reference_solution"], globals())
"""


@pytest.mark.parametrize("isolation", [*BARRIERS, "basic"])
def test_gold_lookup_payload_scores_wrong_in_every_mode(isolation: str) -> None:
    # issue 24: in basic mode this payload scored correct without solving the task
    if isolation == "basic" and not LANDLOCK:
        pytest.skip("the kernel has no Landlock: basic mode reads host files (refused by default)")
    row = _rows()[7]
    code = f"ROWS = {str(CODE_ROWS)!r}\n" + GOLD_LOOKUP
    result = run_tests(code, row["tests"], FAST, isolation)
    error = "PermissionError" if isolation == "basic" else "FileNotFoundError"
    assert (result.passed, result.why) == (False, f"the code raised {error} before the tests")
    for hidden in (str(CODE_ROWS), "/etc/passwd", str(Path.home() / ".bashrc")):
        probe = (
            f"try:\n    open({hidden!r}).read(1)\n    got = True\nexcept OSError:\n    got = False"
        )
        assert run_tests(probe, "assert got is False", FAST, isolation).passed is True, hidden


@pytest.mark.parametrize("isolation", ALL_MODES)
def test_host_file_content_never_reaches_the_verdict(
    isolation: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(MARKER)
    secret.chmod(0o644)
    tmp_path.chmod(0o755)
    read = f"open({str(secret)!r}).read()"
    payloads = [
        f"import sys\nprint({read})\nprint({read}, file=sys.stderr)\n"
        "def add(a, b):\n    return a + b + 1",
        f"raise ValueError({read})",
        f"def add(a, b):\n    raise type({read}.replace('-', '_'), (Exception,), {{}})()",
        f"def add(a, b):\n    return {read}",
        f"import sys\nsys.exit({read})",
    ]
    monkeypatch.setattr(code_exec, "LIMITS", FAST)
    monkeypatch.setattr(code_exec, "run_program", _forcing(isolation))
    for code in payloads:
        verdict = code_exec.score(ROW_ADD, {"output": code, "error": None}, REPO)
        assert verdict.correct is False, code
        assert MARKER not in _verdict_text(verdict), code
        assert MARKER.replace("-", "_") not in _verdict_text(verdict), code


ROW_ADD = {"id": "c1", "answer": "add", "tests": ADD_TESTS}


def _forcing(isolation: str) -> Any:
    from stages.scoring import sandbox

    def run(code: str, steps: Any, limits: Any = None, _: Any = None) -> Any:
        return sandbox.run_program(code, steps, limits, isolation)

    return run


def test_reference_solutions_pass_and_wrong_ones_fail() -> None:
    rows = _rows()[:: len(_rows()) // 12]  # 12 rows across the categories
    for row in rows:
        good = run_tests(row["meta"]["reference_solution"], row["tests"], FAST)
        bad = run_tests(row["meta"]["wrong_solution"], row["tests"], FAST)
        assert (good.passed, bad.passed) == (True, False), (row["id"], good.why, bad.why)
    assert isolation_mode() in {"bwrap", "namespaces", "basic"}
