"""Log-forensics family of eval-security-v5: v3's sshd and web logs, drawn so that the candidate
a "which address/user/path" question asks for is the one named on most log lines no more often
than a blind pick (issue 30).

In eval-security-v4 the eight "which ... most" rows were all answered by the candidate named on
most lines of the log, and the breach rows ("which address got in", "which account")
leant the same way: statuses and addresses were drawn uniformly over short logs, so whoever was
busiest in the asked status was busiest overall. Here every candidate's lines are of two sorts,
the ones the question counts and the ones it does not (a legitimate user's repeated logins, other
statuses, a scanner's small error pages), drawn apart, and the gold's place among the candidates
by lines in the log (``freq_rank``, 1 = most lines, never tied with another candidate) is chosen:

* mc rows: dealt over the family's twelve "which" mc rows, each rank three times per instance
  (``rank_plan``, from the plan stream, re-dealt under a fresh seed); the distractors are picked
  from the log's candidates to put the gold there;
* exact rows (every candidate of the log is a possible reply, k of them): rank 1 with probability
  1/k when the log allows it, else a rank the log allows, drawn uniformly.

The log's own story is v3's (``logs``): guessing addresses, exactly one of which gets in, and
legitimate users, some of whom mistype once; legitimate users (one more per level, on addresses
drawn with the guessers') now log in one or more times, in every auth row. The web numeric rows
are v3's (``logs.build``). The proof is v3's (the log parsed back from the prompt, every answer
recomputed), plus each candidate's lines counted to check the gold's planned rank. Modules:
``log_ranks`` (the candidates, ranks and plan), ``authlog_v5`` (sshd), ``weblog_v5`` (web).
"""

from __future__ import annotations

import random
from typing import Any

from families.security import authlog_v5, log_ranks, logs, weblog_v5
from families.security.log_ranks import WHICH, question_of, rank_of

CATEGORY = logs.CATEGORY
FORMS = logs.FORMS
PLAN_SEED = log_ranks.PLAN_SEED
check_plan = log_ranks.check_plan
Item = dict[str, Any]


def build(rng: random.Random, level: int, form: int) -> Item:
    """Auth rows on the v5 cast; web "which" rows on v5 logs; web numeric rows as in v3."""
    question = question_of(level, form)
    if form not in logs.AUTH_FORMS and question not in WHICH:
        return logs.build(rng, level, form)
    cue_ranks = []  # drawn once, before any redraw: a redraw must not favour the easy ranks
    if question == "top_bytes_ip":
        cue_ranks = [rng.randint(1, 4), rng.randint(1, 4)]
    while True:
        if form in logs.AUTH_FORMS:
            item = authlog_v5.auth_item(rng, level, form)
        else:
            item = weblog_v5.web_item(rng, level, form, cue_ranks)
        if item is not None:
            return item


# ---- proof: v3's, plus every candidate's lines counted -----------------------------------------
def prove(row: dict[str, Any]) -> None:
    logs.prove(row)
    m = row["meta"]
    field = WHICH.get(m["question"])
    if field is None:
        assert "freq_rank" not in m, row["id"]
        return
    counts = log_ranks.line_counts(logs.log_lines(row["prompt"]), field)
    if row["scorer"] == "mc":
        gold, pool = row["choices"]["ABCD".index(row["answer"])], list(row["choices"])
    else:
        gold, pool = row["answer"], list(counts)
    assert rank_of(counts, gold, pool) == m["freq_rank"], (row["id"], m["freq_rank"])
    if m["question"] == "top_bytes_ip":
        cues = weblog_v5.byte_cues(logs.log_lines(row["prompt"]))
        assert [rank_of(cue, gold, pool) for cue in cues] == m["cue_ranks"], row["id"]
