"""Incident-response family of eval-security-v3: what may be done now, and in which order.

Each scenario is a small table of sensible response actions. An action may name actions that
must come first for it to make sense (``after``: you reconnect only what was disconnected) and
actions that must come first for it to be safe (``needs``: evidence is captured before a disk is
wiped, a host is cleaned before it goes back on the network, credentials are reset before an
account is handed back). A row states what the team has done so far (a state closed under both
lists) and asks which listed action must NOT be taken yet: the one whose ``after`` actions are
done but a ``needs`` action is not. Every option is an action a responder really takes, and the
same action is the right answer in one state and a fine next step in another (issue 13: the -v2
"should NOT be taken" options were absurd). Other forms ask which action may be taken now, and
for the order (mc, and typed out) of one action per lifecycle phase (identify, contain,
eradicate, recover, review: NIST SP 800-61 and the SANS process share it).

The proof replays the table: for the stated state it recomputes which options are premature and
which are ready, and it sorts lifecycle steps by their phase.
"""

from __future__ import annotations

import random
from typing import Any

CATEGORY = "incident_response"
FORMS = ("mc", "exact", "mc", "exact", "mc", "exact", "mc", "exact")
PHASES = ("identify", "contain", "eradicate", "recover", "review")
LABELS = "PQRST"
Item = dict[str, Any]
# id: (text, after, needs)
Table = dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]
#: scenario: (situation, action table, lifecycle phase -> the actions that can stand for it)
SCENARIOS: dict[str, tuple[str, Table, dict[str, str]]] = {
    "ransomware": (
        "A workstation's files are being encrypted and a ransom note is on its screen.",
        {
            "isolate": ("Disconnect the workstation from the network", (), ()),
            "hunt": ("Search the other hosts for the ransomware's file hashes", (), ()),
            "image": ("Take a disk image and memory capture of the workstation", (), ()),
            "creds": ("Reset the passwords of the accounts used on the workstation", (), ()),
            "dpo": ("Tell the data-protection officer which files may be affected", (), ()),
            "wipe": ("Wipe the workstation and reinstall it from a clean image", (), ("image",)),
            "restore": (
                "Restore the user's files from a backup made before the attack",
                (),
                ("wipe",),
            ),
            "reconnect": ("Reconnect the workstation to the network", ("isolate",), ("wipe",)),
        },
        {
            "identify": "hunt",
            "contain": "isolate",
            "eradicate": "wipe",
            "recover": "restore reconnect",
        },
    ),
    "webshell": (
        "A web shell has been found in the upload folder of a public web server.",
        {
            "pull": ("Take the server out of the load balancer", (), ()),
            "block": ("Block the attacker's addresses at the firewall", (), ()),
            "logs": ("Copy the server's access logs to the evidence store", (), ()),
            "image": ("Take a disk image of the server", (), ()),
            "vector": ("Find out which upload flaw let the web shell in", (), ()),
            "patch": ("Fix the upload flaw in the application code", ("vector",), ()),
            "rebuild": ("Rebuild the server from a clean image", (), ("image", "logs")),
            "deploy": ("Deploy the fixed code to the rebuilt server", ("rebuild", "patch"), ()),
            "back": ("Put the server back into the load balancer", ("pull",), ("deploy",)),
        },
        {"identify": "vector", "contain": "pull block", "eradicate": "rebuild", "recover": "back"},
    ),
    "phishing": (
        "An employee typed their password into a phishing page that imitated the company login.",
        {
            "disable": ("Disable the employee's account", (), ()),
            "signins": ("Check the sign-in logs for use of the employee's account", (), ()),
            "audit": ("Export the mailbox audit log for the investigation", (), ()),
            "warn": ("Warn the other staff about the phishing e-mail", (), ()),
            "block": ("Block the phishing page's domain at the web proxy", (), ()),
            "reset": ("Reset the employee's password", (), ()),
            "revoke": ("Revoke the account's active sessions and tokens", (), ()),
            "rules": (
                "Delete the mail-forwarding rules the attacker added",
                ("signins",),
                ("audit",),
            ),
            "return": (
                "Give the account back to the employee",
                ("disable",),
                ("reset", "revoke", "rules"),
            ),
        },
        {
            "identify": "signins",
            "contain": "disable revoke",
            "eradicate": "rules",
            "recover": "return",
        },
    ),
    "miner": (
        "A cryptocurrency miner is running on a database server.",
        {
            "isolate": ("Move the server into an isolated network segment", (), ()),
            "capture": ("Capture the server's memory and disk for analysis", (), ()),
            "hunt": ("Search the other servers for the miner's process name", (), ()),
            "entry": ("Find out how the attacker got onto the server", (), ()),
            "keys": ("Rotate the SSH keys and passwords stored on the server", (), ()),
            "patch": ("Patch the service the attacker came in through", ("entry",), ()),
            "rebuild": ("Reinstall the server's operating system", (), ("capture",)),
            "restore": (
                "Restore the database from a backup made before the intrusion",
                (),
                ("rebuild",),
            ),
            "back": (
                "Return the server to the production network",
                ("isolate",),
                ("rebuild", "patch"),
            ),
        },
        {
            "identify": "entry hunt",
            "contain": "isolate",
            "eradicate": "rebuild",
            "recover": "back restore",
        },
    ),
    "insider": (
        "A departing employee appears to have copied customer files to a personal cloud account.",
        {
            "preserve": ("Preserve the employee's mailbox and file-share logs", (), ()),
            "legal": ("Bring in the HR and legal teams", (), ()),
            "alerts": ("Review the data-loss-prevention alerts for the transfers", (), ()),
            "scope": ("List which customer files were copied", (), ()),
            "block": ("Block uploads to personal cloud storage", (), ()),
            "interview": ("Interview the employee about the transfers", (), ("preserve", "legal")),
            "wipe": ("Wipe the employee's company laptop", (), ("preserve",)),
            "notify": ("Notify the customers whose files were copied", (), ("scope", "legal")),
        },
        {"identify": "alerts scope", "contain": "block", "eradicate": "wipe", "recover": "notify"},
    ),
}
REVIEW = "Hold a lessons-learned review and update the response plan"


