"""Uniqueness, proved per row for option rows (issue 19): exactly one option is right by the
row's own rule.

Two sources of the rule's verdicts, both required to mark exactly the gold:

* ``probes.option_ok`` — what the generator's rule said when it built the row (the schema
  already holds it to one true, at the gold letter);
* the generator's rule *re-run by the check*, when the generator module (``_gen/<id>.py``)
  defines ``option_verdicts(row) -> list[bool]``: the family's rule applied to each of
  ``row["choices"]`` from what the row states (prompt, choices, meta) — never from ``answer``
  or ``probes``. It runs in a child process (the generator's own imports, ``_gen/`` on its path,
  ``PYTHONHASHSEED=0``) over every mc row; a row it cannot judge may return ``None``. Its
  verdicts must equal ``probes.option_ok`` where the row has one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from stages.datasets.audit_text import labels

HOOK = "option_verdicts"
_CHILD = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("atlas_generator", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
out = {}
for line in open(sys.argv[2], encoding="utf-8"):
    row = json.loads(line)
    if row.get("scorer") == "mc":
        shown = {k: v for k, v in row.items() if k not in ("answer", "probes")}
        verdicts = module.option_verdicts(shown)
        out[row["id"]] = None if verdicts is None else [bool(v) for v in verdicts]
json.dump(out, sys.stdout)
"""


def exposes_rule(generator: Path) -> bool:
    """Does the generator module define the hook (a plain text search: nothing is imported)?"""
    return generator.is_file() and f"def {HOOK}(" in generator.read_text(encoding="utf-8")


def rerun(generator: Path, rows_file: Path, root: Path) -> dict[str, list[bool] | None] | str:
    """The hook's verdicts per mc row id, or the child's last error line."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(generator.resolve()), str(rows_file.resolve())],
        capture_output=True, text=True, cwd=root, env=env, timeout=600,
    )  # fmt: skip
    if proc.returncode != 0:
        return (proc.stderr.strip().splitlines() or ["no output"])[-1]
    found: dict[str, list[bool] | None] = json.loads(proc.stdout)
    return found


def _marked(verdicts: list[bool], row: dict[str, Any]) -> list[str]:
    return [x for x, ok in zip(labels(row), verdicts, strict=False) if ok]


def uniqueness(
    rows: list[dict[str, Any]], generator: Path | None, rows_file: Path, root: Path
) -> tuple[int, list[str]]:
    """``(rows proved, problems)``: option rows whose rule verdicts were checked, and every row
    where they do not mark exactly the gold (module rules)."""
    rerun_verdicts: dict[str, list[bool] | None] = {}
    problems: list[str] = []
    if generator is not None and exposes_rule(generator):
        found = rerun(generator, rows_file, root)
        if isinstance(found, str):
            return 0, [f"{generator.name}: {HOOK} failed: {found}"]
        rerun_verdicts = found
    proved = 0
    for row in rows:
        if row["scorer"] != "mc":
            continue
        stored = (row.get("probes") or {}).get("option_ok")
        again = rerun_verdicts.get(row["id"])
        if stored is None and again is None:
            continue
        proved += 1
        if again is not None:
            marked = _marked(again, row)
            if len(again) != len(row["choices"]) or marked != [row["answer"]]:
                problems.append(
                    f"{row['id']}: the generator's rule marks {marked or 'no option'} right, "
                    f"the gold is {row['answer']}"
                )
            elif stored is not None and list(stored) != again:
                problems.append(f"{row['id']}: probes.option_ok differs from the rule re-run")
    return proved, problems
