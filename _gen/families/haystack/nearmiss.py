"""Near-miss needle recipes for eval-longctx-v2 (spec 001, "The haystack algorithm"; issue 13).

In eval-longctx-v1 the needle was the only line of its kind, so any five-digit number in the
document was the answer. Here a row asks for one code of one vault ("the gate code for vault
Plover") and the document also holds lines of exactly the same shape with other values: other
codes of the same vault and the same code of other vaults. The values of an asked line and its
distractors form a random tree of *near misses* (one digit changed, or two neighbouring digits
swapped), all five digits long, and the answer is a random node of that tree at a random rank
among those lines: neither the value's form, nor its place in the tree, nor the order of the
lines gives the answer away. Only reading the kind and the vault does.

All of these lines go into the recipe's ``needles`` list, because that is what haystack-v1's
``build.py`` inserts; the asked lines carry ``role: "needle"`` and an ``answer``, the others
``role: "distractor"``. The filler vocabulary holds neither the word "vault" nor any number of
five digits, so :func:`prove_document` can read every (kind, vault, value) fact back out of the
built document and re-answer the question from the text alone.
"""

from __future__ import annotations

import random
import re
from typing import Any

from families.haystack import build as builder
from families.haystack.needles import VAULTS

KINDS = ("access", "alarm", "gate", "safe")
FACT = re.compile(r"^Line \d{6}: The (\w+) code for vault (\w+) is (\d{5})\.$")
ASKED = re.compile(r"the (\w+) code for vault (\w+)")
#: Per asked fact: distractors from the same vault (other kind) and the same kind (other vault).
SINGLE_DISTRACTORS = (2, 2)
MULTI_DISTRACTORS = (1, 1)


def fact_text(kind: str, vault: str, value: int) -> str:
    return f"The {kind} code for vault {vault} is {value}."


def near_miss(rng: random.Random, value: int, taken: set[int]) -> int:
    """A five-digit value one edit away from ``value``: a changed digit or a neighbour swap."""
    while True:
        digits = list(str(value))
        if rng.random() < 0.5:
            i = rng.randrange(5)
            digits[i] = rng.choice([d for d in "0123456789" if d != digits[i]])
        else:
            i = rng.randrange(4)
            digits[i], digits[i + 1] = digits[i + 1], digits[i]
        candidate = int("".join(digits))
        if digits[0] != "0" and candidate != value and candidate not in taken:
            return candidate


def is_near_miss(a: str, b: str) -> bool:
    """Whether equal-length ``a`` and ``b`` differ in one digit or by one neighbour swap."""
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(diff) == 1:
        return True
    return (
        len(diff) == 2
        and diff[1] == diff[0] + 1
        and (a[diff[0]], a[diff[1]]) == (b[diff[1]], b[diff[0]])
    )


def question(asked: list[tuple[str, str]]) -> str:
    if len(asked) == 1:
        kind, vault = asked[0]
        return (
            f"What is the {kind} code for vault {vault}? "
            "End your reply with a line 'Answer: <code>'."
        )
    parts = [f"the {kind} code for vault {vault}" for kind, vault in asked]
    listed = ", ".join(parts[:-1]) + f" and {parts[-1]}"
    slots = ", ".join("<code>" for _ in asked)
    return (
        f"What are {listed}? Give the {len(asked)} codes in that order, separated by commas, "
        f"and end your reply with a line 'Answer: {slots}'."
    )


def near_miss_values(rng: random.Random, count: int, taken: set[int]) -> list[int]:
    """``count`` distinct five-digit values forming a random tree of near misses.

    Each value after the first is a near miss of a random earlier one, so no value is the
    centre by construction; the caller picks which of them is the answer.
    """
    first = rng.randrange(10_000, 100_000)
    while first in taken:
        first = rng.randrange(10_000, 100_000)
    values = [first]
    while len(values) < count:
        values.append(near_miss(rng, rng.choice(values), taken | set(values)))
    return values


