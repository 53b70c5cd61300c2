"""Test strength for code, proved per row (issue 19): mutation testing, as EvalPlus strengthened
HumanEval (Liu et al. 2023).

For every ``code_exec`` row with a reference solution — ``probes.reference`` and
``probes.mutants``, or, in datasets published before probes, ``meta.reference_solution`` and its
one ``meta.wrong_solution`` — each program is scored as a model's reply by the row's own scorer
(``stages.scoring.code_exec.score``: the sandbox, the hidden tests, the parent-side verdict):

* the reference must pass every hidden test;
* every mutant must fail at least one (a *surviving* mutant is a hidden-test suite that a
  plausible wrong solution passes);
* no hidden test may be the prompt's example: ``meta.example`` (``call``, ``expected``) equal to
  a hidden ``assert call == expected`` (calls compared as parsed Python, values as literals).

Without a sandbox the programs are not run (it fails closed, issue 24): the rows are reported
unproved, which fails a dataset being published. The mutation score is killed mutants / mutants.
Programs run :data:`WORKERS` at a time; a verdict the program decided is kept in
:mod:`stages.datasets.verdict_cache` and not run again while nothing it depends on changes.

Per task (issue 30): each row with ``probes.mutants`` gets its own kill rate, killed / mutants
(:mod:`stages.datasets.kill_rates`), and a task under 100 % is a problem of its own; a row with
eval-code-v4's ``meta.mutation`` has its generator's counts reported beside it, and ``probes``
must hold exactly the mutants they count.
"""

from __future__ import annotations

import ast
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stages.datasets import verdict_cache
from stages.datasets.kill_rates import TaskKills, declared_counts
from stages.scoring.code_exec import score
from stages.scoring.sandbox import SandboxError

WORKERS = 2


@dataclass
class Mutation:
    """What the reference solutions and mutants proved over one dataset."""

    rows: int = 0
    source: str = ""
    """``probes`` or ``meta`` (the older one-wrong-solution fields)."""
    references_failing: list[str] = field(default_factory=list)
    mutants: int = 0
    killed: int = 0
    survivors: list[str] = field(default_factory=list)
    example_tests: list[str] = field(default_factory=list)
    unavailable: str | None = None
    """Why the programs could not run (no sandbox: it fails closed, issue 24), or None."""
    tasks: dict[str, TaskKills] = field(default_factory=dict)
    """Row id -> its kill rate, for rows with ``probes.mutants``."""

    @property
    def min_rate(self) -> float | None:
        """The lowest kill rate of a task (None without tasks)."""
        rates = [t.rate for t in self.tasks.values() if t.rate is not None]
        return min(rates) if rates else None

    def totals(self) -> dict[str, int]:
        """The declared counts (``declared_counts``) added up over the tasks that have them."""
        out: dict[str, int] = {}
        for task in self.tasks.values():
            for key, value in (task.declared or {}).items():
                out[key] = out.get(key, 0) + value
        return out

    @property
    def score(self) -> float | None:
        """Killed / mutants (None without mutants)."""
        return self.killed / self.mutants if self.mutants else None

    def problems(self) -> list[str]:
        """Every failing reference, surviving mutant and example shown as a hidden test."""
        out = [f"{r}: the reference solution fails the hidden tests" for r in
               self.references_failing]  # fmt: skip
        out += [f"{s}: survives every hidden test" for s in self.survivors]
        for row_id, task in self.tasks.items():
            if task.rate is not None and task.rate < 1:
                out.append(f"{row_id}: kill rate {task.killed}/{task.mutants} "
                           f"({100 * task.rate:.1f} %); every task needs 100 %")  # fmt: skip
            declared = task.declared
            if declared and declared["hand_written"] + declared["generic"] != task.mutants:
                out.append(f"{row_id}: meta.mutation counts "
                           f"{declared['hand_written'] + declared['generic']} mutants, "
                           f"probes hold {task.mutants}")  # fmt: skip
        out += [f"{r}: a hidden test is the prompt's example" for r in self.example_tests]
        if self.unavailable:
            out.append(f"{self.rows} code rows unproved: {self.unavailable}")
        return out

    def metrics(self) -> dict[str, Any]:
        """The dataset's ``mutation`` block of ``metrics/audit.json``."""
        return {
            "rows": self.rows, "source": self.source or None, "mutants": self.mutants,
            "killed": self.killed,
            "score": None if self.score is None else round(self.score, 4),
            "references_failing": self.references_failing, "survivors": self.survivors,
            "example_tests": self.example_tests, "unavailable": self.unavailable,
            **({"min_kill_rate": None if self.min_rate is None else round(self.min_rate, 4),
                "tasks_below_100": [k for k, t in self.tasks.items() if (t.rate or 0) < 1],
                "totals": self.totals(),
                "tasks": {k: t.metrics() for k, t in self.tasks.items()}}
               if self.tasks else {}),
        }  # fmt: skip


