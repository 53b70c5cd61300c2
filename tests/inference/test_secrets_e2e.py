"""Issue 31, "Secrets at one boundary": a server that echoes the API key in every field it can
send — ``system_fingerprint``, ``model``, tool call id, name and arguments, ``usage``, the answer
text, error bodies, response headers, ``/props``' chat template, ``/v1/models`` — in one form
or another (as it is, JSON-escaped on the wire or as text, URL-encoded, base64 inside a larger
blob in either alphabet). The whole pipeline runs against it: ``infer`` (streamed and not; twice:
the rerun probes the fingerprint) -> ``score`` -> ``report`` for two model revisions, one
committed, then
``compare`` (table, ``--flips``, ``--json``, ``--out``) and ``gate`` between them, and a run
whose every request gets a 400 echoing the key. No file of the project (git's objects included)
and no line any command printed may hold the key in any form (:mod:`key_forms`' oracle)."""

from __future__ import annotations

import base64
import json
import random
import re
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from infer_helpers import eval_row, write_dataset, write_params
from key_forms import holds
from stub_server import StubServer

from stages.cli import main

_RANDOM = random.Random(31)
_PIECES = ["".join(_RANDOM.choices("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789_-",
                                   k=k)) for k in (16, 12, 12)]  # fmt: skip
KEY = f"sk-proj-{_PIECES[0]}/{_PIECES[1]}+{_PIECES[2]}"
"""One key for every case, drawn once, with a ``/`` (JSON may write ``\\/``) and a ``+`` (a URL
writes ``%2B``)."""


def _json_text(key: str) -> str:
    """The key as JSON-escaped text: every character ``\\uXXXX`` in mixed case, ``/`` as ``\\/``."""
    return "".join("\\/" if c == "/" else f"\\u{ord(c):04{'X' if i % 3 else 'x'}}"
                   for i, c in enumerate(key))  # fmt: skip


FORMS: dict[str, tuple[str, bool]] = {
    "literal": (KEY, False),
    "json-escaped-on-the-wire": (KEY, True),
    "json-escaped-text": (_json_text(KEY), False),
    "url-encoded": (quote(KEY, safe="").replace("%2F", "%2f"), False),
    "base64": (base64.b64encode(KEY.encode()).decode(), False),
    "base64-at-byte-5": (base64.b64encode(b"user:" + KEY.encode() + b"\n").decode(), False),
    "base64url-at-byte-7": (
        base64.urlsafe_b64encode(b'{"k": "' + KEY.encode() + b'"}').decode().rstrip("="),
        False,
    ),
}
TOOLS = [{"type": "function", "function": {"name": "add", "parameters": {}}}]
WORKLOADS = {
    "w": {"dataset": "eval-t-v1"},
    "tools": {"dataset": "eval-tools-t-v1"},
    "plain": {"dataset": "eval-tools-t-v1", "stream": False},  # one JSON body, not a stream
}
POLICY = "alpha: 0.05\nrules:\n  - check: no_worse\n  - check: no_new_failures\n"


def _right(body: dict[str, Any]) -> str:
    """The right answer to eval_row's "What is N + 1?"; "OK" to anything else (the probe)."""
    found = re.fullmatch(r"What is (\d+) \+ 1\?", str(body["messages"][-1]["content"]))
    return f"Answer: {int(found.group(1)) + 1}" if found else "OK"


def _git(root: Path, *args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True).stdout


def _revision(project: Path, url: str, revision: str) -> None:
    """Infer, score and report every workload as model revision ``revision``."""
    write_params(project, url, model={"revision": revision}, workloads=WORKLOADS)
    for workload in WORKLOADS:
        assert main(["infer", workload]) == 0, workload
    assert main(["infer", "w"]) == 0  # reuses every answer, after probing the fingerprint
    for workload in WORKLOADS:
        assert main(["score", workload]) == 0, workload
    assert main(["report"]) == 0


def _leaks(project: Path, planted: str, printed: list[str]) -> list[str]:
    """Where the key can be read back: project files, git objects, lines printed (never the
    text itself: the assertion message would print the key)."""
    found = []
    for path in sorted(project.rglob("*")):
        relative = path.relative_to(project)
        if KEY in str(relative) or planted in str(relative):
            found.append(f"file name {relative}")
        if path.is_file() and relative.parts[0] != ".git":
            text = path.read_bytes().decode("utf-8", "replace")
            if planted in text or holds(text, KEY):
                found.append(str(relative))
    objects = _git(project, "cat-file", "--batch-all-objects", "--batch").decode("utf-8", "replace")
    if planted in objects or holds(objects, KEY):
        found.append("git objects")
    for number, line in enumerate("".join(printed).splitlines()):
        if planted in line or holds(line, KEY):
            found.append(f"printed line {number}")
    return found


