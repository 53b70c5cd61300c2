"""eval-multilingual-v2's two choice tasks, rebuilt so the options do not point at the gold
(issue 13), each with its proof.

Number recognition. In v1 the distractors were near misses *of the gold* (n +- 1, n +- 10, digit
swaps), so the option sharing most words with the others was usually the gold: 12 of 20 rows.
Here the four options are a 2 x 2 grid of numbers (two values in each of two digit places, e.g.
43, 47, 83, 87) listed in ascending order, and the gold is the grid cell at the planned slot. Every
option is a near miss of every other one, and which cell is asked does not depend on how the
words are built, so no option-only rule (overlap, length) beats a guess.

Vocabulary. v1 asked for the German of "November", which is "November": the prompt named the
gold. A target whose word is spelled like the English one is never asked now. The month choices
at the hardest level are four consecutive months with the target at a uniformly drawn position
(v1 took the target's two neighbours on each side, so the target was always an inner month).
"""

from __future__ import annotations

import random
from typing import Any

from common import mc_plan as plan

from families.multilingual.lexicon import (
    DAYS,
    EN_DAYS,
    EN_MONTHS,
    MONTHS,
    TRANSLATE_Q,
    WHICH_NUMBER,
    end,
)
from families.multilingual.numbers import NUMBER_WORDS, REVERSE
from families.multilingual.tasks import NUMBER_RANGES


def _mc(lang: str, question: str, options: list[str], slot: int) -> dict[str, Any]:
    listing = "\n".join(f"{plan.LETTERS[i]}. {text}" for i, text in enumerate(options))
    return {
        "prompt": f"{question}\n\n{listing}" + end(lang, 3),
        "choices": options,
        "answer": plan.LETTERS[slot],
    }


def grid(rng: random.Random, level: int) -> list[int]:
    """Four numbers in the level's range: two values in each of two digit places."""
    lo, hi = NUMBER_RANGES[level]
    while True:
        if level == 2:
            places = rng.sample((100, 10, 1), 2)
            base = rng.randint(lo, hi)
        else:
            places, base = [10, 1], 0
        a, b = (rng.sample(range(10), 2) for _ in places)
        cells = []
        for x in a:
            for y in b:
                n = base
                for place, digit in zip(places, (x, y), strict=True):
                    n += (digit - base // place % 10) * place
                cells.append(n)
        if all(lo <= n <= hi for n in cells) and len(set(cells)) == 4:
            return sorted(cells)


def number_recognition(rng: random.Random, lang: str, level: int, slot: int) -> dict[str, Any]:
    numbers = grid(rng, level)
    words = [NUMBER_WORDS[lang](n)[0] for n in numbers]
    gold = numbers[slot]
    out = _mc(lang, WHICH_NUMBER[lang].format(n=gold), words, slot)
    return {**out, "meta": {"value": gold, "grid": numbers}}


def vocabulary(rng: random.Random, lang: str, level: int, slot: int) -> dict[str, Any]:
    table, english = (DAYS, EN_DAYS) if level == 0 else (MONTHS, EN_MONTHS)
    names = [variants[0] for variants in table[lang]]
    askable = [i for i, e in enumerate(english) if names[i].casefold() != e.casefold()]
    k = rng.choice(askable)
    if level == 2:  # four consecutive months, the target anywhere among them
        start = k - rng.randrange(4)
        indices = [(start + d) % 12 for d in range(4)]
        others = [i for i in indices if i != k]
    else:
        others = rng.sample([i for i in range(len(english)) if i != k], 3)
    options = plan.place(rng, names[k], [names[i] for i in others], slot)
    out = _mc(lang, TRANSLATE_Q[lang].format(en=english[k]), options, slot)
    return {**out, "meta": {"english": english[k]}}


def prove_recognition(row: dict[str, Any], lang: str) -> None:
    """Every option parses back to a number; they form a 2 x 2 digit grid in ascending order;
    the option at the gold letter is the number the prompt asks for."""
    values = [REVERSE[lang][c.casefold()] for c in row["choices"]]
    asked = int(next(t for t in row["prompt"].split() if t.strip("?").isdigit()).strip("?"))
    assert values == sorted(values) and len(set(values)) == 4, row["id"]
    digits = [f"{v:03d}" for v in values]
    varying = [p for p in range(3) if len({d[p] for d in digits}) > 1]
    assert len(varying) == 2 and all(len({d[p] for d in digits}) == 2 for p in varying), row["id"]
    pairs = {(d[varying[0]], d[varying[1]]) for d in digits}
    assert len(pairs) == 4, row["id"]  # every combination of the two values present
    assert values[plan.LETTERS.index(row["answer"])] == asked, row["id"]


def prove_vocabulary(row: dict[str, Any], lang: str) -> None:
    english = row["meta"]["english"]
    table, names = (DAYS, EN_DAYS) if english in EN_DAYS else (MONTHS, EN_MONTHS)
    canon = [v[0] for v in table[lang]]
    chosen = row["choices"][plan.LETTERS.index(row["answer"])]
    assert len(set(row["choices"])) == 4 and all(c in canon for c in row["choices"]), row["id"]
    assert canon.index(chosen) == names.index(english) and english in row["prompt"], row["id"]
    assert chosen.casefold() != english.casefold(), row["id"]  # the prompt never names the gold