def ready(table: Table, done: set[str], step: str) -> bool:
    _, after, needs = table[step]
    return step not in done and set(after) | set(needs) <= done


def premature(table: Table, done: set[str], step: str) -> bool:
    _, after, needs = table[step]
    return step not in done and set(after) <= done and not set(needs) <= done


def random_state(rng: random.Random, table: Table, size: int) -> set[str]:
    """``size`` actions done, each done only after everything it lists."""
    done: set[str] = set()
    while len(done) < size:
        done.add(rng.choice([s for s in sorted(table) if ready(table, done, s)]))
    return done


def _state_text(table: Table, done: set[str]) -> str:
    if not done:
        return "The team has not done anything yet."
    items = "; ".join(table[s][0][0].lower() + table[s][0][1:] for s in sorted(done))
    return f"So far the team has done these things: {items}."


def _now(rng: random.Random, level: int, form: int) -> Item | None:
    name = rng.choice(sorted(SCENARIOS))
    text, table, _ = SCENARIOS[name]
    done = random_state(rng, table, rng.randint(level, level + 2))
    fresh = [s for s in sorted(table) if ready(table, done, s)]
    early = [s for s in sorted(table) if premature(table, done, s)]
    meta: dict[str, Any] = {"kind": "ir_state", "scenario": name, "done": sorted(done)}
    if FORMS[form] == "exact":  # five labelled actions, one premature
        if not early or len(fresh) < 4:
            return None
        shown = rng.sample([rng.choice(early), *rng.sample(fresh, 4)], 5)
        labels = dict(zip(LABELS, shown, strict=True))
        listing = "\n".join(f"{lab}. {table[s][0]}" for lab, s in labels.items())
        meta["labels"] = labels
        (gold,) = [lab for lab, s in labels.items() if s in early]
        q = (
            f"{text} {_state_text(table, done)}\n\n{listing}\n\nWhich one of these actions must "
            f"NOT be taken yet? Give its letter."
        )
        return {"question": q, "scorer": "exact", "answer": gold, "meta": meta}
    if form == 6:  # which may be taken now: one ready, three premature
        if len(early) < 3 or not fresh:
            return None
        right, wrong = rng.choice(fresh), rng.sample(early, 3)
        ask = "Which of these actions can the team safely take now?"
    else:
        if not early or len(fresh) < 3:
            return None
        right, wrong = rng.choice(early), rng.sample(fresh, 3)
        ask = "Which of these actions must NOT be taken yet?"
    meta["ask"] = "ready" if form == 6 else "premature"
    return {
        "question": f"{text} {_state_text(table, done)} {ask}",
        "scorer": "mc",
        "correct": table[right][0],
        "distractors": [table[s][0] for s in wrong],
        "meta": meta,
    }


