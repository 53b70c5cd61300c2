"""The per-record files ``atlas score`` writes (issues 10 and 15):

* ``results/<w>/scored.jsonl`` — the full scored record (dataset order), with no timing in it, so
  that scoring the same journal twice gives the same bytes; ``exhausted`` (the reason) only on a
  record that ran out while thinking;
* ``results/<w>/timings.jsonl`` — what was measured while answering or scoring, sorted by (id,
  repeat): time to first token and latency from the journal, the code sandbox's run time. Not
  tracked by git nor by DVC (``.dvcignore``): a measurement, different at every re-score;
* ``metrics/verdicts/<w>.jsonl`` — sorted by (id, repeat), one short git-tracked line per item and
  repeat that ``atlas compare`` pairs across revisions: id, repeat, cluster, correct, flexible (the
  lenient extraction's verdict, when scoring has one), failed, the extracted answer clipped to 60
  characters, ``score`` for graded scorers (DROP F1 on 0-1, sentence chrF++ on 0-100),
  ``isolation`` for code_exec verdicts (the sandbox mode the program ran under, issue 24) and
  ``exhausted: true`` on an answer that ran out while thinking (issue 33; absent otherwise).
  The public set's lines come first; then each fresh instance's (issue 13), each line ending
  with the instance ``seed``, so that ``atlas compare`` pairs instances by seed and id.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from stages.scoring.metrics import ScoredRecord

#: Fields of a scored record that are measurements, moved to ``timings.jsonl``.
TIMING_FIELDS = ("ttft_s", "latency_s")
#: Scorer extras that are measurements (the code sandbox's wall-clock time).
TIMING_EXTRAS = {"seconds": "sandbox_s"}
EXTRACTED_CHARS = 60
DIGITS = 6


def _compact(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def ordered(records: list[ScoredRecord]) -> list[ScoredRecord]:
    """Records sorted by (id, repeat): the order of every per-record file."""
    return sorted(records, key=lambda r: (r.id, r.repeat))


def scored_line(record: ScoredRecord) -> str:
    """One ``scored.jsonl`` line: the record without its timings."""
    data = asdict(record)
    for name in TIMING_FIELDS:
        data.pop(name, None)
    if data.get("exhausted") is None:  # only where an answer ran out: other lines keep their bytes
        data.pop("exhausted", None)
    data["extras"] = {k: v for k, v in data["extras"].items() if k not in TIMING_EXTRAS}
    return json.dumps(data, ensure_ascii=False)


def timing_line(record: ScoredRecord) -> str:
    """One ``timings.jsonl`` line: id, repeat and every measured duration of the record."""
    data: dict[str, Any] = {"id": record.id, "repeat": record.repeat}
    for name in TIMING_FIELDS:
        data[name] = getattr(record, name)
    for extra, name in TIMING_EXTRAS.items():
        if extra in record.extras:
            data[name] = record.extras[extra]
    return _compact(data)


def clip(text: str | None, limit: int = EXTRACTED_CHARS) -> str | None:
    """``text`` cut to ``limit`` characters, the last one an ellipsis when anything was cut."""
    if text is None or len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


def graded_score(record: ScoredRecord) -> float | None:
    """The graded figure of a record: DROP F1 (0-1) or sentence chrF++ (0-100), else None."""
    if record.scorer == "drop":
        value = record.extras.get("f1", 0.0)
    elif record.scorer == "chrf":
        value = record.score or 0.0
    else:
        return None
    return round(float(value), DIGITS)


def verdict_line(record: ScoredRecord, cluster: str, seed: int | None = None) -> str:
    """One ``metrics/verdicts/<w>.jsonl`` line (key order as in CONTRACTS.md); a record of a
    fresh instance ends with its ``seed`` (the public set's lines have none)."""
    data: dict[str, Any] = {
        "id": record.id,
        "repeat": record.repeat,
        "cluster": cluster,
        "correct": record.correct,
        "flexible": getattr(record, "correct_flexible", None),
        "failed": record.failed,
        "extracted": clip(record.extracted),
    }
    score = graded_score(record)
    if score is not None:
        data["score"] = score
    if record.extras.get("isolation"):
        data["isolation"] = record.extras["isolation"]
    if record.exhausted is not None:  # issue 33: ran out while thinking, apart from wrong
        data["exhausted"] = True
    if seed is not None:
        data["seed"] = seed
    return _compact(data)


def jsonl(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)
