"""Scheduling family of eval-reasoning-v5: eval-reasoning-v3's projects and meetings with tasks
named by words, not letters (issue 30).

In eval-reasoning-v4 the tasks were A, B, C, ... so the slack and critical-task choice rows
offered "Task A", "Task E", ...: in reason4-0071 the right option C reads "Task A", and a model
answering "A" for Task A is marked wrong (the letter names option A). Here each project's tasks
get five-letter tree names (``NAMES``, all one length, so no option is the longest), drawn per
row, and the project prompt opens "This project" rather than "A project": no project row shows a
standalone capital letter A-H anywhere but in its option labels and the answer line's
"<letter>" (``label_letters``).

Named tasks let a reader count how often each is mentioned, and v3's options were drawn with no
eye on what a blind reader sees: pooled over forty fresh instances of eval-reasoning-v4, the
option with the fewest dependent tasks was the task with slack in 50 % of those rows, the
longest task the critical one in 50 %, the first-listed one in 44 % (chance 25 %). So the slack
and critical rows (``task_choice``) pick their four options among every valid set so that each
of three blind picks (fewest or most dependents, last or first listed, shortest or longest
duration) singles out the gold in a row exactly when a draw of probability 1/4 says so, and
misses it otherwise; the draw is made once per row, before any project is drawn again.

The other project rows are v3's (``schedule.build`` draws them first, from the same stream), the
names drawn after, so a length or start row of the same cell and seed asks the same project;
the meeting rows are v3's unchanged (their options are times). The proof reads the task lines
back from the prompt, checks them against the row's meta, recomputes the answer with v3's
proof (options named by word) and the three blind picks of a task row.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

from families.reasoning import schedule

CATEGORY = schedule.CATEGORY
FORMS = schedule.FORMS
NAMES = ("Alder", "Aspen", "Birch", "Cedar", "Hazel", "Holly", "Larch", "Maple", "Olive", "Rowan")
Item = dict[str, Any]
#: A capital letter A-H standing alone, as an option label would.
LABEL = re.compile(r"(?<![\w<])[A-H](?![\w>])")
TASK_LINE = re.compile(
    r"^Task (\w+) takes (\d+) days? and (?:has no prerequisites|can start only after "
    r"(.+) (?:is|are) finished)\.$"
)


def task_lines(durations: list[int], prereqs: list[list[int]], names: list[str]) -> str:
    """v3's task lines with task i called ``names[i]``."""
    lines = []
    for i, (d, pre) in enumerate(zip(durations, prereqs, strict=True)):
        after = "has no prerequisites"
        if pre:
            verb = " is" if len(pre) == 1 else " are"
            after = "can start only after " + " and ".join(names[p] for p in pre) + verb
            after += " finished"
        lines.append(f"Task {names[i]} takes {d} day{'s' if d > 1 else ''} and {after}.")
    return "\n".join(lines)


