"""eval-longgen-integrity-v1: 36 rows of the stated shape, identifiers parsed from the source,
and the ``splice`` scorer (stages/scoring/splice.py, via ``score_row``) telling clean
generations from ones with a welded identifier or number made from the row's own context."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from stages.scoring.registry import score_row

REPO = Path(__file__).resolve().parents[2]
DATASET = REPO / "datasets" / "eval-longgen-integrity-v1"
ROWS = [json.loads(line) for line in (DATASET / "rows.jsonl").read_text("utf-8").splitlines()]
sys.path.insert(0, str(REPO / "_gen"))
from families.longgen.jsproject import parse_identifiers, parse_numbers  # noqa: E402

SNIPPET = """\
// File: src/a.js
import { other } from './b.js';
/** Uses `notDefined` in a comment. */
export const LIMIT_MAX = 40;
export function sumWeights(rows, factor) {
  let runningTotal = 0;
  for (const row of rows) {
    runningTotal += row.weight * factor + other('skip me', "andMe");
  }
  return rows.map((entry) => ({ id: entry.code, ratio: entry.weight / 2.5 }));
}
export class Ledger {
  constructor(capacity) {
    this.capacity = capacity;
  }

  get openCount() {
    return 3;
  }
}
"""


def _project(row: dict[str, Any]) -> str:
    prompt = row["prompt"]
    return prompt[prompt.index("\n\n// File: ") + 2 : prompt.index("\nTask: ")]


def test_parser_finds_exactly_the_definitions() -> None:
    assert parse_identifiers(SNIPPET) == sorted(
        [
            "LIMIT_MAX",
            "sumWeights",
            "rows",
            "factor",
            "runningTotal",
            "row",
            "entry",
            "id",
            "ratio",
            "Ledger",
            "capacity",
            "openCount",
        ]
    )
    assert parse_numbers(SNIPPET) == ["0", "2.5", "3", "40"]


def test_shape_of_the_rows() -> None:
    assert len(ROWS) == 36
    assert [r["difficulty"] for r in ROWS] == ["easy"] * 12 + ["medium"] * 12 + ["hard"] * 12
    assert {(r["difficulty"], r["meta"]["target_output_tokens"]) for r in ROWS} == {
        ("easy", 1200),
        ("medium", 1800),
        ("hard", 2400),
    }
    assert {(r["answer"], r["scorer"]) for r in ROWS} == {("clean", "splice")}
    assert len(Counter(r["category"] for r in ROWS)) >= 8


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_context_identifiers_come_from_the_project_source(row: dict[str, Any]) -> None:
    project = _project(row)
    assert 20_000 <= len(project) <= 25_000 and len(project) == row["meta"]["project_chars"]
    assert row["meta"]["context_identifiers"] == parse_identifiers(project)
    exported = [n for names in row["meta"]["exports"].values() for n in names]
    assert len(exported) >= 6 and set(exported) <= set(row["meta"]["context_identifiers"])
    for name in exported:
        assert re.search(rf"export (?:const|function|class) {name}\b", project), name
    low, high = row["meta"]["line_range"]
    assert f"between {low} and {high} lines" in row["prompt"]
    assert "import at least 6 named exports" in row["prompt"]


def _clean_module(row: dict[str, Any]) -> str:
    """A plausible generation: six imports used correctly, new names declared locally."""
    chosen = [(p, n) for p, names in row["meta"]["exports"].items() for n in names[:2]][:6]
    lines = []
    for path in dict.fromkeys(p for p, _ in chosen):
        names = ", ".join(n for p, n in chosen if p == path)
        lines.append(f"import {{ {names} }} from './{path.removeprefix('src/')}';")
    lines.append("")
    for k, (_, name) in enumerate(chosen):
        if name.isupper() or "_" in name:
            use = f"return Number({name}) * {k + 2};"
        elif name[0].isupper():
            use = f"return new {name}({k + 10}, 'digest');"
        else:
            use = f"return {name}(records, {k + 1});"
        lines += [
            "/**",
            f" * Step {k} of the digest.",
            " */",
            f"export function digestStep{k}(records) {{",
            f"  {use}",
            "}",
            "",
        ]
    for k in range(24):
        lines += [
            f"function tally{k}(values) {{",
            "  let total = 0;",
            "  for (const value of values) {",
            f"    total += value * {k + 3};",
            "  }",
            "  return total;",
            "}",
            "",
        ]
    return "\n".join(lines)


def _welded_identifier(row: dict[str, Any]) -> str:
    context = row["meta"]["context_identifiers"]
    head = next(n for n in context if re.fullmatch(r"[a-z]+[A-Z]\w+", n) and len(n) > 8)
    tail = next(n for n in context if re.fullmatch(r"[a-z]+[A-Z]\w+", n) and n != head)
    assert head + tail not in context and head + tail not in row["prompt"]
    return head + tail


def _welded_number(row: dict[str, Any]) -> str:
    numbers = [n for n in row["meta"]["context_numbers"] if re.fullmatch(r"[1-9]\d{1,3}", n)]
    for a in numbers:
        for b in numbers:
            if len(a + b) >= 5 and not re.search(rf"(?<![\d.]){a + b}(?![\d.])", row["prompt"]):
                return a + b
    raise AssertionError(f"{row['id']}: no two constants to weld")


@pytest.mark.parametrize("row", [ROWS[0], ROWS[17], ROWS[35]], ids=lambda r: r["id"])
def test_splice_scorer_separates_clean_from_spliced(row: dict[str, Any]) -> None:
    clean = _clean_module(row)
    assert 150 <= clean.count("\n") + 1 <= 290

    def verdict(text: str) -> Any:
        return score_row(row, {"output": text, "error": None}, DATASET)

    ok = verdict(clean)
    assert (ok.correct, ok.extracted) == (True, "clean"), ok.why
    word = _welded_identifier(row)
    bad_name = verdict(
        clean.replace(
            "  return total;\n}\n\nfunction tally5",
            f"  return {word}(total);\n}}\n\nfunction tally5",
            1,
        )
    )
    assert (bad_name.correct, bad_name.extracted) == (False, "spliced"), bad_name.why
    number = _welded_number(row)
    bad_number = verdict(clean.replace("total += value * 9;", f"total += value * {number};", 1))
    assert (bad_number.correct, bad_number.extracted) == (False, "spliced"), bad_number.why
    fenced = verdict("```javascript\n" + clean + "\n```")
    assert fenced.correct is True, fenced.why
