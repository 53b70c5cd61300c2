"""Vulnerability family of eval-security-v4: one flawed handler, no class shown twice.

eval-security-v3's hard rows added a fifth handler, a safe one *of the flawed class*, so the only
class that appeared twice in the module was the answer ("which kind of vulnerability":
sec3-0013, sec3-0073) and every hard row's search narrowed to two functions (sec3-0028, -0043,
-0058, -0088, -0103, -0118; issue 19). Here every handler of a module has a class of its own:
four handlers on easy and medium rows, as in v3, and all six classes on hard rows, the flawed one
still with a subtle filling. How often a class or sink appears says nothing; only reading how
the input reaches each sink does. Options: the flawed class and three other classes present
(kind), the flawed function and three others (function).

The flawed class of the mc rows is drawn per row, uniform over the six. v3's cycle over the
(level, form) cell (kept for the open rows) made only SQL injection, command injection and path
traversal ever the answer of "which kind" rows, and the handlers of the other three the answer
of "which function" rows, the same in every fresh instance: the pooled audit learned it from the
option texts (issue 19: vuln_classification mc 0.48 vs chance 0.25, ``text_prior``). Drawn per
row, each class's text and each handler's name is the gold in a quarter of the rows offering it.

Templates, fillings, questions and the execution proof are v3's (``vulns``); the proof adds that
no two handlers reach the same class. ``slips``: the other handlers' names (function), the other
handlers' sink lines, the flawed handler's ``def`` line and the lines next to the sink (line).
"""

from __future__ import annotations

import random
from typing import Any

from families.security import vulns
from families.security.snippets import CLASSES, IMPORTS, TEMPLATES

CATEGORY = vulns.CATEGORY
FORMS = vulns.FORMS
ORDER = vulns.ORDER
Item = dict[str, Any]


def compose(rng: random.Random, flawed: str, level: int) -> tuple[str, list[str], list[str]]:
    """Module text, its handlers' classes and names (the flawed one first; the code lists them in
    a drawn order): 4 handlers of 4 classes, or all 6 classes on hard rows."""
    fill = vulns._fill(rng)
    others = rng.sample([c for c in ORDER if c != flawed], 5 if level == 2 else 3)
    filling = ("unsafe", rng.choice(("unsafe", "subtle")), "subtle")[level]
    blocks = [(flawed, vulns._block(rng, rng.choice(TEMPLATES[flawed]), filling, fill))]
    for cls in others:
        blocks.append((cls, vulns._block(rng, rng.choice(TEMPLATES[cls]), "safe", fill)))
    names = [text.split("(")[0].removeprefix("def ") for _, text in blocks]
    assert len(set(names)) == len(names), names
    shown = rng.sample(blocks, len(blocks))
    code = IMPORTS + "\n\n\n" + "\n\n\n".join(text for _, text in shown)
    return code, [cls for cls, _ in blocks], names


def build(rng: random.Random, level: int, form: int) -> Item:
    mc = FORMS[form] == "mc"
    flawed = rng.choice(ORDER) if mc else ORDER[(level + 3 * (form // 2)) % len(ORDER)]
    code, classes, names = compose(rng, flawed, level)
    culprit = names[0]
    listing = "\n".join(f"{i:>2}  {line}" for i, line in enumerate(code.split("\n"), start=1))
    intro = (
        "This Python module (line numbers on the left) handles web requests. Every function "
        "argument comes straight from the request, so an attacker controls it; db, send_file, "
        "Response, redirect, connect and read_secret are the application's own helpers and do "
        f"no checking of their own. Exactly one function is vulnerable.\n\n{listing}\n\n"
    )
    meta = {"kind": "vuln", "code": code, "flawed_class": flawed, "function": culprit}
    scorer = FORMS[form]
    if scorer == "numeric":
        q = (
            "On which line is the call that an attacker can abuse (or that is given a "
            "hard-coded secret)? Give the line number."
        )
        line = vulns._sink_line(code, culprit)
        return {"question": intro + q, "scorer": "numeric", "answer": str(line), "meta": meta}
    if scorer == "exact":
        q = "Which function is vulnerable? Give its name only."
        return {
            "question": intro + q,
            "scorer": "exact",
            "answer": [culprit, culprit + "()"],
            "meta": meta,
        }
    if form in (0, 4):
        kinds = sorted(rng.sample(classes[1:], 3), key=ORDER.index)
        return {
            "question": intro + "Which kind of vulnerability does it have?",
            "scorer": "mc",
            "correct": CLASSES[flawed],
            "distractors": [CLASSES[c] for c in kinds],
            "meta": meta,
        }
    return {
        "question": intro + "Which function is vulnerable?",
        "scorer": "mc",
        "correct": culprit,
        "distractors": rng.sample(names[1:], 3),
        "meta": meta,
    }


def prove(row: dict[str, Any]) -> None:
    vulns.prove(row)
    reached = vulns.run_handlers(row["meta"]["code"]).reached
    classes = [cls for found in reached.values() for cls in found]
    assert len(classes) == len(set(classes)) == len(reached), (row["id"], reached)


def slips(row: dict[str, Any]) -> tuple[list[Any], list[str]]:
    m = row["meta"]
    lines = m["code"].split("\n")
    heads = {
        line[4:].split("(")[0]: i + 1 for i, line in enumerate(lines) if line.startswith("def ")
    }
    others = [name for name in heads if name != m["function"]]
    if row["scorer"] == "exact":
        return others, []
    gold = int(row["answer"])
    return [
        *(_sink_or_head(m["code"], n, heads[n]) for n in others),
        heads[m["function"]],
        gold - 1,
        gold + 1,
    ], []


def _sink_or_head(code: str, function: str, head: int) -> int:
    """The line of ``function``'s sink call, or of its ``def`` when it has several."""
    try:
        return vulns._sink_line(code, function)
    except ValueError:
        return head
