"""Syllogism family of eval-reasoning-v4: eval-reasoning-v3's puzzles, the listed statements'
own labels accepted.

eval-reasoning-v3 labels the six statements of its typed form "(1)" to "(6)" but accepted only
bare numbers, so "(1), (2), (5)" was scored wrong on all 12 typed rows (issue 19: reason3-0058).
Here the puzzles are v3's (``syllogism.build``) and the typed form also accepts the numbers
written as their labels, in each of v3's joins, and with "and" before the last ("1, 2 and 5").

``slips``: the answer with one true statement left out, with one more listed statement added,
and the false statements alone. The proof is v3's (every Venn model of the premises).
"""

from __future__ import annotations

import random
from typing import Any

from families.reasoning import syllogism

CATEGORY = syllogism.CATEGORY
FORMS = syllogism.FORMS
Item = dict[str, Any]
prove = syllogism.prove
JOINS = (", ", ",", " ", " and ")


def spellings(numbers: list[str]) -> list[str]:
    """Every accepted way of writing the statement numbers, v3's first (the bare joins)."""
    labels = [f"({n})" for n in numbers]
    out = [j.join(numbers) for j in JOINS] + [j.join(labels) for j in JOINS]
    for parts in (numbers, labels):  # "1, 2 and 5", and with the serial comma "1, 2, and 5"
        head = ", ".join(parts[:-1])
        out.append(f"{head} and {parts[-1]}")
        if len(parts) > 2:
            out.append(f"{head}, and {parts[-1]}")
    return list(dict.fromkeys(out))


def build(rng: random.Random, level: int, form: int) -> Item:
    item = syllogism.build(rng, level, form)
    if item["scorer"] != "exact":
        return item
    numbers = item["answer"][0].split(", ")
    return {**item, "answer": spellings(numbers)}


def slips(row: dict[str, Any]) -> tuple[list[Any], list[str]]:
    right = row["answer"][0].split(", ")
    rest = [str(i) for i in range(1, len(row["meta"]["listed"]) + 1) if str(i) not in right]
    wrong = [[n for n in right if n != drop] for drop in right]
    wrong += [sorted([*right, extra], key=int) for extra in rest]
    wrong.append(rest)
    return [", ".join(w) for w in wrong if w], []
