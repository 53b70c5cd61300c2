"""What the log-forensics "which" questions of eval-security-v5 ask about, and where the gold
stands among the candidates by the number of log lines naming them (issue 30).

A candidate is an address, a user name or a path; its lines are every line of the log naming it
in that field, whatever the line's status. ``rank_of`` is the gold's rank by lines (1 = most),
``None`` when another candidate has as many; ``rank_plan`` deals the rank of every "which" mc
cell from the plan stream (ranks 1-4 three times each), so a reader who picks the option named
most often, or least often, is right in exactly a quarter of those rows of every instance.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from common import v2
from common.plan_stream import plan_rng

from families.security import logs

#: The rank plan's stream: eval-security-v5's seed (a family module cannot import its generator).
PLAN_SEED = 4_000_701
#: "Which" questions and the field that names their candidates.
WHICH = {
    "top_ip": "ip",
    "top_user": "user",
    "breacher_ip": "ip",
    "breached_user": "user",
    "top_404_path": "path",
    "top_denied_ip": "ip",
    "top_bytes_ip": "ip",
}


def question_of(level: int, form: int) -> str:
    table = logs.AUTH_FORMS if form in logs.AUTH_FORMS else logs.WEB_FORMS
    return table[form][level]


def rank_plan() -> dict[tuple[int, int], int]:
    """(level, form) -> the gold's rank by log lines among the options, for every "which" mc
    cell: ranks 1-4 three times each, shuffled by the plan stream."""
    cells = [
        (level, form)
        for form, scorer in enumerate(logs.FORMS)
        for level in range(3)
        if scorer == "mc" and question_of(level, form) in WHICH
    ]
    deck = [rank for _ in range(len(cells) // 4) for rank in (1, 2, 3, 4)]
    assert len(deck) == len(cells), cells
    plan_rng(PLAN_SEED, -2).shuffle(deck)
    return dict(zip(cells, deck, strict=True))


def rank_of(counts: Counter[str], gold: str, pool: list[str]) -> int | None:
    """1 + the candidates of ``pool`` on more lines than ``gold``; None when one ties it."""
    others = [counts[c] for c in pool if c != gold]
    if counts[gold] in others:
        return None
    return 1 + sum(n > counts[gold] for n in others)


def pick_options(
    rng: random.Random, counts: Counter[str], gold: str, pool: list[str], rank: int
) -> list[str] | None:
    """Three distractors from ``pool`` that leave ``gold`` at ``rank`` among the four."""
    above = [c for c in pool if c != gold and counts[c] > counts[gold]]
    below = [c for c in pool if c != gold and counts[c] < counts[gold]]
    if len(above) < rank - 1 or len(below) < 4 - rank:
        return None
    return rng.sample(above, rank - 1) + rng.sample(below, 4 - rank)


def line_counts(lines: list[str], field: str) -> Counter[str]:
    """How many log lines name each address, user or path."""
    counts: Counter[str] = Counter()
    for line in lines:
        auth = logs.AUTH_LINE.search(line)
        if auth:
            counts[auth.group(4) if field == "ip" else auth.group(3)] += 1
            continue
        web = logs.WEB_LINE.match(line)
        assert web, line
        counts[web.group(1) if field == "ip" else web.group(2)] += 1
    return counts


def check_plan(rows: list[dict[str, Any]]) -> None:
    """Every "which" mc row of the family holds the rank ``rank_plan`` dealt its cell."""
    got = {
        (v2.DIFFICULTIES.index(r["difficulty"]), r["meta"]["form"]): r["meta"]["freq_rank"]
        for r in rows
        if r["category"] == logs.CATEGORY and r["scorer"] == "mc" and r["meta"]["question"] in WHICH
    }
    assert got == rank_plan(), got