def _lines_for(
    rng: random.Random,
    asked: tuple[str, str],
    depth: float,
    pairs: list[tuple[str, str]],
    before: int,
    taken: set[int],
) -> list[dict[str, Any]]:
    """The asked line and its distractors, in list order, with depths around ``depth``.

    The asked line comes at rank ``before`` among them: that many distractors get depths in
    ``[0, depth]`` and are listed first, the rest get ``[depth, 1]`` and are listed after it
    (haystack-v1 sorts by depth stably, so ties keep this order).
    """
    values = near_miss_values(rng, len(pairs) + 1, taken)
    taken.update(values)
    answer = values.pop(rng.randrange(len(values)))
    lines = []
    for i, ((kind, vault), value) in enumerate(zip(pairs, values, strict=True)):
        low, high = (0.0, depth) if i < before else (depth, 1.0)
        where = round(low + (high - low) * rng.random(), 3)
        lines.append({"depth": where, "role": "distractor", "text": fact_text(kind, vault, value)})
    needle = {
        "depth": depth,
        "role": "needle",
        "text": fact_text(*asked, answer),
        "answer": str(answer),
    }
    return [*lines[:before], needle, *lines[before:]]


def make_recipe(
    rng: random.Random,
    target_tokens: int,
    depths: tuple[float, ...],
    asked: list[tuple[str, str]],
    ranks: list[int],
) -> dict[str, Any]:
    """Seed, asked facts at ``depths`` and their near-miss distractors.

    ``ranks[i]``: how many of asked fact i's distractors precede it. The generator balances
    them across a dataset so that no position among the lines of this shape favours the answer.
    """
    same_vault, same_kind = SINGLE_DISTRACTORS if len(asked) == 1 else MULTI_DISTRACTORS
    asked_vaults = {vault for _, vault in asked}
    used = set(asked)
    taken: set[int] = set()
    needles: list[dict[str, Any]] = []
    for depth, (kind, vault), before in zip(sorted(depths), asked, ranks, strict=True):
        pairs = rng.sample([(k, vault) for k in KINDS if (k, vault) not in used], same_vault)
        others = [v for v in VAULTS if v not in asked_vaults and (kind, v) not in used]
        pairs += [(kind, v) for v in rng.sample(others, same_kind)]
        rng.shuffle(pairs)
        used.update(pairs)
        needles += _lines_for(rng, (kind, vault), depth, pairs, before, taken)
    return {
        "algorithm": builder.ALGORITHM,
        "seed": rng.randrange(1_000_000, 100_000_000),
        "target_tokens": target_tokens,
        "needles": needles,
        "question": question(asked),
        "answer": ", ".join(n["answer"] for n in needles if n["role"] == "needle"),
    }


def prove_document(recipe: dict[str, Any], label: str) -> list[str]:
    """Rebuild the document, re-answer the question from its text; return the answer codes.

    Checks the recorded facts (digest, size, line numbers), that every fact line has a unique
    (kind, vault), that nothing else in the document names a vault or a five-digit number, that
    every value has a near miss among the others, that each asked fact shares its vault and its
    kind with other lines, and that the recorded needles are exactly the asked lines.
    """
    document = builder.build_document(recipe)
    lines = document.split("\n")
    assert builder.document_sha256(document) == recipe["sha256"], label
    assert (len(document), len(lines)) == (recipe["chars"], recipe["lines"]), label
    assert recipe["approx_tokens"] == -(-len(document) // 4) >= recipe["target_tokens"], label
    facts: dict[tuple[str, str], str] = {}
    for number, line in enumerate(lines, 1):
        assert line.startswith(f"Line {number:06d}: "), f"{label}: line {number} misnumbered"
        match = FACT.match(line)
        if match is None:
            assert "vault" not in line and not re.search(r"\d{5}", line[13:]), (label, line)
            continue
        key = (match[1], match[2])
        assert key not in facts, f"{label}: {key} is stated twice"
        facts[key] = match[3]
    assert len(facts) == len(recipe["needles"]), label
    for needle in recipe["needles"]:
        assert FACT.match(lines[needle["line_number"] - 1]), f"{label}: needle line moved"
        assert lines[needle["line_number"] - 1][13:] == needle["text"], label
    asked = ASKED.findall(recipe["question"])
    answers = [facts[(kind, vault)] for kind, vault in asked]
    recorded = [n for n in recipe["needles"] if n["role"] == "needle"]
    assert [n["answer"] for n in recorded] == answers, f"{label}: needles are not the asked facts"
    values = list(facts.values())
    for key, value in facts.items():  # no value stands alone: each has a near miss beside it
        assert any(is_near_miss(value, v) for v in values if v != value), (label, key)
    for kind, vault in asked:  # each asked fact shares its vault and its kind with other lines
        assert any(k != kind and v == vault for k, v in facts), f"{label}: no same-vault line"
        assert any(k == kind and v != vault for k, v in facts), f"{label}: no same-kind line"
    return answers