@pytest.mark.parametrize("form", sorted(FORMS))
def test_no_form_of_an_echoed_key_is_written_or_printed(
    form: str,
    project: Path,
    stub: StubServer,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    planted, escaped = FORMS[form]
    assert holds(planted, KEY)  # the oracle reads the key back from the planted form
    monkeypatch.setenv("ATLAS_TEST_KEY", KEY)
    for name in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{name}_NAME", "test")
        monkeypatch.setenv(f"GIT_{name}_EMAIL", "test@atlas")
    config = stub.config
    config.echo, config.echo_escaped = planted, escaped
    config.reply_fn = _right
    config.tool_call = {"name": "add", "arguments": {"a": 1, "b": 2}}
    config.fail_first = 1  # the first request gets a 500 echoing the key, and is retried
    config.props_template = "{{ messages }}"
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(6)])
    gold: dict[str, Any] = {"tool_call": {"name": "add", "arguments": {"a": 1}}}
    tool_rows = [eval_row(i, scorer="tool_call", answer=gold, meta={"tools": TOOLS})
                 for i in range(6)]  # fmt: skip
    write_dataset(project, "eval-tools-t-v1", "eval", tool_rows)
    (project / "ci").mkdir()
    (project / "ci" / "policy.yaml").write_text(POLICY, encoding="utf-8")
    _git(project, "init", "-q", "-b", "main")
    printed: list[str] = []

    _revision(project, stub.url, "r1")
    printed += capfd.readouterr()
    assert _leaks(project, planted, printed) == []
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "revision r1")

    _revision(project, stub.url, "r2")
    assert main(["compare", "HEAD", "workspace", "--flips", "--out", "build/cmp"]) == 0
    assert main(["compare", "HEAD", "workspace", "--json"]) == 0
    assert main(["gate", "ci/policy.yaml", "HEAD", "workspace"]) == 0
    assert (project / "build" / "cmp" / "compare.md").is_file()

    config.fail_status, config.fail_first = 400, 10**6  # every request: 400 echoing the key
    write_params(project, stub.url, model={"revision": "r3"})
    assert main(["infer", "w"]) == 3
    printed += capfd.readouterr()
    assert "***" in (project / "results" / "w" / "responses.jsonl").read_text()
    assert _leaks(project, planted, printed) == []


def test_the_other_model_warning_scrubs_a_journal_written_before(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A journal an older version wrote may hold an echoed key in ``model``: the warning line
    ``atlas infer`` prints from it shows ``***``."""
    from stages.inference.run import warn_other_models

    records = [{"model": f"m-{form}"} for form, _ in FORMS.values()] + [{"model": "stub-model"}]
    warn_other_models("w", "stub-model", records, (KEY,))
    printed = capsys.readouterr().err
    filled = 4 + (len(KEY) % 3 == 0)  # forms that are the key alone: base64 only when aligned
    assert "7 of 8 answers" in printed and f"'m-***' ({filled})" in printed
    assert not holds(printed, KEY)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_an_error_body_echoing_the_key_in_any_form_is_journaled_scrubbed(
    form: str, project: Path, stub: StubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only error bodies and answer text were scrubbed before, and only of the key as it is: a
    400 body holding ``\\u0073k-…`` (or the key URL-encoded, or in base64) reached the journal."""
    planted, escaped = FORMS[form]
    monkeypatch.setenv("ATLAS_TEST_KEY", KEY)
    stub.config.echo, stub.config.echo_escaped = planted, escaped
    stub.config.fail_status, stub.config.fail_first = 400, 10**6
    write_dataset(project, "eval-t-v1", "eval", [eval_row(0)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 3
    journal = (project / "results" / "w" / "responses.jsonl").read_text()
    [record] = [json.loads(line) for line in journal.splitlines()]
    assert record["error"]["kind"] == "http_4xx" and "***" in record["error"]["message"]
    assert not holds(journal, KEY) and planted not in journal
