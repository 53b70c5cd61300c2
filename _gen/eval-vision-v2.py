# /// script
# requires-python = ">=3.11"
# dependencies = ["Pillow>=10"]
# ///
"""eval-vision-v2: eval-vision-v1's questions about Pillow-drawn images, with choice rows no
option-only rule passes and probes for the audits (issue 19; supersedes eval-vision-v1).

In v1 the option sharing most words with the other options was the gold in 54 % of the choice
rows (chance 25 %): every clock distractor was one slip from the shown time. v2 offers a 2 x 2
grid of clock readings (two hours times two minute values) with the shown time at a planned
letter, and plans which shape wins and which bar is tallest, each equally often
(``families.vision.choices``). Open answers are drawn first, uniformly over one range per family,
and the image built to fit (``families.vision.planned``): v1's likeliest answers (a count of 2
or 3, a quarter hour, a highest die of 6) let a reader who never saw the image guess, and the
dice now ask for totals (of all dice, of the even ones, of the odd ones) from three, four or five
dice. No numeric prompt states its own answer, and counts are scored exactly.

Same four families, levels, question types and layout as v1 (30 rows a family, question types
cycling over the rows), the same 256 x 256 palette PNGs (``families.vision.draw``) and v1's two
proofs (``families.vision.questions``): each answer from ``meta.ground_truth`` (dice totals by
``answer_from_truth`` here), and the ground truth read back from the pixels. Every row carries
``probes`` (``families.vision.near_misses``).
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib, probes
from common.plan_stream import plan_rng
from families.vision import choices, near_misses, planned, questions
from families.vision.draw import render
from families.vision.questions import BAR_TOLERANCE, ITEMS, LETTER

DATASET_ID = "eval-vision-v2"
KIND = "eval"
DESCRIPTION = (
    "Counting shapes, reading bar charts, telling analogue clock times and adding dice, from "
    "small synthetic PNG images; answers proven from the ground truth and from the pixels; "
    "choice rows whose options look alike whichever is right, planned winners and letters; "
    "open answers drawn uniformly over each family's range; rows carry probes; supersedes "
    "eval-vision-v1."
)
SEED = 30_261_203
CREATED = "2026-12-02"
DEFAULT_SCORER = "numeric"
FAMILIES = ("shapes", "bars", "clock", "dice")
DIFFICULTIES = ("easy", "medium", "hard")
COUNT = 120
CHOICE_QTYPE = {"shapes": 3, "bars": 1, "clock": 2}  # v1's question type of each choice form


def cell(idx: int) -> tuple[str, int, int]:
    """``(family, level, question type)`` of row ``idx``, as v1 lays rows out."""
    family = FAMILIES[idx % len(FAMILIES)]
    level = (idx // len(FAMILIES)) % len(DIFFICULTIES)
    return family, level, (idx // (len(FAMILIES) * len(DIFFICULTIES))) % ITEMS[family][1]


def _options(family: str, level: int) -> int:
    return {"shapes": 3, "bars": (4, 5, 6)[level], "clock": 4}[family]


def slots() -> dict[int, int]:
    """Planned slot of every choice row: the winning shape, the tallest bar's place (per level:
    the number of bars grows with it) and the clock's letter, dealt from the plan's stream."""
    rows = []
    for i in range(COUNT):
        family, level, qtype = cell(i)
        if CHOICE_QTYPE.get(family) == qtype:
            group = f"{family}:{level}" if family == "bars" else family
            rows.append((group, i, _options(family, level)))
    return choices.deal(plan_rng(SEED, -1), rows)


def _item(rng: random.Random, idx: int) -> tuple[dict[str, Any], dict[str, Any]]:
    family, level, qtype = cell(idx)
    hour = (idx // 12 * 7) % 12 + 1  # clock hours follow the row index, as in v1
    if CHOICE_QTYPE.get(family) == qtype:
        slot = slots()[idx]
        if family == "shapes":
            return choices.most_common_shape(rng, level, slot)
        if family == "bars":
            return choices.tallest_bar(rng, level, slot)
        # an hour of its own: v1's follows the row index, so three choice rows in a row showed
        # the same hour, and that hour's readings were the gold in each (a word prior's pick)
        return choices.clock_grid(rng, level, rng.randint(1, 12), slot)
    while True:
        if family == "clock" and qtype == 0:  # the time itself: v1's exact question
            gt, item = ITEMS["clock"][0](rng, level, qtype, hour)
        elif family == "clock":
            gt, item = planned.clock_minutes(rng, level, hour)
        else:
            gt, item = getattr(planned, family)(rng, level, qtype)
        meta = {"tolerance": BAR_TOLERANCE if family == "bars" else 0}
        if item.get("scorer") == "exact" or not probes.states_gold(item["q"], item["answer"], meta):
            return gt, item


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    family, level, qtype = cell(idx)
    gt, item = _item(rng, idx)
    scorer = item.get("scorer", "mc" if "choices" in item else "numeric")
    prompt = "Look at the image. " + item["q"]
    meta: dict[str, Any] = {"ground_truth": gt, "question_type": qtype, "ask": item["ask"]}
    row: dict[str, Any] = {
        "id": f"vis2-{idx + 1:04d}",
        "category": family,
        "difficulty": DIFFICULTIES[level],
        "answer": item["answer"],
        "scorer": scorer,
        "image": f"images/vis2-{idx + 1:04d}.png",
    }
    if "choices" in item:
        row["choices"] = item["choices"]
        listing = "\n".join(f"{chr(65 + i)}. {c}" for i, c in enumerate(item["choices"]))
        prompt = prompt.replace(LETTER, listing + "\n" + LETTER)
    if scorer == "numeric":
        meta["tolerance"] = BAR_TOLERANCE if family == "bars" else 0
    row["prompt"], row["meta"] = prompt, meta
    return probes.with_probes(row, _prove_answer, near_misses.slips)


@cache
def _render(family: str, truth: str) -> bytes:
    """The PNG of a ground truth (cached by what is drawn, never by row id: a fresh instance
    draws a row again under the same id)."""
    return render(family, json.loads(truth))


def _png(row: dict[str, Any]) -> bytes:
    return _render(row["category"], json.dumps(row["meta"]["ground_truth"], sort_keys=True))


def answer_from_truth(row: dict[str, Any]) -> Any:
    """The answer recomputed from ``meta.ground_truth``: v1's rule, and the totals of v2's dice
    questions (``planned.dice_total``)."""
    truth = row["meta"]["ground_truth"]
    if row["category"] == "dice":
        values = [d["value"] for d in truth["dice"]]
        return planned.dice_total(values, row["meta"]["question_type"])
    if row["scorer"] == "mc" and row["category"] == "shapes":  # options in the row's own order
        kinds = [s["shape"] for s in truth["shapes"]]
        return probes.LETTERS[row["choices"].index(max(row["choices"], key=kinds.count))]
    if row["scorer"] == "mc" and row["category"] == "bars":
        tallest = truth["values"].index(max(truth["values"]))
        return probes.LETTERS[row["choices"].index(f"bar {tallest + 1}")]
    return questions.answer_from_truth(row)


def _prove_answer(row: dict[str, Any]) -> None:
    assert answer_from_truth(row) == row["answer"], f"{row['id']}: answer"


def prove(row: dict[str, Any]) -> None:
    """v1's two proofs (answer from the ground truth, ground truth from the pixels), the clock
    grid, no numeric prompt stating its answer, every option judged by the answer's proof."""
    _prove_answer(row)
    assert questions.truth_from_pixels(row, _png(row)), f"{row['id']}: pixels disagree"
    assert row["image"] == f"images/{row['id']}.png", row["id"]
    if row["scorer"] == "mc":
        if row["category"] == "clock":
            choices.check_grid(row)
        assert row["probes"]["option_ok"] == probes.verdicts(row, _prove_answer), row["id"]
    if row["scorer"] == "numeric":
        assert not probes.states_gold(row["prompt"], row["answer"], row["meta"]), row["id"]


def option_verdicts(row: dict[str, Any]) -> list[bool]:
    """The audit's uniqueness hook (``stages/datasets/uniqueness.py``): each option of an mc row
    judged by the row's proof with its letter put in, from what the row states (no gold)."""
    return probes.verdicts(row, _prove_answer)


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: json.dumps([r["prompt"], r["meta"]], sort_keys=True), "item")
    lib.assert_unique(rows, _png, "image")
    assert Counter(r["category"] for r in rows) == {f: COUNT // len(FAMILIES) for f in FAMILIES}
    for family in CHOICE_QTYPE:  # every planned winner equally often (within one)
        golds = Counter(
            r["answer"] for r in rows if r["scorer"] == "mc" and r["category"] == family
        )
        if family != "bars":
            assert max(golds.values()) - min(golds.values()) <= 1, (family, golds)


def extra_files(rows: list[dict[str, Any]]) -> dict[str, bytes]:
    return {row["image"]: _png(row) for row in rows}


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
        extra_files=extra_files,
        argv=argv,
    )


if __name__ == "__main__":
    main()
