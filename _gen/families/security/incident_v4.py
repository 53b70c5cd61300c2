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
too, so a premature action can be of any stage. The mc state rows are drawn from every valid
(scenario, gold, others, state) fill of their cell, weighted by ``common.balance`` over the
suite's state cells (``state_designs``): each action text is the gold in a quarter of the rows
that offer it, and the latest- and earliest-stage option, the longest and shortest one and the
late-word reader (``LATE_WORDS``: a late-looking action for "NOT yet", another for "safe now")
each take the gold as often as a blind pick — except that a ready action is never later than
every premature one. As first published, the gold's stage was planned per cell instead
(``STATE_PLAN``, kept for the typed form), and pooled with fresh instances the same texts were
the gold again and again (issue 19: incident_response mc 0.58 vs chance 0.25, text_prior). The
stated state is the one, among the fill's, whose gold word-overlap with the question is nearest
a drawn rank; the gold's prerequisite is still never among the things done, so the option
sharing the fewest words with the question is the gold somewhat more often than a blind pick
(pooled, this family's mc rows alone: 0.40 vs 0.25, not clear of chance at 48 rows). The
question states the rule.

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

import functools
import itertools
import random
import re
from typing import Any

from common import balance, orders

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


def _labelled(rng: random.Random, level: int) -> Item | None:
    """The typed form: five labelled actions, one premature, the gold's standing planned."""
    name = rng.choice(sorted(SCENARIOS))
    text, table = SCENARIOS[name]
    done = random_state(rng, table, rng.randint(level, level + 3))
    fresh = [s for s in sorted(table) if ready(table, done, s)]
    early = [s for s in sorted(table) if premature(table, done, s)]
    want, _, _ = STATE_PLAN[(7, level)]
    if not early or len(fresh) < 4:
        return None
    picks = [
        (gold, others)
        for gold in early
        for others in itertools.combinations(fresh, 4)
        if standing(table, gold, list(others)) == want
    ]
    if not picks:
        return None
    gold, others = picks[rng.randrange(len(picks))]
    meta: dict[str, Any] = {
        "kind": "ir_state",
        "scenario": name,
        "done": sorted(done),
        "standing": want,
        "overlap_rank": None,
        "irreversible": None,
    }
    shown = rng.sample([gold, *others], 5)
    labels = dict(zip(LABELS, shown, strict=True))
    listing = "\n".join(f"{lab}. {table[s][0]}" for lab, s in labels.items())
    meta["labels"] = labels
    q = f"{text} {_state_text(table, done)}\n\n{listing}\n\n{ASK_NOT_YET} Give its letter."
    answer = next(lab for lab, s in labels.items() if s == gold)
    return {"question": q, "scorer": "exact", "answer": answer, "meta": meta}


def closed_states(table: Table) -> list[frozenset[str]]:
    """Every set of done actions in which each was done only after everything it lists."""
    acts = sorted(table)
    return [
        frozenset(c)
        for r in range(len(acts) + 1)
        for c in itertools.combinations(acts, r)
        if all(set(table[s][2]) | set(table[s][3]) <= set(c) for s in c)
    ]


def _cues(name: str, ask: str, options: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The ``CUES`` each option shows: the latest and earliest stage and the longest and shortest
    text (when one option alone is that), and the late-looking actions (eradication, recovery,
    or irreversible); the stage and late cues per question asked."""
    table = SCENARIOS[name][1]
    stages = [table[s][1] for s in options]
    lengths = [len(table[s][0]) for s in options]
    out: list[tuple[str, tuple[str, ...]]] = []
    for cue, values, pick in (
        (f"latest stage, {ask}", stages, max),
        (f"earliest stage, {ask}", stages, min),
        ("longest", lengths, max),
        ("shortest", lengths, min),
    ):
        best = pick(values)
        if values.count(best) == 1:
            out.append((cue, (table[options[values.index(best)]][0],)))
    return tuple(out)


#: How a reader tells a late or irreversible response action from its first words (issue 19's
#: finding in eval-security-v3: taking such an action for "NOT yet" won about 96 %).
LATE_WORDS = (
    "Wipe", "Restore", "Notify", "Reconnect", "Rebuild", "Reinstall", "Return",
    "Put the server back", "Give the account back", "Deploy", "Delete", "Tell the",
)  # fmt: skip


def late_looking(text: str) -> bool:
    return text.startswith(LATE_WORDS)


def _late_pick(ask: str, texts: list[str]) -> tuple[tuple[str, float, float], ...]:
    """The late-word reader: for "NOT yet" a late-looking option, for "safe now" any other
    (picked uniformly among them): how often it takes the gold (``texts[0]``), against 1/k."""
    want = [late_looking(t) != (ask == "ready") for t in texts]
    if not any(want):
        return ()
    return ((f"late words, {ask}", want[0] / sum(want), 1.0),)


#: What a reader can see in the options of a state row without the rule (``_cues``,
#: ``_late_pick``).
CUES = ("latest stage", "earliest stage", "longest", "shortest", "late words")


#: The mc state rows of one suite: (ask, level) -> rows ("NOT yet" in two forms, "safe now" in one).
STATE_ROWS = {("premature", level): 2 for level in range(3)} | {
    ("ready", level): 1 for level in range(3)
}


def _cell(ask: str, level: int) -> list[balance.Design]:
    """Every (scenario, gold, three others, states) way to fill an mc state row of ``level`` that
    asks ``ask`` ("premature": the one that must NOT be taken yet, beside three ready ones;
    "ready": the one that can be taken now, beside three premature ones). Base weights:
    scenarios equally often, then every (state, gold, others) equally often."""
    cell = []
    for name in sorted(SCENARIOS):
        _, table = SCENARIOS[name]
        found: dict[tuple[str, tuple[str, ...]], list[frozenset[str]]] = {}
        for done in closed_states(table):
            if not level <= len(done) <= level + 3:
                continue
            fresh = [s for s in sorted(table) if ready(table, done, s)]
            early = [s for s in sorted(table) if premature(table, done, s)]
            right, pool = (early, fresh) if ask == "premature" else (fresh, early)
            for gold in right:
                for others in itertools.combinations(pool, 3):
                    found.setdefault((gold, others), []).append(done)
        total = sum(len(v) for v in found.values())
        for (gold, others), dones in sorted(found.items()):
            options = [gold, *others]
            cell.append(
                balance.Design(
                    key=(name, gold, others, tuple(sorted(sorted(d) for d in dones))),
                    gold=table[gold][0],
                    options=tuple(table[s][0] for s in options),
                    cues=_cues(name, ask, options),
                    soft=_late_pick(ask, [table[s][0] for s in options]),
                    base=len(dones) / total,
                )
            )
    return cell


def overlap_rank_of(name: str, options: list[str], done: set[str]) -> float:
    """How many of the other options share a smaller part of their words with the question than
    ``options[0]`` does (a tie counts half)."""
    text, table = SCENARIOS[name]
    stem = _words(f"{text} {_state_text(table, done)}")
    share = [len(_words(table[s][0]) & stem) / len(_words(table[s][0])) for s in options]
    return sum((v < share[0]) + 0.5 * (v == share[0]) for v in share[1:])


def _stated(rng: random.Random, name: str, options: list[str], dones: Any) -> set[str]:
    """The state the row states: among the design's states, one whose gold word-overlap rank is
    nearest a rank drawn uniformly (0-3). A premature action's prerequisite is not among the
    things done, so a state drawn blindly seldom names the gold's words; this narrows that
    tell (it does not remove it: see the module docstring)."""
    target = rng.randrange(4)
    gaps = [abs(overlap_rank_of(name, options, set(d)) - target) for d in dones]
    nearest = [d for d, g in zip(dones, gaps, strict=True) if g == min(gaps)]
    return set(nearest[rng.randrange(len(nearest))])


@functools.cache
def state_designs() -> dict[tuple[str, int], list[tuple[balance.Design, float]]]:
    """The designs of every (ask, level) cell of ``STATE_ROWS``, weighted by ``balance.tilt``
    over all of them (as many rows as a suite has): every action text is the gold in a quarter
    of the rows that offer it; the longest and shortest option is the gold in a quarter of the
    rows, and for each question asked, so are the latest- and earliest-stage option, and a
    late-looking action as often as a blind pick takes one."""
    cells = list(STATE_ROWS)
    weighted = balance.tilt([_cell(a, lv) for a, lv in cells], [STATE_ROWS[c] for c in cells])
    return dict(zip(cells, weighted, strict=True))


def _now(rng: random.Random, level: int, form: int) -> Item | None:
    if form == 7:
        return _labelled(rng, level)
    ask = "ready" if form == 6 else "premature"
    design = balance.draw(rng, state_designs()[(ask, level)])
    name, gold, others, dones = design.key
    text, table = SCENARIOS[name]
    done = _stated(rng, name, [gold, *others], dones)
    meta: dict[str, Any] = {
        "kind": "ir_state",
        "scenario": name,
        "done": sorted(done),
        "standing": standing(table, gold, list(others)),
        "overlap_rank": None,
        "irreversible": None,
        "ask": ask,
    }
    asked = ASK_NOW if ask == "ready" else ASK_NOT_YET
    return {
        "question": f"{text} {_state_text(table, done)} {asked}",
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