def _swap(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, (old, text)
    return text.replace(old, new)


def blind_picks(ask: str, durations: list[int], prereqs: list[list[int]], options: list[int]
                ) -> list[set[int]]:  # fmt: skip
    """The options (task indices) a reader who does not solve the project would pick: fewest
    dependents, last listed, shortest (slack); most dependents, first listed, longest
    (critical)."""
    pick = min if ask == "slack" else max
    dependents = [sum(t in pre for pre in prereqs) for t in range(len(durations))]
    later = [-t for t in range(len(durations))]  # slack: the last listed; critical: the first
    picks = []
    for value in (dependents, later, durations):
        best = pick(value[t] for t in options)
        picks.append({t for t in options if value[t] == best})
    return picks


def hits(picks: list[set[int]], gold: int) -> list[bool] | None:
    """Per blind pick, whether it singles out the gold; None when it ties the gold with another
    option (neither a clean hit nor a clean miss)."""
    out = []
    for pick in picks:
        if gold in pick and len(pick) > 1:
            return None
        out.append(gold in pick)
    return out


def task_choice(rng: random.Random, level: int, form: int, wanted: list[bool]) -> Item | None:
    """A slack (form 1) or critical (form 3) row of v3's kind whose options put each blind pick
    on the gold exactly as ``wanted`` says, or None when this project allows no such set."""
    n = (5, 6, 6)[level]
    durations, prereqs = schedule.random_project(rng, n)
    extra = rng.randint(2, 4) if form == 1 else 1
    fits = [t for t in range(n) if schedule.slack_of(durations, prereqs, t, extra)]
    right, wrong = (fits, [t for t in range(n) if t not in fits])
    if form == 3:
        right, wrong = wrong, right
    ask = "slack" if form == 1 else "critical"
    sets = [
        (gold, list(three))
        for gold in right
        for three in itertools.combinations(wrong, 3)
        if hits(blind_picks(ask, durations, prereqs, [gold, *three]), gold) == wanted
    ]
    if not sets:
        return None
    gold, three = rng.choice(sets)
    names = rng.sample(NAMES, n)
    question = (
        "Which one of these tasks could start "
        f"{extra} days later than its earliest possible start without making the whole project "
        "take longer?"
        if form == 1
        else "Which one of these tasks would make the whole project take longer if it took one "
        "day more?"
    )
    meta = {"kind": "project", "durations": durations, "prereqs": prereqs, "ask": ask}
    return {
        "question": intro(durations, prereqs, names) + question,
        "scorer": "mc",
        "correct": f"Task {names[gold]}",
        "distractors": [f"Task {names[t]}" for t in three],
        "meta": {**meta, "extra": extra, "names": names, "blind_hits": wanted},
    }


def intro(durations: list[int], prereqs: list[list[int]], names: list[str]) -> str:
    return (
        "This project consists of these tasks; a task can start only when its prerequisites "
        "are finished. Any number of tasks can run at the same time.\n\n"
        f"{task_lines(durations, prereqs, names)}\n\n"
    )


def build(rng: random.Random, level: int, form: int) -> Item:
    if form in (1, 3):
        wanted = [rng.random() < 0.25 for _ in range(3)]  # drawn once, before any redraw
        while True:
            item = task_choice(rng, level, form, wanted)
            if item is not None:
                return item
    item = schedule.build(rng, level, form)
    m = item["meta"]
    if m["kind"] != "project":
        return item
    letters = [schedule.TASKS[i] for i in range(len(m["durations"]))]
    names = rng.sample(NAMES, len(letters))
    q = _swap(item["question"], "A project consists", "This project consists")
    q = _swap(q, schedule.task_lines(m["durations"], m["prereqs"]), task_lines(
        m["durations"], m["prereqs"], names))  # fmt: skip
    if m["ask"] == "start":
        q = _swap(q, f"task {letters[m['task']]} start", f"task {names[m['task']]} start")
    return {**item, "question": q, "meta": {**m, "names": names}}


def label_letters(row: dict[str, Any]) -> list[str]:
    """Standalone capitals A-H in the row outside its option labels ("B. ") and answer line."""
    text = row["prompt"].split("\n\nWork it out")[0].split("\n\nThink it through")[0]
    text = re.sub(r"^[A-H]\. ", "", text, flags=re.M)
    answers = row["answer"] if row["scorer"] == "exact" else []
    return LABEL.findall(" ".join([text, *row.get("choices", []), *answers]))


def prompt_tasks(prompt: str) -> tuple[list[str], list[int], list[list[int]]]:
    """Names, durations and prerequisites as the prompt states them."""
    found = [TASK_LINE.match(line) for line in prompt.split("\n")]
    tasks = [(t[1], int(t[2]), t[3]) for t in found if t]
    names = [name for name, _, _ in tasks]
    prereqs = [
        [names.index(p) for p in after.split(" and ")] if after else [] for *_, after in tasks
    ]
    return names, [d for _, d, _ in tasks], prereqs


def prove(row: dict[str, Any]) -> None:
    m = row["meta"]
    if m["kind"] != "project":
        schedule.prove(row)
        return
    assert label_letters(row) == [], (row["id"], label_letters(row))
    assert prompt_tasks(row["prompt"]) == (m["names"], m["durations"], m["prereqs"]), row["id"]
    if m["ask"] not in ("slack", "critical"):
        schedule.prove(row)
        return
    tasks = [m["names"].index(c.removeprefix("Task ")) for c in row["choices"]]
    lettered = [f"Task {schedule.TASKS[t]}" for t in tasks]
    schedule.prove({**row, "choices": lettered})  # v3's proof reads a task from its last letter
    gold = tasks["ABCD".index(row["answer"])]
    picks = blind_picks(m["ask"], m["durations"], m["prereqs"], tasks)
    assert hits(picks, gold) == m["blind_hits"], (row["id"], m["blind_hits"])
