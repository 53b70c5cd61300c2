"""Compose a -v3 eval suite from task-family modules, with exactly balanced mc letters (issue 13).

A family module (``_gen/families/security/ciphers.py``, ``_gen/families/reasoning/grid.py``, ...)
holds one task family and its own proof, and exposes:

* ``CATEGORY``: the rows' category;
* ``FORMS``: the scorer (``mc``, ``exact`` or ``numeric``) of each of its eight question forms,
  exactly four of them ``mc``;
* ``build(rng, level, form) -> item``: an item as ``common.v2.item_row`` takes it (``question``,
  ``scorer``, ``meta`` and ``answer``, or ``correct`` and ``distractors`` for mc);
* ``prove(row)``: recompute, brute-force or execute the answer of a finished row another way
  than ``build`` produced it, and assert it.

Layout: the family cycles fastest, then the difficulty level, then the form, so with 24 rows a
family every (level, form) pair occurs once. Gold letters: a family's twelve mc rows take A, B,
C and D three times each, in an order drawn once per family from the suite's seed, so the letters
are balanced exactly in every family and overall; the correct option is put at its letter and
the distractors fill the other places in an order drawn from the row's own generator.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from common import lib, v2

MC_OPTIONS = 4
FORM_COUNT = 8


def cell(idx: int, families: Sequence[ModuleType]) -> tuple[ModuleType, int, int]:
    """``(family, level, form)`` of row ``idx``."""
    turn = idx // len(families)
    return families[idx % len(families)], turn % 3, turn // 3 % FORM_COUNT


def gold_letters(seed: int, families: Sequence[ModuleType], count: int) -> dict[int, str]:
    """Row index -> gold letter for every mc row: each family's mc rows get A-D equally often."""
    out: dict[int, str] = {}
    for family in families:
        rows = [i for i in range(count) if _is_mc(i, families, family)]
        assert len(rows) % MC_OPTIONS == 0, (family.CATEGORY, len(rows))
        letters = list(v2.LETTERS[:MC_OPTIONS] * (len(rows) // MC_OPTIONS))
        random.Random(f"{seed}:letters:{family.CATEGORY}").shuffle(letters)
        out.update(zip(rows, letters, strict=True))
    return out


def _is_mc(idx: int, families: Sequence[ModuleType], family: ModuleType) -> bool:
    owner, _, form = cell(idx, families)
    return owner is family and family.FORMS[form] == "mc"


def placed_choices(
    rng: random.Random, question: str, correct: str, distractors: Sequence[str], letter: str
) -> tuple[str, list[str]]:
    """The mc prompt and choices with ``correct`` at ``letter``; distractors in a drawn order."""
    others = list(distractors)
    assert len(others) == MC_OPTIONS - 1 and len({correct, *others}) == MC_OPTIONS, others
    rng.shuffle(others)
    options = list(others)
    options.insert(v2.LETTERS.index(letter), correct)
    lines = "\n".join(f"{v2.LETTERS[i]}. {text}" for i, text in enumerate(options))
    return f"{question}\n\n{lines}{v2.MC_SUFFIX}", options


def build_row(
    rng: random.Random,
    row_id: str,
    families: Sequence[ModuleType],
    idx: int,
    letters: dict[int, str],
) -> dict[str, Any]:
    """Row ``idx``: its family builds the item from ``rng``; mc rows get their gold letter."""
    family, level, form = cell(idx, families)
    item = family.build(rng, level, form)
    assert item["scorer"] == family.FORMS[form], (family.CATEGORY, form, item["scorer"])
    difficulty = v2.DIFFICULTIES[level]
    meta = {**item["meta"], "form": form}
    if item["scorer"] == "mc":
        letter = letters[idx]
        prompt, choices = placed_choices(
            rng, item["question"], item["correct"], item["distractors"], letter
        )
        return v2.eval_row(row_id, family.CATEGORY, difficulty, prompt, letter, "mc", meta, choices)
    suffix = v2.NUMERIC_SUFFIX if item["scorer"] == "numeric" else v2.exact_suffix("the answer")
    return v2.eval_row(
        row_id,
        family.CATEGORY,
        difficulty,
        item["question"] + suffix,
        item["answer"],
        item["scorer"],
        meta,
    )


def prove_row(row: dict[str, Any], families: Sequence[ModuleType]) -> None:
    """Hand the row to its family's own proof."""
    (family,) = [f for f in families if row["category"] == f.CATEGORY]
    family.prove(row)


def check_suite(rows: list[dict[str, Any]], families: Sequence[ModuleType]) -> None:
    """Suite-wide proof: unique prompts, every category x difficulty, all three scorers, and gold
    letters balanced exactly in every category."""
    v2.check_suite(rows, [f.CATEGORY for f in families])
    for family in families:
        mc = [r["answer"] for r in rows if r["category"] == family.CATEGORY and r["scorer"] == "mc"]
        counts = Counter(mc)
        assert len(set(counts.values())) == 1 and len(counts) == MC_OPTIONS, (
            family.CATEGORY,
            counts,
        )
    lib.assert_unique(rows, lambda r: " ".join(r["prompt"].casefold().split()), "prompt")
