"""splice scorer: clean generations pass, welded identifiers and numbers are flagged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stages.io import iter_jsonl
from stages.scoring import splice
from stages.scoring.splice import declared_names, find_splices

CONTEXT = [
    "getUser", "configLoader", "formatCurrency", "parseInvoiceLine", "MAX_RETRIES",
    "user", "name", "config", "loader", "InvoiceStore", "buildIndex",
]  # fmt: skip
PROMPT = (
    "// project\nexport const MAX_RETRIES = 4096;\nexport const PAGE = 1024;\n"
    "export function getUser(id) { return { id, displayName: '' }; }\n"
    "Write a new module reportBuilder.js."
)
CLEAN = """import { getUser, configLoader, formatCurrency, MAX_RETRIES } from './core.js';
import { InvoiceStore, buildIndex } from './store.js';

// the username and filename are shown in the header
export function buildReport(userId, options = {}) {
  const user = getUser(userId);
  const store = new InvoiceStore(configLoader(options));
  const label = formatCurrency(user.total, { currency: 'EUR' });
  const getUserConfig = () => user.displayName;
  return { label, size: 4096, page: 1024, retries: MAX_RETRIES, username: user.name };
}

export const reportIndex = buildIndex([4096, 1024, 250000]);
"""


def _score(output: str, answer: str = "clean") -> Any:
    row = {"answer": answer, "prompt": PROMPT, "meta": {"context_identifiers": CONTEXT}}
    return splice.score(row, {"output": output, "error": None}, Path("."))


def test_clean_generation_is_correct() -> None:
    verdict = _score("```js\n" + CLEAN + "```\n")
    assert (verdict.correct, verdict.extracted, verdict.extras["splices"]) == (True, "clean", [])


def test_welded_identifier_is_flagged_with_its_line() -> None:
    verdict = _score(CLEAN.replace("getUser(userId)", "getUserconfigLoader(userId)"))
    assert verdict.correct is False
    assert verdict.extracted == "spliced"
    assert verdict.extras["splices"] == [
        {"token": "getUserconfigLoader", "parts": ["getUser", "configLoader"], "line": 6}
    ]


def test_two_compound_identifiers_welded() -> None:
    spliced = CLEAN.replace("new InvoiceStore(", "new InvoiceStorebuildIndex(")
    assert [s["parts"] for s in find_splices(spliced, CONTEXT, PROMPT)] == [
        ["InvoiceStore", "buildIndex"]
    ]


def test_welded_number_is_flagged() -> None:
    spliced = CLEAN.replace("size: 4096", "size: 40961024")
    assert find_splices(spliced, CONTEXT, PROMPT) == [
        {"token": "40961024", "parts": ["4096", "1024"], "line": 10}
    ]


def test_weld_with_a_name_the_generation_declares() -> None:
    spliced = CLEAN.replace("user.total", "userIdformatCurrency")
    assert find_splices(spliced, CONTEXT, PROMPT)[0]["parts"] == ["userId", "formatCurrency"]


def test_not_flagged_legit_compositions() -> None:
    # camelCase composition (case of the joint differs), English compounds of short simple
    # words, numbers present in the prompt, and a fresh 6-digit constant are all fine
    text = "const a = getUserConfig; // username filename\nconst b = 40961 + 250000 + 4096;\n"
    assert find_splices(text, CONTEXT, PROMPT) == []


def test_answer_line_inside_code_is_code() -> None:
    verdict = _score("const x = {\nanswer: getUserconfigLoader,\n};\n")
    assert verdict.extras["splices"][0]["token"] == "getUserconfigLoader"


def test_observation_compared_with_answer() -> None:
    spliced = CLEAN.replace("getUser(userId)", "getUserconfigLoader(userId)")
    assert _score(spliced, answer="spliced").correct is True
    assert _score(CLEAN, answer="spliced").correct is False


def test_declared_names() -> None:
    text = "const { a, b: c } = x;\nfunction f(p, q = 1) {}\nconst g = (r) => r;\nlet h;\n"
    assert declared_names(text) == {"a", "b", "c", "f", "p", "q", "g", "r", "h"}


def test_context_numbers_are_fragments() -> None:
    verdict = splice.score(
        {
            "answer": "clean",
            "prompt": "x",
            "meta": {"context_identifiers": [], "context_numbers": ["7.5", "512", "8080"]},
        },
        {"output": "const port = 8080512;", "error": None},
        Path("."),
    )
    assert verdict.extras["splices"] == [{"token": "8080512", "parts": ["8080", "512"], "line": 1}]


def test_real_longgen_projects_are_clean_for_other_rows() -> None:
    """Each project's source, scored as the generation of another row, has no finding."""
    rows_file = (
        Path(__file__).resolve().parents[2] / "datasets/eval-longgen-integrity-v1/rows.jsonl"
    )
    if not rows_file.exists():
        pytest.skip("eval-longgen-integrity-v1 not generated")
    rows = [row for _, row in iter_jsonl(rows_file)]
    for row, other in zip(rows, rows[1:] + rows[:1], strict=True):
        project = other["prompt"].split("\nTask:")[0]
        assert _score_row(row, project).extras["splices"] == [], (row["id"], other["id"])
        head, tail = row["meta"]["context_identifiers"][-2:]
        welded = _score_row(row, project + f"\nexport const x = {head}{tail}();\n")
        assert welded.extras["splices"][0]["parts"] == [head, tail], row["id"]


