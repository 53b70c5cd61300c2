"""Scheduling family of eval-reasoning-v3: project length, slack, critical tasks, meeting slots.

Projects are random task graphs (every prerequisite listed before its task). Questions: the
shortest project length with unlimited workers or with two (numeric, and mc among four
consecutive day counts with the right one at a drawn place), which task can start later without
delaying the project (mc: one with enough slack among three without), which task would delay it
if it took a day longer (mc: one critical among three with slack), and the earliest or latest
start of a meeting that fits everyone's busy periods (exact, and mc among other plausible slot
starts).

Answers are computed by forward passes and a search over task orders and worker assignments; the
proof recomputes them another way: longest prerequisite chains, every split of the tasks between
two workers with every sequence on each, late-start backward passes, and a scan of merged busy
intervals instead of minutes.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

CATEGORY = "scheduling"
FORMS = ("numeric", "mc", "exact", "mc", "numeric", "mc", "exact", "mc")
TASKS = "ABCDEFGHIJ"
PEOPLE = ("Abel", "Bianca", "Casimir", "Delia", "Emil", "Flora", "Gustav", "Hilde")
Item = dict[str, Any]


def finish_times(durations: list[int], prereqs: list[list[int]]) -> list[int]:
    """Earliest finish of each task with unlimited workers (prerequisites come first)."""
    done: list[int] = []
    for d, pre in zip(durations, prereqs, strict=True):
        done.append(max((done[p] for p in pre), default=0) + d)
    return done


def two_worker_makespan(durations: list[int], prereqs: list[list[int]]) -> int:
    """Optimal length with two workers: every precedence-respecting order, every assignment,
    each task started as early as its worker and prerequisites allow."""
    n, best = len(durations), sum(durations)
    for order in itertools.permutations(range(n)):
        rank = {t: i for i, t in enumerate(order)}
        if any(rank[p] > rank[t] for t in range(n) for p in prereqs[t]):
            continue
        for mask in range(1 << (n - 1)):  # task order[0] on worker 0 (symmetry)
            free, end = [0, 0], [0] * n
            for i, t in enumerate(order):
                w = (mask >> (i - 1)) & 1 if i else 0
                end[t] = max([free[w], *(end[p] for p in prereqs[t])]) + durations[t]
                free[w] = end[t]
            best = min(best, max(end))
    return best


def task_lines(durations: list[int], prereqs: list[list[int]]) -> str:
    lines = []
    for i, (d, pre) in enumerate(zip(durations, prereqs, strict=True)):
        names = [TASKS[p] for p in pre]
        after = (
            "has no prerequisites"
            if not pre
            else "can start only after "
            + " and ".join(names)
            + (" is" if len(pre) == 1 else " are")
            + " finished"
        )
        lines.append(f"Task {TASKS[i]} takes {d} day{'s' if d > 1 else ''} and {after}.")
    return "\n".join(lines)


def random_project(rng: random.Random, n: int) -> tuple[list[int], list[list[int]]]:
    durations = [rng.randint(1, 9) for _ in range(n)]
    prereqs = [
        sorted(rng.sample(range(i), rng.randint(1, min(2, i)))) if i and rng.random() < 0.8 else []
        for i in range(n)
    ]
    return durations, prereqs


def slack_of(durations: list[int], prereqs: list[list[int]], task: int, extra: int) -> bool:
    """Can ``task`` take ``extra`` more days without the project taking longer?"""
    longer = [d + extra * (i == task) for i, d in enumerate(durations)]
    return max(finish_times(longer, prereqs)) == max(finish_times(durations, prereqs))


def _intro(durations: list[int], prereqs: list[list[int]], rule: str) -> str:
    return (
        f"A project consists of these tasks; a task can start only when its prerequisites "
        f"are finished. {rule}\n\n{task_lines(durations, prereqs)}\n\n"
    )


def _project(rng: random.Random, level: int, form: int) -> Item | None:
    n = (5, 6, 6)[level]
    durations, prereqs = random_project(rng, n)
    meta: dict[str, Any] = {"kind": "project", "durations": durations, "prereqs": prereqs}
    unlimited = "Any number of tasks can run at the same time."
    if form in (0, 7):
        value, rule = max(finish_times(durations, prereqs)), unlimited
        if level == 2:
            rule = (
                "Only two workers are available: each task needs one worker for its whole "
                "duration, a worker does one task at a time, and tasks cannot be split."
            )
            easy, value = value, two_worker_makespan(durations, prereqs)
            if value in (easy, -(-sum(durations) // 2)):
                return None
        meta.update(ask="length", workers=2 if level == 2 else None)
        q = _intro(durations, prereqs, rule) + (
            "What is the smallest number of days needed to finish the whole project?"
        )
        if form == 0:
            return {"question": q, "scorer": "numeric", "answer": str(value), "meta": meta}
        start = value - rng.randrange(4)
        return {
            "question": q,
            "scorer": "mc",
            "correct": str(value),
            "distractors": [str(v) for v in range(start, start + 4) if v != value],
            "meta": meta,
        }
    if form == 4:  # earliest start of one task
        task = rng.randrange(1, n)
        start = finish_times(durations, prereqs)[task] - durations[task]
        if start == 0:
            return None
        meta.update(ask="start", task=task)
        q = _intro(durations, prereqs, unlimited) + (
            f"Counting the project's first day as day 0, on which day can task {TASKS[task]} "
            f"start at the earliest?"
        )
        return {"question": q, "scorer": "numeric", "answer": str(start), "meta": meta}
    extra = rng.randint(2, 4) if form == 1 else 1
    fits = [t for t in range(n) if slack_of(durations, prereqs, t, extra)]
    tight = [t for t in range(n) if t not in fits]
    right, wrong = (fits, tight) if form == 1 else (tight, fits)
    if not right or len(wrong) < 3:
        return None
    meta.update(ask="slack" if form == 1 else "critical", extra=extra)
    ask = (
        f"Which one of these tasks could start {extra} days later than its earliest possible "
        f"start without making the whole project take longer?"
        if form == 1
        else "Which one of these tasks would make the whole project take longer if it took one "
        "day more?"
    )
    options = [rng.choice(right), *rng.sample(wrong, 3)]
    return {
        "question": _intro(durations, prereqs, unlimited) + ask,
        "scorer": "mc",
        "correct": f"Task {TASKS[options[0]]}",
        "distractors": [f"Task {TASKS[t]}" for t in options[1:]],
        "meta": meta,
    }


def clock(value: int) -> str:
    return f"{value // 60:02d}:{value % 60:02d}"


def minutes(text: str) -> int:
    h, m = text.split(":")
    return int(h) * 60 + int(m)


def _meeting(rng: random.Random, level: int, form: int) -> Item | None:
    people = sorted(rng.sample(PEOPLE, level + 2))
    length = rng.choice((30, 45, 60, 75, 90))
    busy: dict[str, list[list[str]]] = {}
    for p in people:  # non-overlapping busy periods on a five-minute grid
        taken: list[tuple[int, int]] = []
        for _ in range(rng.randint(2, 4)):
            start = rng.randrange(540, 990, 5)
            end = min(1020, start + rng.choice((30, 45, 60, 90)))
            if all(end <= a or start >= b for a, b in taken):
                taken.append((start, end))
        busy[p] = [[clock(a), clock(b)] for a, b in sorted(taken)]
    gap = 15 if level == 2 else 0
    end_by = 1020 if level == 0 else rng.randrange(840, 1021, 15)
    blocked = [(minutes(a), minutes(b) + gap) for spans in busy.values() for a, b in spans]
    starts = [
        s
        for s in range(540, end_by - length + 1, 5)
        if all(s + length <= a or s >= b for a, b in blocked)
    ]
    latest = form == 6
    if len(starts) < 2 or starts[0] == 540 or starts[-1] == end_by - length:
        return None  # the trivial first or last slot would need no reasoning
    value = starts[-1] if latest else starts[0]
    lines = "\n".join(
        f"{p} is busy " + ", ".join(f"{a}-{b}" for a, b in busy[p]) + "." for p in people
    )
    rules = f"The meeting lasts {length} minutes and must end by {clock(end_by)}."
    if gap:
        rules += (
            " Each person also needs at least 15 free minutes between the end of any of "
            "their busy periods and the start of the meeting, when that busy period ends "
            "before the meeting starts."
        )
    which = "latest" if latest else "earliest"
    q = (
        f"{', '.join(people[:-1])} and {people[-1]} need a meeting on the same day, starting at a "
        f"whole multiple of five minutes. Everyone is free from 09:00 except when busy (busy "
        f"periods include their start time and end at their end time, so a meeting may start "
        f"exactly when a busy period ends).\n\n{lines}\n\n{rules} What is the {which} time the "
        f"meeting can start? Give the time in 24-hour HH:MM format."
    )
    meta = {
        "kind": "meeting",
        "busy": busy,
        "length": length,
        "end_by": clock(end_by),
        "gap": gap,
        "which": which,
    }
    if FORMS[form] == "exact":
        variants = [clock(value), clock(value).lstrip("0")] if value < 600 else [clock(value)]
        return {"question": q, "scorer": "exact", "answer": variants, "meta": meta}
    ends = sorted({b for _, b in blocked if 540 < b < end_by and b != value} | {540})
    near = [e for e in ends if e not in starts][:3]  # slot starts that clash with someone
    if len(near) < 3:
        return None
    return {
        "question": q,
        "scorer": "mc",
        "correct": clock(value),
        "distractors": [clock(v) for v in near],
        "meta": meta,
    }


def build(rng: random.Random, level: int, form: int) -> Item:
    while True:
        item = _meeting(rng, level, form) if form in (2, 5, 6) else _project(rng, level, form)
        if item is not None:
            return item


# ---- proof --------------------------------------------------------------------------------------
def chain_length(durations: list[int], prereqs: list[list[int]], task: int) -> int:
    """Length of the heaviest prerequisite chain ending with ``task``."""
    return durations[task] + max(
        (chain_length(durations, prereqs, p) for p in prereqs[task]), default=0
    )


def project_length(durations: list[int], prereqs: list[list[int]]) -> int:
    """One worker per task: the heaviest chain of prerequisites."""
    return max(chain_length(durations, prereqs, t) for t in range(len(durations)))


def two_workers_by_sequences(durations: list[int], prereqs: list[list[int]]) -> int:
    """Every split of the tasks between two workers and every sequence on each, timed as a
    longest path (combinations that contradict the prerequisites are skipped)."""
    n, best = len(durations), sum(durations)
    for mask in range(1 << n):
        mine = [t for t in range(n) if mask >> t & 1]
        theirs = [t for t in range(n) if not mask >> t & 1]
        for seq_a in itertools.permutations(mine):
            for seq_b in itertools.permutations(theirs):
                before = {t: set(prereqs[t]) for t in range(n)}
                for seq in (seq_a, seq_b):
                    for x, y in itertools.pairwise(seq):
                        before[y].add(x)
                end: dict[int, int] = {}
                while len(end) < n:
                    ready = [t for t in range(n) if t not in end and before[t] <= end.keys()]
                    if not ready:
                        break
                    for t in ready:
                        end[t] = max((end[p] for p in before[t]), default=0) + durations[t]
                if len(end) == n:
                    best = min(best, max(end.values()))
    return best


def _float(durations: list[int], prereqs: list[list[int]]) -> list[int]:
    """Total float of every task: latest start (backward pass) minus earliest start."""
    n = len(durations)
    finish = project_length(durations, prereqs)
    early = [chain_length(durations, prereqs, t) - durations[t] for t in range(n)]
    late = [finish - durations[t] for t in range(n)]
    for t in reversed(range(n)):
        for u in range(t + 1, n):
            if t in prereqs[u]:
                late[t] = min(late[t], late[u] - durations[t])
    return [late[t] - early[t] for t in range(n)]


def _slot(meta: dict[str, Any]) -> int:
    """Earliest or latest start: walk the merged busy intervals (plus the buffer)."""
    spans = sorted(
        (minutes(a), minutes(b) + meta["gap"]) for p in meta["busy"].values() for a, b in p
    )
    end_by, length = minutes(meta["end_by"]), meta["length"]
    free, start = [], 540
    for a, b in [(min(a, end_by), b) for a, b in spans] + [(end_by, end_by)]:
        if a - start >= length:
            free.append((start, a))
        start = max(start, b)
    first, last = free[0], free[-1]
    return first[0] if meta["which"] == "earliest" else (last[1] - length) // 5 * 5


def prove(row: dict[str, Any]) -> None:
    m = row["meta"]
    gold = row["answer"] if row["scorer"] != "mc" else row["choices"]["ABCD".index(row["answer"])]
    gold = gold[0] if isinstance(gold, list) else gold
    if m["kind"] == "meeting":
        assert gold == clock(_slot(m)), (row["id"], gold)
        return
    d, pre = m["durations"], m["prereqs"]
    if m["ask"] == "length":
        value = two_workers_by_sequences(d, pre) if m["workers"] else project_length(d, pre)
        assert gold == str(value), (row["id"], gold, value)
    elif m["ask"] == "start":
        assert gold == str(chain_length(d, pre, m["task"]) - d[m["task"]]), row["id"]
    else:
        floats = _float(d, pre)
        ok = [
            c
            for c in row["choices"]
            if (floats[TASKS.index(c[-1])] >= m["extra"]) == (m["ask"] == "slack")
        ]
        assert ok == [gold], (row["id"], ok)
