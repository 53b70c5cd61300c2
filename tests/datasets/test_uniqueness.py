"""Uniqueness per option row (issue 19): a generator's own rule, re-run by the check in a child
process, must mark exactly the gold; and it never sees the answer."""

from __future__ import annotations

import json
from pathlib import Path

from stages.datasets.uniqueness import exposes_rule, uniqueness
from tests.datasets import planted

RULE = '''
def option_verdicts(row):
    assert "answer" not in row and "probes" not in row
    asked = int(row["prompt"].split()[1].rstrip(":"))
    return [int(c) % asked == 0 for c in row["choices"]]
'''


def _rows() -> list[dict[str, object]]:
    return [
        planted.mc("u-1", "div", "Multiple 7: which option?", ["14", "15", "16"], 0),
        planted.mc("u-2", "div", "Multiple 5: which option?", ["12", "10", "20"], 1),
        planted.mc("u-3", "div", "Multiple 3: which option?", ["4", "5", "9"], 2),
    ]


def test_the_generators_rule_must_mark_exactly_the_gold(tmp_path: Path) -> None:
    generator = tmp_path / "eval-div-v1.py"
    generator.write_text(RULE, encoding="utf-8")
    rows = _rows()
    rows[2]["probes"] = {"option_ok": [False, False, True]}
    rows_file = tmp_path / "rows.jsonl"
    rows_file.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert exposes_rule(generator)
    proved, problems = uniqueness(rows, generator, rows_file, tmp_path)
    # 10 and 20 are both multiples of 5: the rule finds two right options in u-2
    assert proved == 3
    assert problems == ["u-2: the generator's rule marks ['B', 'C'] right, the gold is B"]


def test_without_the_hook_option_ok_is_what_is_proved(tmp_path: Path) -> None:
    rows = _rows()
    rows[0]["probes"] = {"option_ok": [True, False, False]}
    generator = tmp_path / "eval-div-v1.py"
    generator.write_text("SEED = 1\n", encoding="utf-8")
    assert not exposes_rule(generator)
    assert uniqueness(rows, generator, tmp_path / "rows.jsonl", tmp_path) == (1, [])


def test_a_rule_that_crashes_is_reported(tmp_path: Path) -> None:
    generator = tmp_path / "eval-div-v1.py"
    generator.write_text("def option_verdicts(row):\n    raise KeyError('meta')\n", "utf-8")
    rows = _rows()
    rows_file = tmp_path / "rows.jsonl"
    rows_file.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert uniqueness(rows, generator, rows_file, tmp_path) == (
        0, ["eval-div-v1.py: option_verdicts failed: KeyError: 'meta'"]
    )  # fmt: skip
