# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-multilingual-v4: eval-multilingual-v3's items, accepting every standard spelling of their
answer words (issue 30; supersedes eval-multilingual-v3).

What issue 30 found: "aout", août as the French spelling rectifications of 1990 write it, was
refused on the month rows (multi3-0045). v4 adds to the accepted answers the spellings of
``families.multilingual.spellings_v4``: French "aout", Spanish tens joined to their units
("treintaicuatro", as the RAE allows), German ss for ß and the Austrian "Feber", Portuguese
"cinqüenta" (Brazil before the 1990 agreement). v3 already took the rectified French hyphens
("vingt-et-un", "deux-cents"), Belgian and Swiss tens, both Portuguese standards and Swahili
with and without "na". Every added spelling is a probe alternative (the row's scorer must
accept it), and ``prove_all`` checks that no mc row offers two spellings of one number or name,
or two options that read alike once case, accents and hyphens are set aside.

Same seed, layout and items as v3 (``cell``: each category, language and level once), so
multi3-NNNN and multi4-NNNN ask the same question; only what is accepted changes. The open word
tasks are ``families.multilingual.tasks_v4`` (v3's builders and proofs over the longer
spelling lists), the rest v3's. Every row carries ``probes``
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
from families.multilingual import choice, near_misses, neighbours, spellings_v4, tasks, tasks_v4
from families.multilingual.numbers import LANGS

DATASET_ID = "eval-multilingual-v4"
KIND = "eval"
DESCRIPTION = (
    "Number words (scored exact against every accepted spelling), weekday and month names, "
    "word problems and spoken arithmetic in French, Spanish, German, Portuguese, Italian and "
    "Swahili; exact, contains, mc and numeric rows; answers accept reformed and national "
    "standard spellings (aout, treintaicuatro, dreissig, cinqüenta); vocabulary asks for a "
    "neighbouring name, never a cognate's translation; balanced letters; rows carry probes; "
    "supersedes eval-multilingual-v3."
)
SEED = 3_000_505
COUNT = 126  # 7 categories x 6 languages x 3 levels: each cell once, so no two rows can repeat
CREATED = "2026-12-04"
DEFAULT_SCORER = "exact"
#: a shift by a whole number of these brings the start name back (weekdays, months)
PERIOD = {"weekdays": 7, "months": 12}
#: category -> (scorer, builder, proof)
TASKS: dict[str, tuple[str, Any, Any]] = {
    "number_words": ("exact", tasks_v4.number_words, tasks_v4.prove_number_words),
    "weekdays": ("contains", tasks_v4.weekdays, tasks_v4.prove_weekdays),
    "months": ("contains", tasks_v4.months, tasks_v4.prove_months),
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
        "id": f"multi4-{idx + 1:04d}",
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
    for row in (r for r in rows if r["scorer"] == "mc"):  # no two spellings of one thing
        lang = row["meta"]["lang"]
        assert spellings_v4.no_two_variants(lang, row["category"], row["choices"]), row["id"]
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