def _lifecycle(rng: random.Random, level: int, form: int) -> Item:
    name = rng.choice(sorted(SCENARIOS))
    text, table, phase_steps = SCENARIOS[name]
    steps = {p: table[rng.choice(ids.split())][0] for p, ids in phase_steps.items()}
    steps["review"] = REVIEW
    phases = list(PHASES[1:]) if level == 0 else list(PHASES)
    labels = dict(zip(LABELS, rng.sample(phases, len(phases)), strict=False))
    listing = "\n".join(f"{lab}. {steps[p]}" for lab, p in labels.items())
    right = sorted(labels, key=lambda lab: PHASES.index(labels[lab]))
    q = (
        f"{text} Following the incident-response lifecycle (identification, containment, "
        f"eradication, recovery, lessons learned), put these steps in order:\n\n{listing}\n\n"
    )
    shown = {lab: steps[p] for lab, p in labels.items()}
    meta: dict[str, Any] = {"kind": "ir_order", "scenario": name, "labels": labels, "steps": shown}
    if FORMS[form] == "exact":
        ask = (
            "Give the letters in the correct order, separated by commas (for example: "
            f"{', '.join(sorted(labels, reverse=True))})."
        )
        joins = (", ", ",", "", " ")
        return {
            "question": q + ask,
            "scorer": "exact",
            "answer": [j.join(right) for j in joins],
            "meta": meta,
        }
    wrong: list[str] = []
    while len(wrong) < 3:  # one or two adjacent swaps: nearly right
        order = list(right)
        for _ in range(1 + (level == 0)):
            i = rng.randrange(len(order) - 1)
            order[i], order[i + 1] = order[i + 1], order[i]
        if order != right and ", ".join(order) not in wrong:
            wrong.append(", ".join(order))
    return {
        "question": q + "Which order is correct?",
        "scorer": "mc",
        "correct": ", ".join(right),
        "distractors": wrong,
        "meta": meta,
    }


def build(rng: random.Random, level: int, form: int) -> Item:
    while True:
        if form in (1, 2, 3, 5):
            return _lifecycle(rng, level, form)
        item = _now(rng, level, form)
        if item is not None:
            return item


# ---- proof: the scenario table replayed -------------------------------------------------------
def prove(row: dict[str, Any]) -> None:
    m = row["meta"]
    _, table, phase_steps = SCENARIOS[m["scenario"]]
    if m["kind"] == "ir_order":  # each listed step is its phase's step, then sort by phase
        allowed = {p: {table[s][0] for s in ids.split()} for p, ids in phase_steps.items()}
        allowed["review"] = {REVIEW}
        for lab, phase in m["labels"].items():
            assert m["steps"][lab] in allowed[phase], (row["id"], lab)
            assert f"\n{lab}. {m['steps'][lab]}\n" in row["prompt"], (row["id"], lab)
        order = sorted(m["labels"], key=lambda lab: PHASES.index(m["labels"][lab]))
        if row["scorer"] == "exact":
            assert row["answer"][0] == ", ".join(order), row["id"]
        else:
            assert row["choices"]["ABCD".index(row["answer"])] == ", ".join(order), row["id"]
        return
    done = set(m["done"])
    for step in done:  # the stated state is reachable
        assert set(table[step][1]) | set(table[step][2]) <= done, (row["id"], step)
    by_text = {t: s for s, (t, _, _) in table.items()}
    if row["scorer"] == "exact":
        early = [lab for lab, s in m["labels"].items() if premature(table, done, s)]
        assert early == [row["answer"]], (row["id"], early)
        assert all(ready(table, done, s) for lab, s in m["labels"].items() if lab not in early)
        return
    want = ready if m["ask"] == "ready" else premature
    other = premature if m["ask"] == "ready" else ready
    fits = [c for c in row["choices"] if want(table, done, by_text[c])]
    assert fits == [row["choices"]["ABCD".index(row["answer"])]], (row["id"], fits)
    assert all(other(table, done, by_text[c]) for c in row["choices"] if c not in fits)
