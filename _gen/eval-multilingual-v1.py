# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-multilingual-v1: number words, calendar words and arithmetic in six languages (spec 001).

Languages: French, Spanish, German, Portuguese, Italian and Swahili (``meta.lang``). Rows mix
``contains`` (write a number in words, name a weekday or month), ``mc`` (recognise a number word,
translate a day or month name) and ``numeric`` (word problems, arithmetic on number words). Number
words come from per-language rules (``families.multilingual.numbers``), with every accepted spelling
variant (1990 French reform hyphens, Belgian/Swiss tens, Brazilian/European Portuguese, Italian
elision); day and month names and all phrasing from ``families.multilingual.lexicon``; the tasks
shared with -v2 and their proofs from ``tasks``. Superseded by eval-multilingual-v2 (issue 13: its
number-recognition options let the option sharing most words with the others win 12 of 20 rows).
``prove`` parses every number word back through a reverse index that must be injective over 0..999,
recomputes word problems from the digits in the prompt, and checks weekday and month shifts with
``datetime``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.multilingual import tasks
from families.multilingual.lexicon import (
    DAYS,
    EN_DAYS,
    EN_MONTHS,
    MONTHS,
    TRANSLATE_Q,
    WHICH_NUMBER,
    mc,
)
from families.multilingual.numbers import LANGS, NUMBER_WORDS, REVERSE

DATASET_ID = "eval-multilingual-v1"
KIND = "eval"
DESCRIPTION = (
    "Number words, weekday and month names, word problems and spoken arithmetic in French, "
    "Spanish, German, Portuguese, Italian and Swahili; contains, mc and numeric rows."
)
SEED = 1_000_505
COUNT = 140
CREATED = "2026-11-29"
DEFAULT_SCORER = "contains"
CATEGORIES = (
    "number_words",
    "weekdays",
    "months",
    "number_recognition",
    "vocabulary",
    "word_problems",
    "word_arithmetic",
)
SCORER_OF = {
    "number_words": "contains",
    "weekdays": "contains",
    "months": "contains",
    "number_recognition": "mc",
    "vocabulary": "mc",
    "word_problems": "numeric",
    "word_arithmetic": "numeric",
}
DIFFICULTIES = tasks.DIFFICULTIES
NUMBER_RANGES = tasks.NUMBER_RANGES


def _near(rng: random.Random, n: int, level: int) -> list[int]:
    """Three other numbers in the same range that look alike (digit swaps, one ten apart)."""
    lo, hi = NUMBER_RANGES[level]
    digits = str(n)
    pool = [int(digits[::-1]), n + 10, n - 10, n + 1, n - 1, n + 100, n - 100, n + 20, n - 20]
    if level == 2:
        pool.append(int(digits[1] + digits[0] + digits[2]))
    picks = [m for m in dict.fromkeys(pool) if lo <= m <= hi and m != n]
    rng.shuffle(picks)
    while len(picks) < 3:
        m = rng.randint(lo, hi)
        if m != n and m not in picks:
            picks.append(m)
    return picks[:3]


def _number_recognition(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    n = rng.randint(*NUMBER_RANGES[level])
    numbers = [n, *_near(rng, n, level)]
    rng.shuffle(numbers)
    words = [NUMBER_WORDS[lang](m)[0] for m in numbers]
    out = mc(lang, WHICH_NUMBER[lang].format(n=n), words, NUMBER_WORDS[lang](n)[0])
    return {**out, "meta": {"value": n}}


def _vocabulary(rng: random.Random, lang: str, level: int) -> dict[str, Any]:
    table, english = (DAYS, EN_DAYS) if level == 0 else (MONTHS, EN_MONTHS)
    k = rng.randrange(len(english))
    if level == 2:  # neighbours of the right month are the hardest distractors
        others = [(k + d) % 12 for d in (-2, -1, 1, 2)]
        others = rng.sample(others, 3)
    else:
        others = rng.sample([i for i in range(len(english)) if i != k], 3)
    indices = [k, *others]
    rng.shuffle(indices)
    options = [table[lang][i][0] for i in indices]
    out = mc(lang, TRANSLATE_Q[lang].format(en=english[k]), options, table[lang][k][0])
    return {**out, "meta": {"english": english[k]}}


BUILDERS = {
    "number_words": tasks.number_words,
    "weekdays": tasks.weekdays,
    "months": tasks.months,
    "number_recognition": _number_recognition,
    "vocabulary": _vocabulary,
    "word_problems": tasks.word_problems,
    "word_arithmetic": tasks.word_arithmetic,
}


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    category = CATEGORIES[idx % len(CATEGORIES)]
    j = idx // len(CATEGORIES)  # every language once per (category, difficulty) block
    lang, level = LANGS[j % len(LANGS)], (j // len(LANGS)) % len(DIFFICULTIES)
    built = BUILDERS[category](rng, lang, level)
    row = {
        "id": f"multi-{idx + 1:04d}",
        "category": category,
        "difficulty": DIFFICULTIES[level],
        "prompt": built["prompt"],
        "answer": built["answer"],
        "scorer": SCORER_OF[category],
        "meta": {**built["meta"], "lang": lang},
    }
    if "choices" in built:
        row["choices"] = built["choices"]
    return row


# --- proofs ----------------------------------------------------------------------------------


def _prove_recognition(row: dict[str, Any], lang: str) -> None:
    n = tasks.ints(row["prompt"].split("\n")[0])[0]
    values = [REVERSE[lang][c.casefold()] for c in row["choices"]]
    assert (
        values.count(n) == 1
        and len(set(values)) == 4
        and REVERSE[lang][tasks.chosen(row).casefold()] == n
    ), row["id"]


def _prove_vocabulary(row: dict[str, Any], lang: str) -> None:
    english = row["meta"]["english"]
    table, names = (DAYS, EN_DAYS) if english in EN_DAYS else (MONTHS, EN_MONTHS)
    canon = [v[0] for v in table[lang]]
    assert len(set(row["choices"])) == 4 and all(c in canon for c in row["choices"])
    assert canon.index(tasks.chosen(row)) == names.index(english) and english in row["prompt"]


PROVERS = {
    "number_words": tasks.prove_number_words,
    "weekdays": tasks.prove_weekdays,
    "months": tasks.prove_months,
    "number_recognition": _prove_recognition,
    "vocabulary": _prove_vocabulary,
    "word_problems": tasks.prove_problem,
    "word_arithmetic": tasks.prove_arithmetic,
}


def prove(row: dict[str, Any]) -> None:
    assert row["scorer"] == SCORER_OF[row["category"]]
    assert "'Answer: " in row["prompt"].splitlines()[-1]
    PROVERS[row["category"]](row, row["meta"]["lang"])


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    seen = {(r["category"], r["difficulty"], r["meta"]["lang"]) for r in rows}
    assert len(seen) == len(CATEGORIES) * len(DIFFICULTIES) * len(LANGS), len(seen)
    scorers = [r["scorer"] for r in rows]
    assert max(set(scorers), key=scorers.count) == DEFAULT_SCORER


def main(argv: list[str] | None = None) -> None:
    lib.run(
        dataset_id=DATASET_ID,
        kind=KIND,
        description=DESCRIPTION,
        generator_file=f"_gen/{Path(__file__).name}",
        seed=SEED,
        count=COUNT,
        default_scorer=DEFAULT_SCORER,
        created=CREATED,
        generate=generate,
        prove=prove,
        prove_all=prove_all,
        argv=argv,
    )


if __name__ == "__main__":
    main()
