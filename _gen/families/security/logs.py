"""Log-forensics family of eval-security-v3: sshd authentication logs and web access logs.

Every sshd log holds password-guessing IP addresses (failures against several accounts), of
which exactly one later gets in, and legitimate users, some of whom mistype their password once
before logging in from the same address: telling a typo from a break-in is part of the task.
The compromised account is drawn from every existing account (issue 13: in -v2 it was "deploy"
in 3 of 3 rows) and the legitimate users from the rest, so the account names carry no hint.
Wrong options come from the same log: other accounts that logged in or were attacked, other
guessing addresses, the runner-up counts of the web log.

The proof parses the log text back from the prompt with a regular expression and recomputes
every answer from the parsed lines.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

CATEGORY = "log_forensics"
FORMS = ("exact", "mc", "numeric", "mc", "exact", "mc", "numeric", "mc")
DOC_NETS = ("192.0.2.", "198.51.100.", "203.0.113.")
ACCOUNTS = ("root", "alice", "bob", "carol", "deploy", "backup", "git", "dave", "erin")
NO_SUCH = ("admin", "test", "oracle", "guest", "ubuntu", "pi")
PATHS = (
    "/",
    "/login",
    "/admin",
    "/api/orders",
    "/static/app.js",
    "/wp-login.php",
    "/backup.zip",
    "/.env",
    "/search",
)
Item = dict[str, Any]
AUTH_ASKS = {
    "top_ip": "Which IP address had the most failed logins?",
    "top_user": "Which username appears in the most failed login attempts?",
    "breached_user": "One address guessed passwords for several accounts and then got in. "
    "Which account did it get into?",
    "breacher_ip": "One address guessed passwords for several accounts and then got in. "
    "Which IP address was it?",
    "breach_time": "One address guessed passwords for several accounts and then got in. At "
    "what time (HH:MM:SS) did it log in?",
    "fail_count": "How many failed login attempts does the log show?",
    "fail_ips": "How many different IP addresses had at least one failed login?",
    "fails_before_breach": "One address guessed passwords for several accounts and then got "
    "in. How many failed attempts did that address make before it got in?",
}
WEB_ASKS = {
    "top_404_path": "Which path received the most 404 (Not Found) responses?",
    "top_denied_ip": "Which IP address received the most 401 or 403 responses?",
    "top_bytes_ip": "Which IP address was sent the most bytes in total (the response size field)?",
}


def doc_ips(rng: random.Random, n: int) -> list[str]:
    picks: set[str] = set()
    while len(picks) < n:
        picks.add(rng.choice(DOC_NETS) + str(rng.randint(2, 254)))
    return sorted(picks)


def clock(seconds: int) -> str:
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def auth_log(rng: random.Random, level: int) -> list[str]:
    """sshd lines: guessing addresses (the first one gets in after its failures, not always at
    the end of the log) and legitimate logins, some after one mistyped password."""
    guessers = doc_ips(rng, 2 + level)
    rng.shuffle(guessers)
    legit = [ip for ip in doc_ips(rng, 9) if ip not in guessers][: 2 + level]
    victim = rng.choice(ACCOUNTS)
    others = [a for a in ACCOUNTS if a != victim]
    events: list[list[Any]] = []  # [ok, ip, user]
    for i, ip in enumerate(guessers):
        targets = rng.sample([*others, *NO_SUCH], rng.randint(2, 3))
        if i == 0:
            targets[0] = victim
        events += [[False, ip, t] for t in targets]  # every target at least once
        events += [[False, ip, rng.choice(targets)] for _ in range(rng.randint(1, 3 + 2 * level))]
    breach = [True, guessers[0], victim]
    pairs = [(breach, [e for e in events if e[1] == guessers[0]])]
    typo = rng.sample(legit, 1 + level // 2)
    for ip, user in zip(legit, rng.sample(others, len(legit)), strict=True):
        success = [True, ip, user]
        if ip in typo:
            mistake = [False, ip, user]
            events.append(mistake)
            pairs.append((success, [mistake]))
        events.append(success)
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
        who = f"invalid user {user}" if user in NO_SUCH else user
        lines.append(
            f"2024-03-14T{clock(when[id(event)])}Z {host} sshd[{rng.randint(1000, 9999)}]: "
            f"{verb}{who} from {ip} port {rng.randint(30000, 65000)} ssh2"
        )
    return lines


def web_log(rng: random.Random, level: int) -> list[str]:
    ips = doc_ips(rng, 4 + level)
    lines = []
    for t in sorted(rng.sample(range(8 * 3600, 20 * 3600), rng.randint(24, 30) + 6 * level)):
        status = rng.choice((200, 200, 200, 301, 401, 403, 404, 404, 500))
        size = 0 if status == 301 else rng.randint(200, 9000)
        lines.append(
            f'{rng.choice(ips)} - - [14/Mar/2024:{clock(t)} +0000] "GET {rng.choice(PATHS)} '
            f'HTTP/1.1" {status} {size} "-" "Mozilla/5.0"'
        )
    return lines


AUTH_FORMS = {
    0: ("top_ip", "top_user", "breached_user"),
    2: ("fail_count", "fail_ips", "fails_before_breach"),
    3: ("breached_user",) * 3,
    4: ("breached_user", "breach_time", "breacher_ip"),
    5: ("breacher_ip",) * 3,
}
WEB_FORMS = {
    1: ("top_404_path", "top_denied_ip", "top_bytes_ip"),
    6: ("status_count", "bytes_to_ip", "ips_for_path"),
    7: ("top_denied_ip", "top_bytes_ip", "top_404_path"),
}


def build(rng: random.Random, level: int, form: int) -> Item:
    while True:
        item = _auth(rng, level, form) if form in AUTH_FORMS else _web(rng, level, form)
        if item is not None:
            return item


def _auth(rng: random.Random, level: int, form: int) -> Item | None:
    question = AUTH_FORMS[form][level]
    lines = auth_log(rng, level)
    facts = auth_facts(lines)
    answer = facts[question]
    if answer is None:
        return None
    q = "Here is an excerpt of an SSH server's authentication log:\n\n" + "\n".join(lines)
    meta = {"kind": "auth", "question": question}
    if FORMS[form] != "mc":
        return {
            "question": f"{q}\n\n{AUTH_ASKS[question]}",
            "scorer": FORMS[form],
            "answer": answer,
            "meta": meta,
        }
    pool = facts["users_seen"] if question == "breached_user" else facts["ips_seen"]
    others = [x for x in pool if x != answer]
    if len(others) < 3:
        return None
    return {
        "question": f"{q}\n\n{AUTH_ASKS[question]}",
        "scorer": "mc",
        "correct": answer,
        "distractors": rng.sample(others, 3),
        "meta": meta,
    }


def _web(rng: random.Random, level: int, form: int) -> Item | None:
    question = WEB_FORMS[form][level]
    lines = web_log(rng, level)
    q = "Here is an excerpt of a web server's access log:\n\n" + "\n".join(lines)
    meta: dict[str, Any] = {"kind": "web", "question": question}
    if FORMS[form] == "numeric":
        parsed = [_web_fields(line) for line in lines]
        ip = rng.choice([p[0] for p in parsed])
        path = rng.choice([p[1] for p in parsed])
        meta.update(ip=ip, path=path, status=404)
        ask = {
            "status_count": f"How many requests from {ip} got a 404 response?",
            "bytes_to_ip": f"How many bytes in total (the response size field) were sent to {ip}?",
            "ips_for_path": f"How many different IP addresses requested {path}?",
        }[question]
        return {
            "question": f"{q}\n\n{ask}",
            "scorer": "numeric",
            "answer": web_answer(lines, meta),
            "meta": meta,
        }
    counts = web_counts(lines, question)
    ranked = sorted(counts, key=lambda k: -counts[k])
    if len(ranked) < 4 or counts[ranked[0]] == counts[ranked[1]]:
        return None
    return {
        "question": f"{q}\n\n{WEB_ASKS[question]}",
        "scorer": "mc",
        "correct": ranked[0],
        "distractors": ranked[1:4],
        "meta": meta,
    }


# ---- proof: the log parsed back from the prompt -----------------------------------------------
AUTH_LINE = re.compile(
    r"T(\d\d:\d\d:\d\d)Z \S+ sshd\[\d+\]: (Accepted|Failed) password for "
    r"(?:invalid user )?(\S+) from (\S+) port \d+ ssh2$"
)
WEB_LINE = re.compile(r'^(\S+) - - \[[^\]]+\] "GET (\S+) HTTP/1\.1" (\d{3}) (\d+) ')


def auth_facts(lines: list[str]) -> dict[str, Any]:
    """Every auth answer, recomputed from the log lines (None when a question has no unique
    answer in this log)."""
    events, unknown = [], set()
    for line in lines:
        m = AUTH_LINE.search(line)
        assert m, line
        events.append((m.group(1), m.group(2) == "Accepted", m.group(3), m.group(4)))
        if "invalid user" in line:
            unknown.add(m.group(3))
    fails = [e for e in events if not e[1]]
    targets: dict[str, set[str]] = {}
    for _, _, user, ip in fails:
        targets.setdefault(ip, set()).add(user)
    guessers = {ip for ip, users in targets.items() if len(users) >= 2}
    breaches = [e for e in events if e[1] and e[3] in guessers]
    by_ip, by_user = Counter(e[3] for e in fails), Counter(e[2] for e in fails)
    facts: dict[str, Any] = {
        "top_ip": _unique_top(by_ip),
        "top_user": _unique_top(by_user),
        "fail_count": str(len(fails)),
        "fail_ips": str(len(by_ip)),
        "users_seen": sorted({e[2] for e in events} - unknown),
        "ips_seen": sorted({e[3] for e in events}),
    }
    if len(breaches) == 1:
        time, _, user, ip = breaches[0]
        facts.update(breached_user=user, breacher_ip=ip, breach_time=time)
        facts["fails_before_breach"] = str(sum(e[3] == ip and e[0] < time for e in fails))
    return facts


def _unique_top(counts: Counter[str]) -> str | None:
    (top, n), *rest = counts.most_common() or [("", 0)]
    return top if n and (not rest or rest[0][1] < n) else None


def _web_fields(line: str) -> tuple[str, str, int, int]:
    m = WEB_LINE.match(line)
    assert m, line
    return m.group(1), m.group(2), int(m.group(3)), int(m.group(4))


def web_counts(lines: list[str], question: str) -> dict[str, int]:
    totals: dict[str, int] = {}
    for ip, path, status, size in map(_web_fields, lines):
        if question == "top_404_path" and status == 404:
            totals[path] = totals.get(path, 0) + 1
        elif question == "top_denied_ip" and status in (401, 403):
            totals[ip] = totals.get(ip, 0) + 1
        elif question == "top_bytes_ip":
            totals[ip] = totals.get(ip, 0) + size
    return totals


def web_answer(lines: list[str], meta: dict[str, Any]) -> str:
    parsed = [_web_fields(line) for line in lines]
    question = meta["question"]
    if question == "status_count":
        return str(sum(ip == meta["ip"] and st == meta["status"] for ip, _, st, _ in parsed))
    if question == "bytes_to_ip":
        return str(sum(size for ip, _, _, size in parsed if ip == meta["ip"]))
    return str(len({ip for ip, path, _, _ in parsed if path == meta["path"]}))


def log_lines(prompt: str) -> list[str]:
    return [line for line in prompt.split("\n\n")[1].split("\n") if line]


def prove(row: dict[str, Any]) -> None:
    m, lines = row["meta"], log_lines(row["prompt"])
    if m["kind"] == "auth":
        expected = auth_facts(lines)[m["question"]]
    elif row["scorer"] == "numeric":
        expected = web_answer(lines, m)
    else:
        counts = web_counts(lines, m["question"])
        (expected,) = [k for k, v in counts.items() if v == max(counts.values())]
        assert all(c in counts for c in row["choices"]), row["id"]
    assert expected is not None, row["id"]
    if row["scorer"] == "mc":
        assert row["choices"]["ABCD".index(row["answer"])] == expected, (row["id"], expected)
    else:
        assert row["answer"] == expected, (row["id"], row["answer"], expected)
