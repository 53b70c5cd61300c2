"""Incident-response family of eval-security-v4: what may be done now, and in which order.

Issue 19 found two shortcuts in eval-security-v3's incident rows. In "must NOT be taken yet / can
safely take now" rows (sec3-0005, -0010, -0015, -0065, -0070, -0075, -0095, -0100, -0105, -0110,
-0115, -0120) only late, irreversible actions (wipe, restore, notify, reconnect) had
prerequisites, so picking the latest-stage option scored about 96 %. Its lifecycle orders put
"find the entry point" before containment and offered the contain-first order as wrong
(sec3-0040, -0045; contestable in -0025, -0030, -0060, -0085, -0090).

State rows. Each scenario is a table of response actions, each with the stage it belongs to
(1 containment, 2 investigation and evidence, 3 eradication, 4 recovery and notification), the
actions it ``needs`` first (evidence is captured before a disk is wiped; a search needs the sample
it searches for; a domain is blocked once the phishing e-mail that names it is in hand; an
interview waits for preserved logs and HR) and the actions it only makes sense ``after`` (only
what was disconnected is reconnected). An action is premature when its ``after`` actions are
done and a ``needs`` action is not, ready when both are done. Early actions have prerequisites
too, so a premature action can be of any stage, and each row's options are drawn so that the
gold is the latest-stage option, the earliest-stage one or neither in a planned share of the rows
(``STATE_PLAN``): a guesser that takes the latest action for "NOT yet" (or the earliest for "safe
now") is right about as often as a blind guess. The question states the rule.

Order rows. The prompt states the team's plan: containment, then investigation (how the attacker
got in and what they did), then eradication, recovery and a lessons-learned review; each step
listed is an action of one stage (``ORDER_STEPS``: only actions whose stage that plan makes
plain), so the order follows from the stated plan and no step needs a later one. Wrong orders of
the mc form come from ``common.orders.pick`` (the right order is not the options' centroid); the
typed form accepts commas, spaces, arrows and dashes between the letters.

The proof replays the tables: premature and ready are recomputed for every option, the planned
stage position is checked, and an order is re-derived by sorting the steps by stage.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

from common import orders

CATEGORY = "incident_response"
FORMS = ("mc", "exact", "mc", "exact", "mc", "exact", "mc", "exact")
LABELS = "PQRST"
Item = dict[str, Any]
#: id: (text, stage, after, needs)
Table = dict[str, tuple[str, int, tuple[str, ...], tuple[str, ...]]]
SCENARIOS: dict[str, tuple[str, Table]] = {
    "ransomware": (
        "A workstation's files are being encrypted and a ransom note is on its screen.",
        {
            "isolate": ("Disconnect the workstation from the network", 1, (), ()),
            "sample": ("Copy the ransomware's program file from the workstation", 2, (), ()),
            "hunt": (
                "Search the other hosts for the ransomware's program file",
                2,
                (),
                ("sample",),
            ),
            "scope": ("List which of the workstation's files were encrypted", 2, (), ()),
            "dpo": (
                "Tell the data-protection officer which files were encrypted",
                2,
                (),
                ("scope",),
            ),
            "image": ("Take a disk image and memory capture of the workstation", 2, (), ()),
            "origin": ("Find out how the ransomware reached the workstation", 2, (), ()),
            "creds": ("Reset the passwords of the accounts used on the workstation", 3, (), ()),
            "wipe": ("Wipe the workstation and reinstall it from a clean image", 3, (), ("image",)),
            "restore": (
                "Restore the user's files from a backup made before the attack",
                4,
                (),
                ("wipe",),
            ),
            "reconnect": ("Reconnect the workstation to the network", 4, ("isolate",), ("wipe",)),
        },
    ),
    "webshell": (
        "A web shell has been found in the upload folder of a public web server.",
        {
            "pull": ("Take the server out of the load balancer", 1, (), ()),
            "logs": ("Copy the server's access logs to the evidence store", 2, (), ()),
            "image": ("Take a disk image of the server", 2, (), ()),
            "ips": ("Find the attacker's IP addresses in the copied access logs", 2, (), ("logs",)),
            "block": ("Block the attacker's IP addresses at the firewall", 1, (), ("ips",)),
            "vector": ("Find out which upload flaw let the web shell in", 2, (), ()),
            "patch": ("Fix the upload flaw in the application code", 3, ("vector",), ()),
            "rebuild": ("Rebuild the server from a clean image", 3, (), ("image", "logs")),
            "deploy": ("Deploy the fixed code to the rebuilt server", 4, ("rebuild", "patch"), ()),
            "back": ("Put the server back into the load balancer", 4, ("pull",), ("deploy",)),
        },
    ),
    "phishing": (
        "An employee typed their password into a phishing page that imitated the company login.",
        {
            "disable": ("Disable the employee's account", 1, (), ()),
            "revoke": ("Revoke the account's active sessions and tokens", 1, (), ()),
            "report": ("Get a copy of the phishing e-mail from the employee", 2, (), ()),
            "block": (
                "Block the domain named in the phishing e-mail at the web proxy",
                1,
                (),
                ("report",),
            ),
            "signins": ("Check the sign-in logs for use of the employee's account", 2, (), ()),
            "audit": ("Export the mailbox's rules and audit log for the investigation", 2, (), ()),
            "reset": ("Reset the employee's password", 3, (), ()),
            "rules": (
                "Delete the mail-forwarding rules the attacker added",
                3,
                (),
                ("audit",),
            ),
            "return": (
                "Give the account back to the employee",
                4,
                ("disable",),
                ("reset", "revoke", "rules"),
            ),
        },
    ),
    "miner": (
        "A cryptocurrency miner is running on a database server.",
        {
            "isolate": ("Move the server into an isolated network segment", 1, (), ()),
            "capture": ("Capture the server's memory and disk for analysis", 2, (), ()),
            "sample": ("Note the miner's process name and copy its program file", 2, (), ()),
            "hunt": ("Search the other servers for the miner's process name", 2, (), ("sample",)),
            "entry": ("Find out how the attacker got onto the server", 2, (), ()),
            "keys": ("Rotate the SSH keys and passwords stored on the server", 3, (), ()),
            "patch": ("Patch the service the attacker came in through", 3, (), ("entry",)),
            "rebuild": ("Reinstall the server's operating system", 3, (), ("capture",)),
            "restore": (
                "Restore the database from a backup made before the intrusion",
                4,
                (),
                ("rebuild",),
            ),
            "back": (
                "Return the server to the production network",
                4,
                ("isolate",),
                ("rebuild", "patch"),
            ),
        },
    ),
    "insider": (
        "A departing employee appears to have copied customer files to a personal cloud account.",
        {
            "block": ("Block uploads to personal cloud storage", 1, (), ()),
            "preserve": ("Preserve the employee's mailbox and file-share logs", 2, (), ()),
            "legal": ("Bring in the HR and legal teams", 2, (), ()),
            "alerts": ("Review the data-loss-prevention alerts for the transfers", 2, (), ()),
            "scope": ("List which customer files were copied", 2, (), ()),
            "image": ("Take a forensic image of the employee's company laptop", 2, (), ()),
            "interview": (
                "Interview the employee about the transfers",
                2,
                (),
                ("preserve", "legal"),
            ),
            "wipe": ("Wipe the employee's company laptop", 3, (), ("image",)),
            "notify": (
                "Notify the customers whose files were copied",
                4,
                (),
                ("scope", "legal"),
            ),
        },
    ),
}
#: Actions that cannot be taken back or that put a system back into use: wiping, rebuilding,
#: deleting, restoring over data, reconnecting, handing back, telling someone outside the team.
IRREVERSIBLE = {
    "ransomware": {"wipe", "restore", "reconnect", "dpo"},
    "webshell": {"rebuild", "deploy", "back"},
    "phishing": {"rules", "return"},
    "miner": {"rebuild", "restore", "back"},
    "insider": {"wipe", "notify"},
}
#: (form, level) -> (where the gold's stage stands among the options: above all of them, below
#: all of them, or strictly between; for mc rows, the gold's rank by the words it shares with the
#: stem, 0 = fewest; whether the gold is IRREVERSIBLE, when planned). Of the nine "NOT yet" rows
#: two are "late" and two "early" (chance: 6 x 1/4 + 3 x 1/5 = 2.1); of the three "safe now" rows
#: one is "early" (a ready action is never later than all the premature ones) and one has an
#: irreversible gold. Over the nine mc rows each overlap rank is planned two or three times.
#: Every planned cell is one the tables can fill.
STATE_PLAN: dict[tuple[int, int], tuple[str, int | None, bool | None]] = {
    (0, 0): ("late", 3, None),
    (0, 1): ("mid", 1, None),
    (0, 2): ("early", 0, None),
    (4, 0): ("mid", 2, None),
    (4, 1): ("early", 1, None),
    (4, 2): ("mid", 3, None),
    (6, 0): ("early", 2, False),
    (6, 1): ("mid", 0, False),
    (6, 2): ("mid", 3, True),
    (7, 0): ("mid", None, None),
    (7, 1): ("late", None, None),
    (7, 2): ("mid", None, None),
}
STAGES = ("containment", "investigation", "eradication", "recovery")
#: scenario -> stage -> actions that stand for it in an order row (the insider case has no
#: eradication step that the stated plan makes plain, so it gets no order rows)
ORDER_STEPS: dict[str, dict[str, tuple[str, ...]]] = {
    "ransomware": {
        "containment": ("isolate",),
        "investigation": ("origin",),
        "eradication": ("wipe",),
        "recovery": ("restore", "reconnect"),
    },
    "webshell": {
        "containment": ("pull",),
        "investigation": ("vector",),
        "eradication": ("rebuild", "patch"),
        "recovery": ("back",),
    },
    "phishing": {
        "containment": ("disable", "revoke"),
        "investigation": ("signins",),
        "eradication": ("rules",),
        "recovery": ("return",),
    },
    "miner": {
        "containment": ("isolate",),
        "investigation": ("entry",),
        "eradication": ("rebuild", "patch"),
        "recovery": ("back", "restore"),
    },
}
REVIEW = "Hold a lessons-learned review and update the response plan"
PLAN_TEXT = {
    "containment": "containment (stop the attack from going further)",
    "investigation": "investigation (find out how the attacker got in and what they did)",
    "eradication": "eradication (remove what the attacker left and close the way in)",
    "recovery": "recovery (return to normal operation)",
}
ORDER_JOINS = (", ", ",", "", " ", " → ", "→", " – ", "–", " - ", "-")


def ready(table: Table, done: set[str], step: str) -> bool:
    _, _, after, needs = table[step]
    return step not in done and set(after) | set(needs) <= done


def premature(table: Table, done: set[str], step: str) -> bool:
    _, _, after, needs = table[step]
    return step not in done and set(after) <= done and not set(needs) <= done


def random_state(rng: random.Random, table: Table, size: int) -> set[str]:
    """``size`` actions done, each done only after everything it lists."""
    done: set[str] = set()
    while len(done) < size:
        done.add(rng.choice([s for s in sorted(table) if ready(table, done, s)]))
    return done


def standing(table: Table, gold: str, others: list[str]) -> str | None:
    """``late``, ``early`` or ``mid``: the gold's stage against the other options' stages (above
    all, below all, or strictly between); None when it ties the highest or the lowest."""
    mine, theirs = table[gold][1], [table[s][1] for s in others]
    if mine > max(theirs):
        return "late"
    if mine < min(theirs):
        return "early"
    return "mid" if min(theirs) < mine < max(theirs) else None


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.casefold()))


def overlap_rank(stem: str, gold: str, others: list[str]) -> int | None:
    """How many options share fewer words with ``stem`` than the gold does (None on a tie)."""
    words = _words(stem)
    mine, theirs = len(_words(gold) & words), [len(_words(o) & words) for o in others]
    return None if mine in theirs else sum(t < mine for t in theirs)


def _state_text(table: Table, done: set[str]) -> str:
    if not done:
        return "The team has not done anything yet."
    items = "; ".join(table[s][0][0].lower() + table[s][0][1:] for s in sorted(done))
    return f"So far the team has done these things: {items}."


ASK_NOT_YET = (
    "An action must wait until every action it depends on has been done. Which of these actions "
    "must NOT be taken yet?"
)
ASK_NOW = (
    "An action must wait until every action it depends on has been done. Which of these actions "
    "can the team safely take now?"
)


def _now(rng: random.Random, level: int, form: int) -> Item | None:
    name = rng.choice(sorted(SCENARIOS))
    text, table = SCENARIOS[name]
    done = random_state(rng, table, rng.randint(level, level + 3))
    fresh = [s for s in sorted(table) if ready(table, done, s)]
    early = [s for s in sorted(table) if premature(table, done, s)]
    want, rank, lasting = STATE_PLAN[(form, level)]
    if form == 6:  # which may be taken now: one ready, three premature
        right, pool, count = fresh, early, 3
    else:  # premature: three ready beside it (four in the labelled form)
        right, pool, count = early, fresh, 4 if form == 7 else 3
    if not right or len(pool) < count:
        return None
    stem = f"{text} {_state_text(table, done)} {ASK_NOW if form == 6 else ASK_NOT_YET}"
    picks = [
        (gold, others)
        for gold in right
        for others in itertools.combinations(pool, count)
        if standing(table, gold, list(others)) == want
        and lasting in (None, gold in IRREVERSIBLE[name])
        and (
            rank is None
            or overlap_rank(stem, table[gold][0], [table[s][0] for s in others]) == rank
        )
    ]
    if not picks:
        return None
    gold, others = picks[rng.randrange(len(picks))]
    meta: dict[str, Any] = {
        "kind": "ir_state",
        "scenario": name,
        "done": sorted(done),
        "standing": want,
        "overlap_rank": rank,
        "irreversible": lasting,
    }
    if form == 7:
        shown = rng.sample([gold, *others], 5)
        labels = dict(zip(LABELS, shown, strict=True))
        listing = "\n".join(f"{lab}. {table[s][0]}" for lab, s in labels.items())
        meta["labels"] = labels
        q = f"{text} {_state_text(table, done)}\n\n{listing}\n\n{ASK_NOT_YET} Give its letter."
        answer = next(lab for lab, s in labels.items() if s == gold)
        return {"question": q, "scorer": "exact", "answer": answer, "meta": meta}
    meta["ask"] = "ready" if form == 6 else "premature"
    return {
        "question": stem,
        "scorer": "mc",
        "correct": table[gold][0],
        "distractors": [table[s][0] for s in rng.sample(list(others), 3)],
        "meta": meta,
    }


def _lifecycle(rng: random.Random, level: int, form: int) -> Item:
    name = rng.choice(sorted(ORDER_STEPS))
    text, table = SCENARIOS[name]
    stages = [s for s in STAGES if level or s != "investigation"]
    steps = {s: table[rng.choice(ORDER_STEPS[name][s])][0] for s in stages}
    steps["review"] = REVIEW
    kinds = [*stages, "review"]
    labels = dict(zip(LABELS, rng.sample(kinds, len(kinds)), strict=False))
    listing = "\n".join(f"{lab}. {steps[k]}" for lab, k in labels.items())
    right = sorted(labels, key=lambda lab: kinds.index(labels[lab]))
    plan = ", then ".join(PLAN_TEXT[s] for s in stages)
    q = (
        f"{text} The team works through the incident in this order: first {plan}, and last a "
        f"lessons-learned review. Put these steps in the order the team takes them:\n\n"
        f"{listing}\n\n"
    )
    shown = {lab: steps[k] for lab, k in labels.items()}
    meta: dict[str, Any] = {"kind": "ir_order", "scenario": name, "labels": labels, "steps": shown}
    if FORMS[form] == "exact":
        ask = "Give the letters in the correct order, separated by commas (for example: X, Y, Z)."
        return {
            "question": q + ask,
            "scorer": "exact",
            "answer": [j.join(right) for j in ORDER_JOINS],
            "meta": meta,
        }
    pool = [p for p in itertools.permutations(right) if _inversions(p, right) <= 3]
    wrong = orders.pick(rng, tuple(right), pool)
    assert wrong is not None
    return {
        "question": q + "Which order is correct?",
        "scorer": "mc",
        "correct": ", ".join(right),
        "distractors": [", ".join(w) for w in wrong],
        "meta": meta,
    }


def _inversions(order: tuple[str, ...] | list[str], right: list[str]) -> int:
    rank = [right.index(x) for x in order]
    return sum(a > b for a, b in itertools.combinations(rank, 2))


def build(rng: random.Random, level: int, form: int) -> Item:
    while True:
        if form in (1, 2, 3, 5):
            return _lifecycle(rng, level, form)
        item = _now(rng, level, form)
        if item is not None:
            return item


def slips(row: dict[str, Any]) -> tuple[list[Any], list[str]]:
    m = row["meta"]
    if m["kind"] == "ir_state":
        return [lab for lab in m["labels"] if lab != row["answer"]], []
    right = row["answer"][0].split(", ")
    swaps = []
    for i in range(len(right) - 1):
        order = list(right)
        order[i], order[i + 1] = order[i + 1], order[i]
        swaps.append(", ".join(order))
    return [*swaps, ", ".join(reversed(right))], []


# ---- proof: the tables replayed -----------------------------------------------------------------
def prove(row: dict[str, Any]) -> None:
    m = row["meta"]
    _, table = SCENARIOS[m["scenario"]]
    if m["kind"] == "ir_order":
        _prove_order(row, table)
        return
    done = set(m["done"])
    for step in done:  # the stated state is reachable
        assert set(table[step][2]) | set(table[step][3]) <= done, (row["id"], step)
    by_text = {t: s for s, (t, _, _, _) in table.items()}
    if row["scorer"] == "exact":
        shown = list(m["labels"].values())
        fits = [lab for lab, s in m["labels"].items() if premature(table, done, s)]
        assert fits == [row["answer"]], (row["id"], fits)
        assert all(ready(table, done, s) for lab, s in m["labels"].items() if lab not in fits)
        gold = m["labels"][fits[0]]
    else:
        shown = [by_text[c] for c in row["choices"]]
        want = ready if m["ask"] == "ready" else premature
        other = premature if m["ask"] == "ready" else ready
        fits = [c for c in row["choices"] if want(table, done, by_text[c])]
        assert fits == [row["choices"]["ABCD".index(row["answer"])]], (row["id"], fits)
        assert all(other(table, done, by_text[c]) for c in row["choices"] if c not in fits)
        gold = by_text[fits[0]]
    others = [s for s in shown if s != gold]
    assert standing(table, gold, others) == m["standing"], (row["id"], m["standing"])
    if m["overlap_rank"] is not None:
        stem = row["prompt"].split("\n\nA. ")[0]
        texts = [table[s][0] for s in others]
        assert overlap_rank(stem, table[gold][0], texts) == m["overlap_rank"], row["id"]
    if m["irreversible"] is not None:
        assert (gold in IRREVERSIBLE[m["scenario"]]) == m["irreversible"], row["id"]


def _prove_order(row: dict[str, Any], table: Table) -> None:
    m = row["meta"]
    stage_of = {table[s][0]: st for st, ids in ORDER_STEPS[m["scenario"]].items() for s in ids}
    stage_of[REVIEW] = "review"
    sequence = [*STAGES, "review"]
    for lab, kind in m["labels"].items():
        assert stage_of[m["steps"][lab]] == kind, (row["id"], lab)
        assert f"\n{lab}. {m['steps'][lab]}\n" in row["prompt"], (row["id"], lab)
    order = sorted(m["labels"], key=lambda lab: sequence.index(stage_of[m["steps"][lab]]))
    ids = {t: s for s, (t, _, _, _) in table.items()}
    for i, lab in enumerate(order):  # no step needs one that comes after it
        later = {ids.get(m["steps"][x]) for x in order[i + 1 :]}
        step = ids.get(m["steps"][lab])
        if step is not None:
            assert not (set(table[step][2]) | set(table[step][3])) & later, (row["id"], lab)
    gold = (
        row["answer"][0]
        if row["scorer"] == "exact"
        else row["choices"]["ABCD".index(row["answer"])]
    )
    assert gold == ", ".join(order), (row["id"], gold)
    if row["scorer"] == "exact":
        accepted = {j.join(order) for j in ORDER_JOINS}
        assert set(row["answer"]) == accepted, row["id"]