def _programs(row: dict[str, Any]) -> tuple[str, str | None, list[tuple[str, str]]]:
    probes = row.get("probes") or {}
    if probes.get("reference"):
        mutants = [(m["name"], m["code"]) for m in probes.get("mutants") or []]
        return "probes", probes["reference"], mutants
    meta = row.get("meta") or {}
    wrong = [("meta.wrong_solution", meta["wrong_solution"])] if meta.get("wrong_solution") else []
    return "meta", meta.get("reference_solution"), wrong


def _parsed(source: str) -> str | None:
    try:
        return ast.dump(ast.parse(source, mode="eval").body)
    except SyntaxError:
        return None


def example_is_tested(row: dict[str, Any]) -> bool:
    """Is ``meta.example`` one of the row's hidden asserts (module rules)?"""
    example = (row.get("meta") or {}).get("example")
    if not isinstance(example, dict) or "call" not in example:
        return False
    call = _parsed(str(example["call"]))
    try:
        tree = ast.parse(row.get("tests") or "")
    except SyntaxError:
        return False
    for node in tree.body:
        test = node.test if isinstance(node, ast.Assert) else None
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
            try:
                expected = ast.literal_eval(test.comparators[0])
            except ValueError:
                continue
            if ast.dump(test.left) == call and expected == example.get("expected"):
                return True
    return False


def _passes(row: dict[str, Any], code: str) -> bool:
    """Does ``code`` (bare, or already a reply with its own fence) pass the row's tests?"""
    text = code if "```" in code or "~~~" in code else f"```python\n{code}\n```"
    known = verdict_cache.stored(row, text)
    if known is not None:
        return known
    verdict = score(row, {"output": text, "error": None}, Path("."))
    verdict_cache.store(row, text, bool(verdict.correct), verdict.why)
    return bool(verdict.correct)


def mutation(rows: list[dict[str, Any]]) -> Mutation:
    """Run every code row's reference and mutants (module rules)."""
    result = Mutation()
    jobs: list[tuple[dict[str, Any], str, str | None, str]] = []
    for row in rows:
        if row["scorer"] != "code_exec":
            continue
        if example_is_tested(row):
            result.example_tests.append(row["id"])
        source, reference, mutants = _programs(row)
        if reference is None:
            continue
        result.rows += 1
        result.source = source if result.source in ("", source) else "probes and meta"
        jobs.append((row, reference, None, source))
        jobs += [(row, code, name, source) for name, code in mutants]
    try:
        with ThreadPoolExecutor(max_workers=WORKERS) as pool:
            passed = list(pool.map(lambda job: _passes(job[0], job[1]), jobs))
    except SandboxError as exc:
        result.unavailable = str(exc)
        return result
    for (row, _, name, source), ok in zip(jobs, passed, strict=True):
        if name is None:
            if not ok:
                result.references_failing.append(row["id"])
            continue
        result.mutants += 1
        result.killed += not ok
        if ok:
            result.survivors.append(f"{row['id']} mutant {name!r}")
        if source == "probes":
            task = result.tasks.setdefault(row["id"], TaskKills(declared=declared_counts(row)))
            task.mutants += 1
            task.killed += not ok
    return result
