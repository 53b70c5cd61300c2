"""Gold letters balanced exactly across a dataset, and option sets that hide the gold (issue 13).

A generator that shuffles each row's options with the row's own ``random.Random`` gets letter
counts that drift (eval-science-v2 ended with D gold 6 times in 42). Here the letters are planned
for the whole dataset before any row is built:

* ``letter_plan`` deals the mc rows, grouped by category, letters from a stream of shuffled
  ``ABCD`` blocks: every letter is gold exactly ``n / 4`` times in the dataset and within one
  of that in each category. The deal draws from its own ``random.Random``.
* ``place`` puts the correct text at the planned slot among shuffled distractors.
* ``by_rank`` builds numeric options listed in ascending order with the gold at the planned
  rank, so "the middle value" or "the largest value" is right exactly as often as any letter.
  Distractors come from a pool of wrong-method values (near misses of the same form); every
  option stays at least ``gap`` (relative) away from every other one.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from common import v2

LETTERS = "ABCD"
K = len(LETTERS)
T = TypeVar("T")
Item = dict[str, Any]


def letter_plan(rng: random.Random, mc_rows: Sequence[tuple[str, int]]) -> dict[int, int]:
    """Gold slot (0..3) of every mc row, given as ``(category, row index)`` pairs.

    ``rng`` is the plan's own stream: generators pass ``lib.row_rng(SEED, -1)``, a stream no
    row uses, so the plan changes with the seed exactly as the rows do.
    """
    if len(mc_rows) % K:
        raise ValueError(f"{len(mc_rows)} mc rows cannot balance {K} letters exactly")
    ordered = sorted(mc_rows)  # category by category, rows in index order
    slots: dict[int, int] = {}
    block: list[int] = []
    for _, idx in ordered:
        if not block:
            block = list(range(K))
            rng.shuffle(block)
        slots[idx] = block.pop()
    return slots


def family_cell(families: Mapping[str, Any], idx: int) -> tuple[str, int, int]:
    """``(category, level, turn)`` of row ``idx`` in a suite of family modules keyed by category:
    the category cycles fastest, then the level; ``turn`` is the row's position within its
    category and ``turn // 3`` picks the family's form."""
    categories = tuple(families)
    category, turn = categories[idx % len(categories)], idx // len(categories)
    return category, turn % 3, turn


