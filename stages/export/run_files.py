"""What a revision holds of a scored run, read the way ``atlas compare`` reads it.

Everything comes from git-tracked files at the revision (:class:`Revision` of
:mod:`stages.compare.revisions`): ``metrics/<w>.json`` (figures, intervals, signature),
``metrics/verdicts/<w>.jsonl`` (one line per item and repeat) and ``datasets/<id>/rows.jsonl``
(prompt, gold, the bytes each row's sha256 is taken of). The raw answers in
``results/<w>/responses.jsonl`` are DVC outputs, absent from git: when the working directory
holds that journal, the answers of the revision's run (its ``run_key``) are taken from it;
otherwise the answer is the verdict line's extraction, clipped to 60 characters, and the record
says so.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages.compare.pairs import Item, Key, read_json_at, read_verdicts, workloads_at
from stages.compare.revisions import Revision
from stages.errors import AtlasError


@dataclass(frozen=True)
class DatasetRow:
    """One row of a dataset, as the export refers to it."""

    sha256: str
    """sha256 of the row's line in ``rows.jsonl`` (without its newline)."""
    prompt: str
    """The prompt text (a chat's messages as JSON)."""
    gold: str | None
    """The reference answer, when the row has one."""
    scorer: str | None
    """The row's scorer."""


@dataclass(frozen=True)
class ScoredWorkload:
    """One eval workload as scored at the revision."""

    name: str
    metrics: dict[str, Any]
    """``metrics/<w>.json``."""
    items: list[Item]
    """The public set's verdict lines, in file order (fresh-seed instances are left out)."""
    rows: dict[str, DatasetRow]
    """The dataset's rows by id ({} when the revision does not track them)."""
    answers: dict[Key, JournalAnswer]
    """Full answers of this run from the working directory's journal ({} without one)."""

    @property
    def signature(self) -> dict[str, Any]:
        return self.metrics.get("signature") or {}

    @property
    def dataset(self) -> dict[str, Any]:
        return self.signature.get("dataset") or {}


def _rows(revision: Revision, dataset_id: str | None) -> dict[str, DatasetRow]:
    data = revision.read(f"datasets/{dataset_id}/rows.jsonl") if dataset_id else None
    rows: dict[str, DatasetRow] = {}
    for number, line in enumerate((data or b"").split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            row_id = str(row["id"])
        except (json.JSONDecodeError, TypeError, KeyError) as exc:
            where = f"datasets/{dataset_id}/rows.jsonl:{number} at {revision.short}"
            raise AtlasError(f"{where}: not a dataset row with an id ({exc})") from exc
        prompt = row.get("prompt")
        if not isinstance(prompt, str):
            prompt = json.dumps(row.get("messages", prompt), ensure_ascii=False)
        gold = row.get("answer")
        rows[row_id] = DatasetRow(
            sha256=hashlib.sha256(line).hexdigest(),
            prompt=prompt,
            gold=gold if isinstance(gold, str) else None if gold is None else json.dumps(gold),
            scorer=row.get("scorer") if isinstance(row.get("scorer"), str) else None,
        )
    return rows


@dataclass(frozen=True)
class JournalAnswer:
    """What the response journal holds of one answer of the run."""

    text: str
    """The answer's text, its tool calls after it as JSON."""
    usage: dict[str, Any] | None
    """Token counts as the engine reported them."""
    ttft_s: float | None
    """Time to the first token."""
    latency_s: float | None
    """End-to-end latency."""


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _journal_answers(workload: str, run_key: str | None) -> dict[Key, JournalAnswer]:
    """The last journal line of each (id, repeat) with this run's key: the one scoring read."""
    path = Path("results") / workload / "responses.jsonl"
    if run_key is None or not path.is_file():
        return {}
    answers: dict[Key, JournalAnswer] = {}
    for line in path.read_text(encoding="utf-8").split("\n"):  # not U+2028 &c.
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a torn last line (docs/formats.md#response-journal)
        if not isinstance(entry, dict) or entry.get("run_key") != run_key:
            continue
        output = entry.get("output")
        text = output if isinstance(output, str) else ""
        if entry.get("tool_calls"):
            text += json.dumps(entry["tool_calls"], ensure_ascii=False)
        usage = entry.get("usage") if isinstance(entry.get("usage"), dict) else None
        key = (None, str(entry.get("id")), int(entry.get("repeat") or 0))
        answers[key] = JournalAnswer(
            text, usage, _number(entry.get("ttft_s")), _number(entry.get("latency_s"))
        )
    return answers


def _scored(revision: Revision, name: str) -> ScoredWorkload | None:
    """The workload when the revision has its eval metrics and verdicts, else None."""
    metrics = read_json_at(revision, f"metrics/{name}.json")
    if not metrics or metrics.get("kind") != "eval":
        return None
    verdicts = read_verdicts(revision, name) or {}
    items = [item for item in verdicts.values() if item.seed is None]
    if not items:
        return None
    signature = metrics.get("signature") or {}
    dataset_id = (signature.get("dataset") or {}).get("id")
    answers = _journal_answers(name, signature.get("run_key"))
    return ScoredWorkload(name, metrics, items, _rows(revision, dataset_id), answers)


def scored_workloads(revision: Revision, only: list[str] | None) -> list[ScoredWorkload]:
    """The eval workloads scored at ``revision`` (or those of ``only``), by name; an error when
    there is none, or when a named one is not scored there."""
    names = [n for n in workloads_at(revision) if "." not in n]  # not <w>.review, <w>.judge
    found = {n: w for n in names if (w := _scored(revision, n)) is not None}
    for name in only or []:
        if name not in found:
            raise AtlasError(
                f"workload {name!r} has no eval metrics and verdicts "
                f"(metrics/{name}.json, metrics/verdicts/{name}.jsonl) at {revision.short}"
            )
    if not found:
        raise AtlasError(
            f"{revision.short} has no scored eval workload (metrics/<w>.json beside "
            "metrics/verdicts/<w>.jsonl): nothing to export"
        )
    return [found[n] for n in (only or sorted(found))]


def committed_at(revision: Revision, workloads: list[ScoredWorkload]) -> int | None:
    """When the exported figures were committed: the time (Unix seconds) of the last commit up
    to the revision that changed one of their metrics files; None for the workspace."""
    if revision.commit is None:
        return None
    paths = [f"metrics/{w.name}.json" for w in workloads]
    shown = subprocess.run(
        ["git", "log", "-1", "--format=%ct", revision.commit, "--", *paths],
        capture_output=True,
        check=False,
    )
    text = shown.stdout.decode().strip()
    return int(text) if shown.returncode == 0 and text.isdigit() else None


def content_digest(revision: Revision, workloads: list[ScoredWorkload]) -> str:
    """sha256 of the exported workloads' metrics and verdict files: the same figures give the
    same digest, whichever commit or checkout they are read at."""
    digest = hashlib.sha256()
    for workload in sorted(workloads, key=lambda w: w.name):
        for path in (f"metrics/{workload.name}.json", f"metrics/verdicts/{workload.name}.jsonl"):
            data = revision.read(path) or b""
            digest.update(f"{path} {len(data)}\n".encode() + data)
    return digest.hexdigest()
