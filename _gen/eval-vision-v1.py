# /// script
# requires-python = ">=3.11"
# dependencies = ["Pillow>=10"]
# ///
"""eval-vision-v1: questions about Pillow-drawn images (spec 001, "eval-vision-v1").

Four families, 30 rows each: coloured shapes to count, bar charts to read, analogue clocks to tell
and dice to add up. ``meta.ground_truth`` records what was drawn; the PNG at ``images/vis-XXXX.png``
is rendered from it alone (``families.vision.draw``). ``prove`` derives each answer twice,
independently of ``generate``: from the ground truth, and from the rendered pixels (connected
components, bar columns, hand rays, pip counts; ``families.vision.pixels``). A text-only model
should score near zero, and that is a real result. The question builders and both proofs live
in ``families.vision.questions``, which eval-vision-v2 shares.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.vision import questions
from families.vision.draw import render
from families.vision.questions import BAR_TOLERANCE, ITEMS, LETTER

DATASET_ID = "eval-vision-v1"
KIND = "eval"
DESCRIPTION = (
    "Counting shapes, reading bar charts, telling analogue clock times and adding dice, from "
    "small synthetic PNG images; answers proven from the ground truth and from the pixels."
)
SEED = 20_261_203
CREATED = "2026-12-01"
DEFAULT_SCORER = "numeric"
FAMILIES = ("shapes", "bars", "clock", "dice")
DIFFICULTIES = ("easy", "medium", "hard")
COUNT = 120


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    family = FAMILIES[idx % len(FAMILIES)]
    level = (idx // len(FAMILIES)) % len(DIFFICULTIES)
    make, qtypes = ITEMS[family]
    qtype = (idx // (len(FAMILIES) * len(DIFFICULTIES))) % qtypes
    # Clock hours follow the row index: the few easy clock times would otherwise repeat.
    extra = ((idx // 12 * 7) % 12 + 1,) if family == "clock" else ()
    gt, item = make(rng, level, qtype, *extra)
    scorer = item.get("scorer", "mc" if "choices" in item else "numeric")
    prompt = "Look at the image. " + item["q"]
    meta: dict[str, Any] = {"ground_truth": gt, "question_type": qtype, "ask": item["ask"]}
    row: dict[str, Any] = {
        "id": f"vis-{idx + 1:04d}",
        "category": family,
        "difficulty": DIFFICULTIES[level],
        "answer": item["answer"],
        "scorer": scorer,
        "image": f"images/vis-{idx + 1:04d}.png",
    }
    if "choices" in item:
        row["choices"] = item["choices"]
        prompt = prompt.replace(
            LETTER,
            "\n".join(f"{chr(65 + i)}. {c}" for i, c in enumerate(item["choices"])) + "\n" + LETTER,
        )
    if family == "bars" and scorer == "numeric":
        meta["tolerance"] = BAR_TOLERANCE
    row["prompt"], row["meta"] = prompt, meta
    return row


_PNGS: dict[str, bytes] = {}


def _png(row: dict[str, Any]) -> bytes:
    if row["id"] not in _PNGS:
        _PNGS[row["id"]] = render(row["category"], row["meta"]["ground_truth"])
    return _PNGS[row["id"]]


def prove(row: dict[str, Any]) -> None:
    assert questions.answer_from_truth(row) == row["answer"], f"{row['id']}: answer"
    assert questions.truth_from_pixels(row, _png(row)), (
        f"{row['id']}: pixels disagree with ground truth"
    )
    assert row["image"] == f"images/{row['id']}.png", row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: json.dumps([r["prompt"], r["meta"]], sort_keys=True), "item")
    lib.assert_unique(rows, _png, "image")
    assert Counter(r["category"] for r in rows) == {f: COUNT // len(FAMILIES) for f in FAMILIES}


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