def family_form(families: Mapping[str, Any], idx: int) -> tuple[str, str]:
    """``(builder name, scorer)`` of row ``idx``: the next of its family's ``FORMS``."""
    category, _, turn = family_cell(families, idx)
    forms = families[category].FORMS
    return forms[(turn // 3) % len(forms)]


def family_slots(families: Mapping[str, Any], count: int, rng: random.Random) -> dict[int, int]:
    """Planned gold slot of every mc row of a family suite, letters balanced over the dataset
    (``rng`` as for ``letter_plan``)."""
    mc = [
        (family_cell(families, i)[0], i)
        for i in range(count)
        if family_form(families, i)[1] == "mc"
    ]
    return letter_plan(rng, mc)


def shuffled_slots(families: Mapping[str, Any], count: int, rng: random.Random) -> dict[int, int]:
    """Planned gold slot of every mc row of a family suite: each letter exactly as often over the
    dataset, dealt to the rows by one shuffle, not block by block within each family.

    ``family_slots`` balances every family exactly, so a family's other rows tell which letters
    it has left; where the options' order carries their meaning (ascending values, a fixed order
    of kinds), the option text least often right in the family's other rows is right here more
    often than chance, which the audit's out-of-fold priors learn (issue 19)."""
    mc = [i for i in range(count) if family_form(families, i)[1] == "mc"]
    if len(mc) % K:
        raise ValueError(f"{len(mc)} mc rows cannot balance {K} letters exactly")
    letters = [slot for slot in range(K) for _ in range(len(mc) // K)]
    rng.shuffle(letters)
    return dict(zip(mc, letters, strict=True))


def place(rng: random.Random, correct: T, distractors: Sequence[T], slot: int) -> list[T]:
    """The options: ``distractors`` in an order drawn from ``rng``, ``correct`` at ``slot``."""
    others = list(distractors)
    if len(others) != K - 1:
        raise ValueError(f"need {K - 1} distractors, got {len(others)}")
    rng.shuffle(others)
    options = [*others[:slot], correct, *others[slot:]]
    if len(set(map(repr, options))) != K:
        raise ValueError(f"options repeat: {options}")
    return options


def far_apart(values: Sequence[float], gap: float) -> bool:
    """Every pair of values differs by more than ``gap`` relative to the larger magnitude."""
    ordered = sorted(values)
    return all(
        b - a > gap * max(abs(a), abs(b)) for a, b in zip(ordered, ordered[1:], strict=False)
    )


def by_rank(
    rng: random.Random,
    gold: float,
    pool: Sequence[float],
    slot: int,
    gap: float,
    shown: Callable[[float], str] = str,
) -> list[float] | None:
    """Four ascending values with ``gold`` at index ``slot``, or None when ``pool`` cannot.

    ``slot`` distractors are drawn (by ``rng``) from pool values below the gold and the rest
    from values above it; values too close to the gold or to each other, or that ``shown``
    renders like another option, are dropped first.
    """
    candidates: list[float] = []
    for value in sorted(set(pool)):
        if value > 0 and far_apart([gold, *candidates, value], gap):
            candidates.append(value)
    below = [v for v in candidates if v < gold]
    above = [v for v in candidates if v > gold]
    if len(below) < slot or len(above) < K - 1 - slot:
        return None
    picked = rng.sample(below, slot) + rng.sample(above, K - 1 - slot)
    options = sorted([gold, *picked])
    if len({shown(v) for v in options}) != K or not far_apart(options, gap):
        return None
    return options


def mc_item(question: str, options: list[str], slot: int, meta: dict[str, Any]) -> Item:
    """An mc item whose options are already in their final order, gold at ``slot``."""
    assert len(options) == K and len(set(options)) == K, options
    return {"question": question, "scorer": "mc", "options": options, "slot": slot, "meta": meta}


def item_row(
    row_id: str, category: str, level: int, item: Item, exact_shape: str
) -> dict[str, Any]:
    """The eval row of an item, laid out exactly as the -v2 suites lay theirs out
    (``common.v2``): labelled options and the letter line for mc, else the answer line (an
    exact item may name its own answer ``shape``; ``exact_shape`` is the default)."""
    difficulty = v2.DIFFICULTIES[level]
    if item["scorer"] == "mc":
        lines = "\n".join(f"{LETTERS[i]}. {text}" for i, text in enumerate(item["options"]))
        prompt = f"{item['question']}\n\n{lines}{v2.MC_SUFFIX}"
        return v2.eval_row(
            row_id,
            category,
            difficulty,
            prompt,
            LETTERS[item["slot"]],
            "mc",
            item["meta"],
            list(item["options"]),
        )
    shape = item.get("shape", exact_shape)
    suffix = v2.NUMERIC_SUFFIX if item["scorer"] == "numeric" else v2.exact_suffix(shape)
    return v2.eval_row(
        row_id,
        category,
        difficulty,
        item["question"] + suffix,
        item["answer"],
        item["scorer"],
        item["meta"],
    )


def gold_text(row: dict[str, Any]) -> str:
    """The text of an mc row's gold option (after checking the prompt lists the options)."""
    return v2.check_mc_layout(row)


#: Numbers with their marks, words, and every symbol but sentence punctuation, brackets and
#: quotes: "10^-18" is not "10^18" (the same tokens as the check's ``identity_text``).
_IDENTITY = re.compile(r"\d+(?:[.,]\d+)*|\w+|[^\w\s.,;:!?'\"()\[\]{}«»“”‘’`]")


def _bare(text: str) -> str:
    text = " ".join(unicodedata.normalize("NFKC", text).casefold().split()).replace("\u2212", "-")
    return " ".join(_IDENTITY.findall(text))


def item_key(row: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """What makes two rows the same question: the prompt without its option list, normalised
    (NFKC, case-folded, spacing, sentence punctuation, brackets and quotes dropped; signs and
    operators kept), and the options in any order."""
    prompt = row["prompt"]
    for i, text in enumerate(row.get("choices") or []):
        prompt = prompt.replace(f"\n{LETTERS[i]}. {text}", "")
    return _bare(prompt), tuple(sorted(_bare(c) for c in row.get("choices") or []))


def check_balance_and_duplicates(rows: list[dict[str, Any]]) -> None:
    """Suite-wide: every letter gold equally often over 4-option rows; no near-duplicates."""
    mc = [r for r in rows if r["scorer"] == "mc"]
    assert all(len(r["choices"]) == K for r in mc), "every mc row has four options"
    counts = {x: sum(r["answer"] == x for r in mc) for x in LETTERS}
    assert len(set(counts.values())) == 1, f"gold letters unbalanced: {counts}"
    seen: dict[tuple[str, tuple[str, ...]], str] = {}
    for row in rows:
        key = item_key(row)
        assert key not in seen, f"{row['id']} repeats {seen[key]}"
        seen[key] = row["id"]
