"""Write the DEMO verdict fixtures of ``review/studies/kouman-demo.yaml``. Synthetic, not human.

Not part of the pipeline: run once, from the repository root, after params.yaml lists the
``identity`` and ``translation`` workloads and their datasets exist::

    .venv/bin/python review/demo/make_demo_verdicts.py

It rebuilds the study's blind ids exactly as ``atlas review export`` does (they depend on the
study seed and the items sent, never on model outputs) and writes, for the two demo reviewers,
labels drawn from a seeded generator, plus an adjudication file for their disagreements. The
labels say nothing about the model; they exist so that ``dvc repro`` has verdicts to import.
Rerun it when a workload's ``limit`` or the study changes (the import then names any mismatch).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from stages.review.items import study_items, workload_rows
from stages.review.keys import Key, build_key
from stages.review.study import load_study

STUDY = "kouman-demo"
NOTICE = (
    "DEMO DATA: synthetic labels written by review/demo/make_demo_verdicts.py from a seeded "
    "generator. They are not a human judgement of any model output."
)
# Score weights by identity item kind (0, 1, 2) and for translation (0..4): a small model.
IDENTITY_WEIGHTS = {"direct": (25, 35, 40), "unsupported": (50, 35, 15), "false": (60, 30, 10)}
TRANSLATION_WEIGHTS = (10, 20, 30, 25, 15)


def _shift(rng: random.Random, label: int, top: int, chance: float) -> int:
    """The second reviewer sometimes lands one step away from the first."""
    if rng.random() >= chance:
        return label
    return min(top, max(0, label + rng.choice((-1, 1))))


def _identity(rng: random.Random, row: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    meta = row["meta"]
    kind = "false" if meta["false_premise"] else row["category"]
    kind = kind if kind in IDENTITY_WEIGHTS else "direct"
    score = rng.choices((0, 1, 2), IDENTITY_WEIGHTS[kind])[0]
    fabricated = rng.random() < {"direct": 0.2, "unsupported": 0.5, "false": 0.4}[kind]
    score = min(score, 1) if fabricated else score
    a = {"score": str(score), "fabrication": "yes" if fabricated else "no"}
    if meta["false_premise"]:
        accepted = rng.random() < 0.7
        a["score"] = "0" if accepted else a["score"]
        a["premise"] = "accepted" if accepted else "corrected"
    b = dict(a, score=str(_shift(rng, int(a["score"]), 2, 0.2)))
    if "premise" in a and rng.random() < 0.1:
        b["premise"] = "corrected" if a["premise"] == "accepted" else "accepted"
    if rng.random() < 0.1:
        b["fabrication"] = "no" if a["fabrication"] == "yes" else "yes"
    return a, b


def _translation(rng: random.Random) -> tuple[dict[str, str], dict[str, str]]:
    score = rng.choices(range(5), TRANSLATION_WEIGHTS)[0]
    return {"score": str(score)}, {"score": str(_shift(rng, score, 4, 0.25))}


def demo_labels(key: Key) -> dict[str, tuple[dict[str, str], dict[str, str]]]:
    """(first reviewer's, second reviewer's) labels of every blind id."""
    study, _ = load_study(STUDY)
    rows = {n: workload_rows(t.workload)[0].row_by_id() for n, t in study.tracks.items()}
    labels = {}
    for blind, item in key.items.items():
        rng = random.Random(f"{STUDY}\x1f{blind}")
        row = rows[item.track][item.row_id]
        labels[blind] = _identity(rng, row) if item.track == "identity" else _translation(rng)
    return labels


def _write(path: Path, document: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {path}")


def main() -> None:
    study, paths = load_study(STUDY)
    key = build_key(STUDY, study.seed, study.demo, study_items(study), study.reviewers)
    labels = demo_labels(key)
    for index, reviewer in enumerate(study.reviewers):
        verdicts = [
            {"id": blind, **labels[blind][index], "why": "demo"}
            for blind in key.order[reviewer]["1"]
        ]
        _write(
            paths.verdict_file(reviewer, 1),
            {
                "study": STUDY,
                "reviewer": reviewer,
                "pass": 1,
                "demo": True,
                "notice": NOTICE,
                "verdicts": verdicts,
            },
        )
    decisions = []
    for blind, (a, b) in sorted(labels.items()):
        for field in a:
            if a[field] != b[field]:
                final = min(a[field], b[field]) if field == "score" else a[field]
                why = "demo: the lower score" if field == "score" else "demo: first reviewer"
                decisions.append({"id": blind, "field": field, "label": final, "why": why})
    _write(
        paths.adjudication_file(1),
        {
            "study": STUDY,
            "pass": 1,
            "adjudicator": "demo-adjudicator",
            "demo": True,
            "notice": NOTICE,
            "decisions": decisions,
        },
    )


if __name__ == "__main__":
    main()
