# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-multilingual-v2: number words, calendar words and arithmetic in six languages, with
choice rows no answer-free rule passes (issue 13; supersedes eval-multilingual-v1).

Same languages, categories, scorers and layout as v1 (``meta.lang``; contains, mc and numeric
rows). The five open tasks come unchanged from ``tasks``; the two choice tasks are rebuilt in
``choice``: number recognition offers a 2 x 2 grid of look-alike numbers (v1's option sharing
most words with the others was right in 12 of 20 rows), vocabulary never asks a word spelled like
its English name (v1 asked for the German of "November"), and gold letters are planned so each is
right in exactly 10 of the 40 choice rows. Proofs as in v1: number words parse back through a
reverse index, weekday and month shifts walk real dates, sums are recomputed from the prompt.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from common import mc_plan as plan
from families.multilingual import choice, tasks
from families.multilingual.numbers import LANGS

DATASET_ID = "eval-multilingual-v2"
KIND = "eval"
DESCRIPTION = (
    "Number words, weekday and month names, word problems and spoken arithmetic in French, "
    "Spanish, German, Portuguese, Italian and Swahili; contains, mc and numeric rows; choice "
    "rows with look-alike option grids and balanced letters; supersedes eval-multilingual-v1."
)
SEED = 2_000_505
COUNT = 126  # 7 categories x 6 languages x 3 levels: each cell once, so no two rows can repeat
CREATED = "2026-12-01"
DEFAULT_SCORER = "contains"
#: category -> (scorer, builder, proof); builders of choice rows also take the planned slot
TASKS: dict[str, tuple[str, Any, Any]] = {
    "number_words": ("contains", tasks.number_words, tasks.prove_number_words),
    "weekdays": ("contains", tasks.weekdays, tasks.prove_weekdays),
    "months": ("contains", tasks.months, tasks.prove_months),
    "number_recognition": ("mc", choice.number_recognition, choice.prove_recognition),
    "vocabulary": ("mc", choice.vocabulary, choice.prove_vocabulary),
    "word_problems": ("numeric", tasks.word_problems, tasks.prove_problem),
    "word_arithmetic": ("numeric", tasks.word_arithmetic, tasks.prove_arithmetic),
}
CATEGORIES = tuple(TASKS)


def cell(idx: int) -> tuple[str, str, int]:
    """``(category, lang, level)``: every language once per (category, difficulty) block."""
    j = idx // len(CATEGORIES)
    return CATEGORIES[idx % len(CATEGORIES)], LANGS[j % len(LANGS)], (j // len(LANGS)) % 3


def slots() -> dict[int, int]:
    """Planned gold slot of every choice row: letters balanced over the dataset, dealt from the
    plan's own stream (row -1, which no row uses)."""
    mc = [(cell(i)[0], i) for i in range(COUNT) if TASKS[cell(i)[0]][0] == "mc"]
    return plan.letter_plan(lib.row_rng(SEED, -1), mc)


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    category, lang, level = cell(idx)
    scorer, build, _ = TASKS[category]
    planned = (slots()[idx],) if scorer == "mc" else ()  # choice rows take their slot
    built = build(rng, lang, level, *planned)
    row = {
        "id": f"multi2-{idx + 1:04d}",
        "category": category,
        "difficulty": tasks.DIFFICULTIES[level],
        "prompt": built["prompt"],
        "answer": built["answer"],
        "scorer": scorer,
        "meta": {**built["meta"], "lang": lang},
    }
    if "choices" in built:
        row["choices"] = built["choices"]
    return row


def prove(row: dict[str, Any]) -> None:
    scorer, _, proof = TASKS[row["category"]]
    assert row["scorer"] == scorer
    assert "'Answer: " in row["prompt"].splitlines()[-1]
    proof(row, row["meta"]["lang"])


def prove_all(rows: list[dict[str, Any]]) -> None:
    plan.check_balance_and_duplicates(rows)
    seen = {(r["category"], r["difficulty"], r["meta"]["lang"]) for r in rows}
    assert len(seen) == len(CATEGORIES) * 3 * len(LANGS), len(seen)


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
