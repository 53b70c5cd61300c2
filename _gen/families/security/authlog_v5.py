"""sshd logs of eval-security-v5's log-forensics family: v3's story (``logs``) with legitimate
users who log in again and again, so the address or user a question asks for is not simply the
one on most lines (issue 30).

The cast is v3's: guessing addresses, failing against several accounts, of which the first gets
in; legitimate users on addresses of their own, some mistyping their password once. What is new
is how often each legitimate user logs in (1 to 8 + 2 x level times), chosen after the cast: for
a "which" mc row until three candidates put the gold at its planned rank (``log_ranks``), for a
"which" exact row so that the gold has the most lines of the log's k candidates with probability
1/k when any choice allows it, else at a rank drawn from the ones the choices reach.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from families.security import logs
from families.security.log_ranks import WHICH, pick_options, question_of, rank_of, rank_plan

Item = dict[str, Any]
Core = dict[str, Any]


def auth_core(rng: random.Random, level: int) -> Core:
    """v3's cast: guessing addresses (the first gets in as ``victim``) and legitimate users, each
    on an address of their own, some mistyping their password once."""
    addresses = logs.doc_ips(rng, 5 + 2 * level)
    rng.shuffle(addresses)  # v3 gave legitimate users the lowest-sorting (shortest) addresses
    guessers, legit_ips = addresses[: 2 + level], addresses[2 + level :]
    victim = rng.choice(logs.ACCOUNTS)
    others = [a for a in logs.ACCOUNTS if a != victim]
    fails: list[tuple[str, str]] = []
    for i, ip in enumerate(guessers):
        targets = rng.sample([*others, *logs.NO_SUCH], rng.randint(2, 3))
        if i == 0:
            targets[0] = victim
        fails += [(ip, t) for t in targets]
        fails += [(ip, rng.choice(targets)) for _ in range(rng.randint(1, 3 + 2 * level))]
    users = rng.sample(others, len(legit_ips))
    typos = set(rng.sample(legit_ips, 1 + level // 2))
    legit = [(ip, user, ip in typos) for ip, user in zip(legit_ips, users, strict=True)]
    return {"fails": fails, "breach": (guessers[0], victim), "legit": legit}


def auth_counts(core: Core, sessions: list[int], field: str) -> Counter[str]:
    """Lines naming each address (``ip``) or user (``user``) once legit user i logs in
    ``sessions[i]`` times."""
    at = 0 if field == "ip" else 1
    counts = Counter(pair[at] for pair in [*core["fails"], core["breach"]])
    for (ip, user, typo), n in zip(core["legit"], sessions, strict=True):
        counts[(ip, user)[at]] += n + typo
    return counts


def auth_lines(rng: random.Random, core: Core, sessions: list[int]) -> list[str]:
    """The log: every event at a drawn time, a login after the failures it follows."""
    events = [[False, ip, user] for ip, user in core["fails"]]
    breach = [True, *core["breach"]]
    pairs = [(breach, [e for e in events if e[1] == breach[1]])]
    for (ip, user, typo), n in zip(core["legit"], sessions, strict=True):
        logins = [[True, ip, user] for _ in range(n)]
        if typo:
            mistake = [False, ip, user]
            events.append(mistake)
            pairs += [(login, [mistake]) for login in logins]
        events += logins
    events.append(breach)
    times = rng.sample(range(6 * 3600, 18 * 3600), len(events))
    when = {id(e): t for e, t in zip(events, times, strict=True)}
    for success, before in pairs:  # a login comes after the failures it follows
        last = max(before, key=lambda e: when[id(e)])
        if when[id(last)] > when[id(success)]:
            when[id(last)], when[id(success)] = when[id(success)], when[id(last)]
    host = rng.choice(("bastion", "gw01", "edge2", "jump"))
    lines = []
    for event in sorted(events, key=lambda e: when[id(e)]):
        ok, ip, user = event
        verb = "Accepted password for " if ok else "Failed password for "
        who = f"invalid user {user}" if user in logs.NO_SUCH else user
        lines.append(
            f"2024-03-14T{logs.clock(when[id(event)])}Z {host} sshd[{rng.randint(1000, 9999)}]: "
            f"{verb}{who} from {ip} port {rng.randint(30000, 65000)} ssh2"
        )
    return lines


def core_answer(core: Core, question: str) -> str | None:
    """The asked candidate, from the cast (the proof recomputes it from the log's text)."""
    if question in ("breacher_ip", "breached_user"):
        return str(core["breach"][question == "breached_user"])
    at = 0 if question == "top_ip" else 1
    failed = Counter(pair[at] for pair in core["fails"])
    failed.update((ip, user)[at] for ip, user, typo in core["legit"] if typo)
    (top, n), (_, second) = failed.most_common(2)
    return str(top) if n > second else None


def _sessions_for_rank(
    rng: random.Random, core: Core, field: str, gold: str, draws: list[list[int]], rank: int
) -> tuple[int, list[int], list[str]] | None:
    """An mc row: the first draw of logins in which three valid candidates put the gold at its
    planned ``rank``, and those three."""
    for sessions in draws:
        counts = auth_counts(core, sessions, field)
        pool = [c for c in counts if c not in logs.NO_SUCH]
        distractors = pick_options(rng, counts, gold, pool, rank)
        if distractors is not None:
            return rank, sessions, distractors
    return None


def _sessions_for_exact(
    rng: random.Random, core: Core, field: str, gold: str, draws: list[list[int]]
) -> tuple[int, list[int], list[str]] | None:
    """An exact row: the gold on most lines of the k candidates with probability 1/k when a draw
    of logins allows it, else at a rank, drawn uniformly, that one reaches."""
    reached: dict[int, list[int]] = {}
    k = len(auth_counts(core, draws[0], field))  # every draw names the same candidates
    for sessions in draws:
        counts = auth_counts(core, sessions, field)
        got = rank_of(counts, gold, list(counts))
        if got is not None:
            reached.setdefault(got, sessions)
    lower = sorted(r for r in reached if r > 1)
    top = 1 in reached and rng.random() < 1 / k
    if not top and not lower:
        return None
    rank = 1 if top else rng.choice(lower)
    return rank, reached[rank], []


def auth_item(rng: random.Random, level: int, form: int) -> Item | None:
    question = question_of(level, form)
    core = auth_core(rng, level)
    draws = []  # 1..cap logins per legitimate user, caps of every size so quiet logs occur too
    for _ in range(200):
        cap = rng.randint(1, 8 + 2 * level)
        draws.append([rng.randint(1, cap) for _ in core["legit"]])
    field, gold = WHICH.get(question), core_answer(core, question)
    meta: dict[str, Any] = {"kind": "auth", "question": question}
    sessions, distractors = draws[0], []
    if field is not None:
        if gold is None:
            return None
        if logs.FORMS[form] == "mc":
            chosen = _sessions_for_rank(rng, core, field, gold, draws, rank_plan()[(level, form)])
        else:
            chosen = _sessions_for_exact(rng, core, field, gold, draws)
        if chosen is None:
            return None
        meta["freq_rank"], sessions, distractors = chosen
    lines = auth_lines(rng, core, sessions)
    answer = logs.auth_facts(lines)[question]
    if answer is None:
        return None
    assert field is None or answer == gold, (question, answer, gold)
    q = "Here is an excerpt of an SSH server's authentication log:\n\n" + "\n".join(lines)
    q = f"{q}\n\n{logs.AUTH_ASKS[question]}"
    if logs.FORMS[form] != "mc":
        return {"question": q, "scorer": logs.FORMS[form], "answer": answer, "meta": meta}
    return {"question": q, "scorer": "mc", "correct": answer, "distractors": distractors,
            "meta": meta}  # fmt: skip
