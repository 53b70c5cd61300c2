"""Web access logs of eval-security-v5's "which path/address" rows: the requests a question
counts and the others drawn apart, so its answer is not simply the candidate on most lines
(issue 30).

Each candidate (a path, or a client address) makes some requests of the asked statuses (404; 401
or 403) and some of other statuses, the two numbers drawn independently. For "most bytes" every
client's share of error pages and redirects is drawn instead; page sizes are drawn from 300 to
18,000 bytes whoever asks, error pages are small, redirects empty. The options are drawn from the
log's candidates so that the gold stands at its planned rank by lines (``log_ranks``), and for
"most bytes" also at a rank drawn per row by its largest single response and by its number of
200 responses, the two other cues a reader might take for the total.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

from families.security import logs
from families.security.log_ranks import (
    WHICH,
    line_counts,
    pick_options,
    question_of,
    rank_of,
    rank_plan,
)

#: What a web question counts and the statuses of a candidate's other lines.
WEB_STATUSES = {
    "top_404_path": ((404,), (200, 200, 200, 301, 401, 403, 500)),
    "top_denied_ip": ((401, 403), (200, 200, 200, 301, 404, 404, 500)),
    "top_bytes_ip": ((), (200, 200, 200, 200, 301, 403, 404, 500)),
}
Item = dict[str, Any]


def web_lines(rng: random.Random, level: int, question: str) -> list[str]:
    """Each candidate (a path, or a client address) makes some requests of the asked statuses
    and some of the others, the two numbers drawn apart (for the bytes question a client's share
    of error pages and redirects is drawn instead); page sizes are drawn from 300 to 18,000 bytes
    whoever asks, error pages are small, redirects empty."""
    ips = logs.doc_ips(rng, 6 + level)
    asked, other = WEB_STATUSES[question]
    by_path = question == "top_404_path"
    keys = rng.sample(logs.PATHS, 6 + level) if by_path else ips
    requests = []
    for key in keys:
        if asked:
            statuses = [rng.choice(asked) for _ in range(rng.randint(0, 3 + level))]
            statuses += [rng.choice(other) for _ in range(rng.randint(0, 7 + level))]
        else:
            errors = rng.choice((0.0, 0.3, 0.8))
            statuses = [
                rng.choice(other[4:]) if rng.random() < errors else 200
                for _ in range(rng.randint(1, 7 + level))
            ]
        for status in statuses:
            ip, path = (rng.choice(ips), key) if by_path else (key, rng.choice(logs.PATHS))
            size = int(300 * 60 ** rng.random()) if status == 200 else rng.randint(150, 600)
            requests.append((ip, path, status, 0 if status == 301 else size))
    rng.shuffle(requests)
    times = sorted(rng.sample(range(8 * 3600, 20 * 3600), len(requests)))
    return [
        f'{ip} - - [14/Mar/2024:{logs.clock(t)} +0000] "GET {path} HTTP/1.1" {status} {size} '
        f'"-" "Mozilla/5.0"'
        for t, (ip, path, status, size) in zip(times, requests, strict=True)
    ]


def byte_cues(lines: list[str]) -> tuple[Counter[str], Counter[str]]:
    """Each client's largest single response and its number of 200 responses: the bytes
    question's other tempting shortcuts."""
    biggest: Counter[str] = Counter()
    pages: Counter[str] = Counter()
    for ip, _, status, size in map(logs._web_fields, lines):
        biggest[ip] = max(biggest[ip], size)
        pages[ip] += status == 200
    return biggest, pages


def web_item(rng: random.Random, level: int, form: int, cue_ranks: list[int]) -> Item | None:
    question = question_of(level, form)
    lines = web_lines(rng, level, question)
    totals = logs.web_counts(lines, question)
    ranked = sorted(totals, key=lambda k: -totals[k])
    if len(ranked) < 4 or totals[ranked[0]] == totals[ranked[1]]:
        return None
    gold, rank = ranked[0], rank_plan()[(level, form)]
    counts = line_counts(lines, WHICH[question])
    meta = {"kind": "web", "question": question, "freq_rank": rank}
    if question == "top_bytes_ip":  # the largest response and the most pages at drawn ranks too
        meta["cue_ranks"] = cue_ranks
        cues = byte_cues(lines)
        fits = [
            list(three)
            for three in itertools.combinations(ranked[1:], 3)
            if rank_of(counts, gold, [gold, *three]) == rank
            and [rank_of(cue, gold, [gold, *three]) for cue in cues] == cue_ranks
        ]
        distractors = rng.choice(fits) if fits else None
    else:
        distractors = pick_options(rng, counts, gold, ranked, rank)
    if distractors is None:
        return None
    return {
        "question": "Here is an excerpt of a web server's access log:\n\n"
        + "\n".join(lines)
        + f"\n\n{logs.WEB_ASKS[question]}",
        "scorer": "mc",
        "correct": gold,
        "distractors": distractors,
        "meta": meta,
    }
