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
from families.security.snippets import TEMPLATES

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
    return vulns.assemble(rng, blocks)


def build(rng: random.Random, level: int, form: int) -> Item:
    mc = FORMS[form] == "mc"
    flawed = rng.choice(ORDER) if mc else ORDER[(level + 3 * (form // 2)) % len(ORDER)]
    code, classes, names = compose(rng, flawed, level)
    return vulns.question(
        code,
        flawed,
        names[0],
        form,
        kinds=lambda: sorted(rng.sample(classes[1:], 3), key=ORDER.index),
        functions=lambda: rng.sample(names[1:], 3),
    )


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
