"""eval-code-v1: every committed reference passes its tests and every wrong solution fails.

All rows run in one isolated child interpreter (``python -I -S``), each solution in a fresh
namespace; hand-checked expectations pin a few families' semantics.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "datasets" / "eval-code-v1"
ROWS = [json.loads(line) for line in (DATA / "rows.jsonl").read_text("utf-8").splitlines()]
DRIVER = """
import json, sys
results = {}
for row in json.load(sys.stdin):
    outcome = []
    for key in ("reference_solution", "wrong_solution"):
        try:
            exec(row["meta"][key] + "\\n" + row["tests"], {"__name__": "solution"})
            outcome.append(True)
        except Exception:
            outcome.append(False)
    results[row["id"]] = outcome
print(json.dumps(results))
"""


def test_mix_is_as_intended() -> None:
    card = json.loads((DATA / "dataset.json").read_text("utf-8"))
    assert card["rows"] == len(ROWS) == 120
    assert Counter(r["category"] for r in ROWS) == {
        "strings": 30,
        "lists": 30,
        "number_theory": 30,
        "parsing": 30,
    }
    assert Counter(r["difficulty"] for r in ROWS) == {"easy": 40, "medium": 40, "hard": 40}
    assert len({r["prompt"] for r in ROWS}) == len(ROWS)
    for row in ROWS:
        assert row["scorer"] == "code_exec"
        assert f"    {row['meta']['signature']}\n" in row["prompt"]
        assert "```python" in row["prompt"]
        lines = row["tests"].splitlines()
        assert len(lines) >= 4 and all(x.startswith(f"assert {row['answer']}(") for x in lines)


def test_references_pass_and_wrong_solutions_fail() -> None:
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", DRIVER],
        input=json.dumps(ROWS),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    results = json.loads(proc.stdout)
    assert {rid: outcome for rid, outcome in results.items() if outcome != [True, False]} == {}
    assert len(results) == 120


def test_hand_checked_expectations() -> None:
    by_id = {r["id"]: r for r in ROWS}
    # code-0001: shift lowercase letters forward by 3 with wrap-around.
    assert "assert shift_letters('xyz') == 'abc'" in by_id["code-0001"]["tests"]
    assert "forward by 3 places" in by_id["code-0001"]["prompt"]
    # eval_expression variant 0: '*' binds tighter; 2*3 + 4 - 1*2 = 8; 10 - 3 - 2 = 5.
    row = next(r for r in ROWS if r["answer"] == "eval_expression")
    assert "'*' binds tighter than '+' and '-'" in row["prompt"]
    assert "assert eval_expression('2 * 3 + 4 - 1 * 2') == 8" in row["tests"]
    assert "assert eval_expression('10 - 3 - 2') == 5" in row["tests"]
    # split_quoted: a doubled quote inside a quoted field is one quote character.
    row = next(r for r in ROWS if r["answer"] == "split_quoted")
    assert """== ['x', 'say "hi"',""" in row["tests"]
