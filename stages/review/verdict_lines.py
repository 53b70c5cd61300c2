"""Verdict lines of review-scored tracks, so ``atlas compare`` pairs two revisions on them.

``atlas review import`` writes, per track of a responses study,
``metrics/verdicts/<w>.review.jsonl`` (one line per item: the humans' final label of the score
field as ``score``, ``measure`` ``review``, the rubric's ``scale``; an unresolved item has no
score and is not paired) and
``metrics/<w>.review.json`` (the signature a comparison checks: dataset id and sha256, model,
decoding, study, rubric). ``atlas judge W`` writes the same shape as ``<w>.judge`` with measure
``judge`` (:mod:`stages.judge.run`). Lines are in the verdict-record shape of the comparison
statistics (docs/formats.md#verdict-lines): id, repeat, cluster, correct, failed, score, measure,
scale.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stages.review.resolved import StudyOutcome

VERDICTS = Path("metrics/verdicts")


def lines_text(lines: list[dict[str, Any]]) -> str:
    """One compact JSON object per line, keys in the order given (as ``atlas score`` writes)."""
    return "".join(json.dumps(x, ensure_ascii=False, separators=(",", ":")) + "\n" for x in lines)


def review_documents(out: StudyOutcome) -> dict[str, tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Per reviewed workload: its ``<w>.review.json`` document and verdict lines."""
    documents: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
    for name, track in out.study.tracks.items():
        rubric = out.study.rubric(track.rubric)
        field = rubric.score_field
        resolved = out.passes.get(1)
        if field is None or resolved is None:
            continue
        labels = list(rubric.fields[field].labels)
        scale = [float(labels[0]), float(labels[-1])]
        items = sorted(
            ((i.row_id, i.repeat, b) for b, i in out.key.items.items() if i.track == name),
        )
        lines = []
        for row_id, repeat, blind in items:
            final = resolved[blind][field].final if field in resolved.get(blind, {}) else None
            lines.append({
                "id": row_id, "repeat": repeat, "cluster": row_id, "correct": None,
                "failed": None, "score": float(final) if final is not None else None,
                "measure": "review", "scale": scale,
            })  # fmt: skip
        run = dict(out.key.runs.get(name) or {})
        document = {
            "workload": track.workload,
            "study": out.key.study,
            "track": name,
            "rubric": track.rubric,
            "demo": out.key.demo or out.demo_verdicts,
            "run_key": run.get("run_key"),
            "signature": {
                "dataset": run.get("dataset"),
                "model": run.get("model"),
                "decoding": run.get("decoding"),
                "scorers": {"review": len(lines)},
            },
            "items": len(lines),
            "unresolved": sum(x["score"] is None for x in lines),
        }
        documents[track.workload] = (document, lines)
    return documents
