"""``code_exec`` scorer (spec 001 scorers; docs/datasets.md#rows: ``answer`` is the entry-point
function name, ``tests`` are assert statements).

Rules:
- Reasoning (``<think>``) is removed first (extraction step 1); the Answer-line step is not
  applied — code is not an answer line.
- Which code: the complete fenced blocks (```` ``` ```` or ``~~~``) tagged ``python``, ``py``,
  ``python3`` or untagged are the candidates (all complete blocks if none is); the *last*
  candidate defining ``def <entry point>(`` wins, else the last candidate. With no complete
  block, fence markers are stripped (extraction step 2: an unclosed fence from a truncated
  reply) and the whole remaining text is the code.
- The row's ``tests`` become a test plan (:mod:`stages.scoring.code_tests`, which lists the
  supported assert forms): the code runs in :mod:`stages.scoring.sandbox` as module
  ``solution``, the child evaluates the tests' probe expressions and reports their values as
  plain data, and the parent compares them with the expected values only it holds. Correct
  when every top-level assert holds. An exception, a timeout, a resource limit, leaving before
  the tests, a value that is not plain built-in data, or a malformed report is simply wrong.
- Code that does not compile is wrong, reported with its error like any other failure.
- extras: ``isolation`` (``bwrap``, ``namespaces`` or ``basic``) and ``seconds``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.scoring.code_tests import judge, parse_tests
from stages.scoring.extract import strip_fences, strip_reasoning
from stages.scoring.sandbox import Limits, RunResult, run_program
from stages.scoring.verdict import Verdict, binary

NAME = "code_exec"
LIMITS = Limits()
_PYTHON_TAGS = {"", "python", "py", "python3"}
_BLOCK = re.compile(
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+#.-]*)[^\n]*\n"
    r"(?P<body>.*?)^[ \t]*(?P=fence)[ \t]*$",
    re.M | re.S,
)


@dataclass(frozen=True)
class TestRun:
    """A program run against a test plan, and the parent's judgement of it."""

    passed: bool
    why: str
    run: RunResult


def extract_code(output: str, entry_point: str) -> str:
    """The program text to run, chosen from the model output as documented above."""
    text = strip_reasoning(output)
    blocks = [(m["lang"].lower(), m["body"]) for m in _BLOCK.finditer(text)]
    if not blocks:
        return strip_fences(text)
    candidates = [body for lang, body in blocks if lang in _PYTHON_TAGS] or [b for _, b in blocks]
    defines = re.compile(rf"^\s*(?:async\s+)?def\s+{re.escape(entry_point)}\s*\(", re.M)
    chosen = [body for body in candidates if defines.search(body)]
    return (chosen or candidates)[-1]


def run_tests(
    code: str, tests: str, limits: Limits | None = None, isolation: str | None = None
) -> TestRun:
    """Run ``code`` in the sandbox against ``tests`` and judge the report in this process."""
    limits = limits or LIMITS
    plan = parse_tests(tests)
    run = run_program(code, plan.steps, limits, isolation)
    passed, why = judge(plan, run, limits)
    return TestRun(passed, why, run)


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Run the model's code against the row's tests; every assert holding = correct."""
    tests = row.get("tests")
    if not isinstance(tests, str) or not tests.strip():
        raise AtlasError(f"row {row.get('id')}: tests: a code_exec row needs assert statements")
    code = extract_code(response.get("output") or "", str(row["answer"]))
    try:
        result = run_tests(code, tests, LIMITS)
    except AtlasError as exc:
        raise AtlasError(f"row {row.get('id')}: {exc}") from exc
    return binary(
        NAME, result.passed, code, result.why,
        seconds=round(result.run.seconds, 3), isolation=result.run.isolation,
    )  # fmt: skip
