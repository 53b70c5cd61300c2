# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-multilingual-v3: number words, calendar words and arithmetic in six languages, scored so
that no wrong answer passes and no answer-free rule finds the gold, with probes for the audits
(issue 19; supersedes eval-multilingual-v2).

What v2 let through, and what v3 does instead:

* number words were scored ``contains``, so a *different* number whose spelling holds the gold's
  scored: "trente et un" for 30, "cent cinquante-trois" for 53, "mia moja tisini na mbili" for 92
  (multi2-0001, -0008, -0022, -0036, -0043, -0050, -0064, -0078, -0085, -0092, -0106, -0120).
  They are scored ``exact`` against every accepted spelling (1990-reform hyphens, Belgian and
  Swiss tens, Brazilian and European Portuguese, Swahili with and without "na"), so the reply
  must be the number and nothing else;
* vocabulary asked for the translation of a cognate month or weekday: the option spelled most
  like the English word was the gold in 15 of 18 rows. It now asks for the name a planned number
  of places before or after the English one, among the names at the level's offsets
  (``families.multilingual.neighbours``);
* a weekday shift of 42 days (multi2-0065) asked for the day the prompt names, so the prompt
  sent back scored: shifts are never a whole number of weeks (or of years, for months), and no
  numeric prompt states its answer (multi2-0083 did).

Same languages, categories, levels and layout as v2 (each category, language and level once);
number recognition keeps v2's 2 x 2 grid of look-alike numbers (``families.multilingual.choice``)
and the open tasks are v1's (``families.multilingual.tasks``). Every row carries ``probes``
(``families.multilingual.near_misses``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes
from common import mc_plan as plan
from common.plan_stream import plan_rng
from families.multilingual import choice, near_misses, neighbours, tasks
from families.multilingual.numbers import LANGS

DATASET_ID = "eval-multilingual-v3"
KIND = "eval"
DESCRIPTION = (
    "Number words (scored exact against every accepted spelling), weekday and month names, "
    "word problems and spoken arithmetic in French, Spanish, German, Portuguese, Italian and "
    "Swahili; exact, contains, mc and numeric rows; vocabulary asks for a neighbouring name, "
    "never a cognate's translation; balanced letters; rows carry probes; supersedes "
    "eval-multilingual-v2."
)
SEED = 3_000_505
COUNT = 126  # 7 categories x 6 languages x 3 levels: each cell once, so no two rows can repeat
CREATED = "2026-12-02"
DEFAULT_SCORER = "exact"
#: a shift by a whole number of these brings the start name back (weekdays, months)
PERIOD = {"weekdays": 7, "months": 12}
#: category -> (scorer, builder, proof)
TASKS: dict[str, tuple[str, Any, Any]] = {
    "number_words": ("exact", tasks.number_words, tasks.prove_number_words),
    "weekdays": ("contains", tasks.weekdays, tasks.prove_weekdays),
    "months": ("contains", tasks.months, tasks.prove_months),
    "number_recognition": ("mc", choice.number_recognition, choice.prove_recognition),
    "vocabulary": ("mc", neighbours.neighbour, neighbours.prove_neighbour),
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
    return plan.letter_plan(plan_rng(SEED, -1), mc)


def offsets() -> dict[int, int]:
    """The neighbour each vocabulary row asks for, dealt from its own stream (row -2)."""
    rows = [(cell(i)[2], i) for i in range(COUNT) if cell(i)[0] == "vocabulary"]
    return neighbours.offset_plan(plan_rng(SEED, -2), rows)


def _echoes(category: str, built: dict[str, Any]) -> bool:
    """Whether the prompt sent back would score: a shift that comes back to the start name, a
    numeric prompt stating its answer, spoken arithmetic whose result is an operand."""
    meta = built["meta"]
    if category in PERIOD:
        return meta["shift"] % PERIOD[category] == 0
    if category == "word_arithmetic" and int(built["answer"]) in meta["operands"]:
        return True
    return TASKS[category][0] == "numeric" and probes.states_gold(
        built["prompt"], built["answer"], meta
    )


def _build(rng: random.Random, idx: int) -> dict[str, Any]:
    category, lang, level = cell(idx)
    _, build, _ = TASKS[category]
    if category == "vocabulary":
        return neighbours.neighbour(rng, lang, level, slots()[idx], offsets()[idx])
    if category == "number_recognition":
        return build(rng, lang, level, slots()[idx])
    built = build(rng, lang, level)
    while _echoes(category, built):
        built = build(rng, lang, level)
    return built


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    category, lang, level = cell(idx)
    scorer = TASKS[category][0]
    built = _build(rng, idx)
    row = {
        "id": f"multi3-{idx + 1:04d}",
        "category": category,
        "difficulty": tasks.DIFFICULTIES[level],
        "prompt": built["prompt"],
        "answer": built["answer"],
        "scorer": scorer,
        "meta": {**built["meta"], "lang": lang},
    }
    if scorer == "numeric":
        row["meta"]["tolerance"] = 0  # counts: the default 1e-6 relative is looser than needed
    if "choices" in built:
        row["choices"] = built["choices"]
    return probes.with_probes(row, _prove_answer, near_misses.slips)


def _prove_answer(row: dict[str, Any]) -> None:
    scorer, _, proof = TASKS[row["category"]]
    assert row["scorer"] == scorer
    assert "'Answer: " in row["prompt"].splitlines()[-1]
    proof(row, row["meta"]["lang"])


def prove(row: dict[str, Any]) -> None:
    """The category's proof, no prompt that scores when sent back, and every option judged by
    the same proof as the generator."""
    _prove_answer(row)
    if row["category"] in ("weekdays", "months", "word_problems", "word_arithmetic"):
        assert not _echoes(row["category"], row), row["id"]
    if row["scorer"] == "mc":
        assert row["probes"]["option_ok"] == probes.verdicts(row, _prove_answer), row["id"]


def option_verdicts(row: dict[str, Any]) -> list[bool]:
    """The audit's uniqueness hook (``stages/datasets/uniqueness.py``): each option of an mc row
    judged by the row's proof with its letter put in, from what the row states (no gold)."""
    return probes.verdicts(row, _prove_answer)


def prove_all(rows: list[dict[str, Any]]) -> None:
    plan.check_balance_and_duplicates(rows)
    seen = {(r["category"], r["difficulty"], r["meta"]["lang"]) for r in rows}
    assert len(seen) == len(CATEGORIES) * 3 * len(LANGS), len(seen)
    for level, offsets_of_level in enumerate(neighbours.OFFSETS):  # six rows a level
        asked = [
            r["meta"]["offset"]
            for r in rows
            if r["category"] == "vocabulary" and r["difficulty"] == tasks.DIFFICULTIES[level]
        ]
        assert sorted({asked.count(o) for o in offsets_of_level}) == [1, 2], (level, asked)


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