def _score_row(row: dict[str, Any], output: str) -> Any:
    return splice.score(row, {"output": output, "error": None}, Path("."))


def _complete(output: str, finish: str | None, line_range: list[int] | None) -> Any:
    meta: dict[str, Any] = {"context_identifiers": CONTEXT}
    if line_range is not None:
        meta["line_range"] = line_range
    row = {"answer": "clean", "prompt": PROMPT, "meta": meta}
    return splice.score(row, {"output": output, "finish_reason": finish}, Path("."))


def test_canned_answer_is_intact_but_not_complete() -> None:
    verdict = _complete("Answer: 42", "stop", [150, 190])
    assert verdict.correct is True  # the spec's intact share: no splice in one line
    assert (verdict.extras["complete"], verdict.extras["lines"]) == (False, 1)


@pytest.mark.parametrize(
    ("lines", "finish", "line_range", "complete"),
    [
        (150, "stop", [150, 190], True),  # the lower bound is enough
        (149, "stop", [150, 190], False),
        (200, "stop", [150, 190], True),  # longer than asked is still complete
        (160, "length", [150, 190], False),  # cut off at max_tokens
        (160, None, [150, 190], False),
        (3, "stop", None, True),  # no size asked for: the finish reason decides
    ],
)
def test_completeness_rule(
    lines: int, finish: str | None, line_range: list[int] | None, complete: bool
) -> None:
    body = "\n".join(f"export const value{i} = {i};" for i in range(lines))
    verdict = _complete(f"```js\n{body}\n```\n", finish, line_range)
    assert (verdict.correct, verdict.extras["complete"], verdict.extras["lines"]) == (
        True, complete, lines,
    )  # fmt: skip


def test_integrity_block_reports_both_shares() -> None:
    from stages.scoring.metrics import ScoredRecord, eval_metrics

    def rec(i: int, correct: bool, complete: bool, failed: str | None = None) -> ScoredRecord:
        extras = {"complete": complete} if failed is None else {}
        return ScoredRecord(
            id=f"g{i}", repeat=0, scorer="splice", correct=correct, score=float(correct),
            extracted="clean", why="", extras=extras, failed=failed, correct_flexible=correct,
        )  # fmt: skip

    records = [
        rec(1, True, True),
        rec(2, True, False),
        rec(3, False, True),
        rec(4, False, False, "timeout"),
    ]
    integrity = eval_metrics(records)["integrity"]
    assert integrity["intact"] == {"n": 4, "count": 2, "share": 0.5}
    assert integrity["intact_complete"] == {"n": 4, "count": 1, "share": 0.25}
