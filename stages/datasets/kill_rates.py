"""Kill rate per code task (issue 30): how many of one row's mutants its hidden tests killed, and
what its generator counted about them.

eval-code-v4 rows carry ``meta.mutation``: the hand-written and generic mutants they keep in
``probes.mutants`` (the ones the check runs), the generic mutants no input of the generator's
1,000-input pool tells from the reference (*equivalent*, listed with their code), the ones that
fail a hidden test only by running past any time limit (*timeouts*, listed by name: the check
does not wait for them), and the hidden tests by origin. The check reports those counts beside
the rate it measured itself; older rows have only the rate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class TaskKills:
    """One task's mutants and how many its hidden tests killed; ``declared`` is what its
    generator counted (``declared_counts``), or None for rows without ``meta.mutation``."""

    mutants: int = 0
    killed: int = 0
    declared: dict[str, int] | None = None

    @property
    def rate(self) -> float | None:
        return self.killed / self.mutants if self.mutants else None

    def metrics(self) -> dict[str, Any]:
        rate = None if self.rate is None else round(self.rate, 4)
        return {"mutants": self.mutants, "killed": self.killed, "kill_rate": rate,
                **(self.declared or {})}  # fmt: skip


def declared_counts(row: dict[str, Any]) -> dict[str, int] | None:
    """The counts of a row's ``meta.mutation`` block, or None without one."""
    block = (row.get("meta") or {}).get("mutation")
    if not isinstance(block, dict):
        return None
    tests = block.get("tests")
    return {
        "hand_written": int(block.get("hand_written", 0)),
        "generic": int(block.get("generic", 0)),
        "equivalent": len(block.get("equivalent") or []),
        "timeouts": len(block.get("timeouts") or []),
        "tests": sum(int(n) for n in tests.values()) if isinstance(tests, dict) else 0,
    }


def summary(dataset_id: str, block: dict[str, Any]) -> str | None:
    """One line per dataset from its ``mutation`` metrics block: the tasks at 100 %, the lowest
    rate and the declared totals (None for a dataset without per-task rates)."""
    tasks = block.get("tasks") or {}
    if not tasks:
        return None
    full = sum(1 for t in tasks.values() if t["kill_rate"] == 1)
    low = block["min_kill_rate"]
    line = (f"{dataset_id}: kill rate 100 % in {full} of {len(tasks)} tasks (lowest "
            f"{'-' if low is None else f'{100 * low:.1f} %'}), {block['killed']}/"
            f"{block['mutants']} mutants killed")  # fmt: skip
    totals = block.get("totals") or {}
    if totals:
        tests = [t["tests"] for t in tasks.values() if "tests" in t]
        line += (f" ({totals['hand_written']} hand-written, {totals['generic']} generic); "
                 f"{totals['equivalent']} equivalent and {totals['timeouts']} time-outs listed "
                 f"apart; {min(tests)}-{max(tests)} hidden tests a task")  # fmt: skip
    below = block.get("tasks_below_100") or []
    return line + (f"; under 100 %: {', '.join(below)}" if below else "")


def task_lines(block: dict[str, Any]) -> list[str]:
    """One line per task: its rate and its declared counts."""
    out = []
    for row_id, t in (block.get("tasks") or {}).items():
        rate = "-" if t["kill_rate"] is None else f"{100 * t['kill_rate']:.1f} %"
        extra = ""
        if "generic" in t:
            extra = (f" ({t['hand_written']} hand-written, {t['generic']} generic; "
                     f"{t['equivalent']} equivalent, {t['timeouts']} time-outs; "
                     f"{t['tests']} hidden tests)")  # fmt: skip
        out.append(f"  {row_id}: {t['killed']}/{t['mutants']} killed, {rate}{extra}")
    return out
