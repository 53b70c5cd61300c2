"""``code_exec`` scorer (spec 001 scorers; README §Rows: ``answer`` is the entry-point function
name, ``tests`` are assert statements).

Rules:
- Reasoning (``<think>``) is removed first (extraction step 1); the Answer-line step is not
  applied — code is not an answer line.
- Which code: the complete fenced blocks (```` ``` ```` or ``~~~``) tagged ``python``, ``py``,
  ``python3`` or untagged are the candidates (all complete blocks if none is); the *last*
  candidate defining ``def <entry point>(`` wins, else the last candidate. With no complete
  block, fence markers are stripped (extraction step 2: an unclosed fence from a truncated
  reply) and the whole remaining text is the code.
- The code runs in :mod:`stages.scoring.sandbox` as module ``solution``, followed by the row's
  ``tests`` in the same namespace. Correct when the tests run to the end: exit status 0 and
  the sandbox's post-test nonce received. An exception, a timeout, a resource limit, a
  ``sys.exit()`` before the tests, or anything the sandbox refuses is simply wrong.
- Code that does not compile is wrong, reported with its error like any other failure.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.scoring.extract import strip_fences, strip_reasoning
from stages.scoring.sandbox import Limits, run_python
from stages.scoring.verdict import Verdict, binary

NAME = "code_exec"
LIMITS = Limits()
_PYTHON_TAGS = {"", "python", "py", "python3"}
_BLOCK = re.compile(
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+#.-]*)[^\n]*\n"
    r"(?P<body>.*?)^[ \t]*(?P=fence)[ \t]*$",
    re.M | re.S,
)


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


def _failure_line(stderr: str) -> str:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return lines[-1].strip()[:160] if lines else "no error output"


def score(row: dict[str, Any], response: dict[str, Any], dataset_dir: Path) -> Verdict:
    """Run the model's code with the row's tests in the sandbox; passing tests = correct."""
    tests = row.get("tests")
    if not isinstance(tests, str) or not tests.strip():
        raise AtlasError(f"row {row.get('id')}: tests: a code_exec row needs assert statements")
    code = extract_code(response.get("output") or "", str(row["answer"]))
    result = run_python(code, tests, LIMITS)
    # ``seconds`` is a measurement: ``atlas score`` moves it to timings.jsonl; ``why`` stays free
    # of it so that scoring the same output twice gives the same bytes.
    extras = {"seconds": round(result.seconds, 3), "isolation": result.isolation}
    if result.passed:
        return binary(NAME, True, code, "tests passed", **extras)
    if result.timed_out:
        why = f"killed after the {LIMITS.wall_s:g} s wall-clock limit"
    elif result.exit_code == 0:
        why = "exited before the tests completed"
    else:
        why = f"exit status {result.exit_code}: {_failure_line(result.stderr_tail)}"
    return binary(NAME, False, code, why, **extras)
