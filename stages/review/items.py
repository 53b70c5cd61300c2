"""What a study reviews: workload responses (Kouman tracks) or an audit sample of a corpus.

The item list depends only on the study file, params.yaml and the datasets — never on the model's
outputs — so blind ids (and the committed verdicts that use them) survive a re-run. A workload
sends its first ``limit`` rows, each ``repeats`` times (docs/running.md#quick-runs-and-full-runs).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stages.datasets.load import Dataset, load_dataset
from stages.errors import AtlasError
from stages.io import iter_jsonl, read_json
from stages.params import DecodingParams, RunParams, section, workload
from stages.review.audit import draw_sample
from stages.review.keys import ReviewItem
from stages.review.study import Study


def workload_rows(name: str) -> tuple[Dataset, list[dict[str, Any]], int]:
    """A workload's dataset, the rows it sends and how often each is sent."""
    params = workload(name)
    limit = params.limit or section(RunParams, "run").limit
    repeats = section(DecodingParams, "decoding").effective_repeats
    dataset = load_dataset(params.dataset)
    return dataset, dataset.rows[:limit] if limit else dataset.rows, repeats


def _flags(meta: dict[str, Any]) -> dict[str, bool]:
    return {k: v for k, v in meta.items() if isinstance(v, bool)}


def response_items(study: Study) -> list[ReviewItem]:
    """One item per (track, row, repeat) of every reviewed track."""
    items: list[ReviewItem] = []
    for track_name, track in study.tracks.items():
        rubric = study.rubric(track.rubric)
        _, rows, repeats = workload_rows(track.workload)
        for row in rows:
            meta = row.get("meta") or {}
            group = None
            if track.group_by is not None:
                if track.group_by not in meta:
                    raise AtlasError(
                        f"row {row['id']}: meta.{track.group_by} is missing "
                        f"(track {track_name} groups by it)"
                    )
                group = str(meta[track.group_by])
            for repeat in range(repeats):
                items.append(
                    ReviewItem(
                        key=f"{track_name}/{row['id']}/{repeat}",
                        track=track_name,
                        row_id=row["id"],
                        repeat=repeat,
                        fields={"1": rubric.fields_for(_flags(meta))},
                        group=group,
                    )
                )
    return items


def load_corpus(path: Path, stratum_field: str) -> dict[str, dict[str, Any]]:
    """Audit corpus rows by id; each needs an ``id`` and its stratum."""
    corpus: dict[str, dict[str, Any]] = {}
    for line, row in iter_jsonl(path):
        row_id, stratum = row.get("id"), row.get(stratum_field)
        if not isinstance(row_id, str) or not isinstance(stratum, str):
            raise AtlasError(f"{path}:{line}: id/{stratum_field}: both must be strings")
        if row_id in corpus:
            raise AtlasError(f"{path}:{line}: id: duplicate id {row_id!r}")
        corpus[row_id] = row
    return corpus


def audit_items(study: Study) -> list[ReviewItem]:
    """The stratified audit sample; an item enters pass two only when it has the pass's field."""
    audit = study.audit
    assert audit is not None
    corpus = load_corpus(Path(audit.corpus), audit.stratum_field)
    by_stratum: dict[str, list[str]] = {}
    for row_id, row in corpus.items():
        by_stratum.setdefault(row[audit.stratum_field], []).append(row_id)
    sample = draw_sample(by_stratum, audit.take, study.seed)
    items = []
    for stratum, ids in sample.items():
        for row_id in ids:
            row = corpus[row_id]
            flags = _flags(row)
            fields = {"1": study.rubric(audit.pass1.rubric).fields_for(flags)}
            passes = [1]
            if audit.pass2 and (audit.pass2.only_with is None or row.get(audit.pass2.only_with)):
                passes.append(2)
                fields["2"] = study.rubric(audit.pass2.rubric).fields_for(flags)
            score = row.get(audit.score_field) if audit.score_field else None
            items.append(
                ReviewItem(
                    key=f"audit/{row_id}",
                    track="audit",
                    row_id=row_id,
                    passes=tuple(passes),
                    fields=fields,
                    stratum=stratum,
                    score=float(score) if isinstance(score, int | float) else None,
                )
            )
    return items


def study_items(study: Study) -> list[ReviewItem]:
    return audit_items(study) if study.audit else response_items(study)


def latest_responses(name: str) -> tuple[dict[str, Any], dict[tuple[str, int], dict[str, Any]]]:
    """The workload's manifest and its journal records of the manifest's run, last one winning
    (the journal may also hold other models' records, docs/formats.md#response-journal)."""
    base = Path("results") / name
    manifest = read_json(base / "manifest.json")
    if not isinstance(manifest, dict) or "run_key" not in manifest:
        raise AtlasError(f"{base / 'manifest.json'}: run_key: missing")
    return manifest, run_records(name, manifest["run_key"])


def run_records(name: str, run_key: str) -> dict[tuple[str, int], dict[str, Any]]:
    """The journal records of one run of a workload by (row id, repeat), last one winning."""
    records: dict[tuple[str, int], dict[str, Any]] = {}
    for _, record in iter_jsonl(Path("results") / name / "responses.jsonl"):
        if record.get("run_key") == run_key:
            records[(str(record.get("id")), int(record.get("repeat") or 0))] = record
    return records


def run_summary(manifest: dict[str, Any]) -> dict[str, Any]:
    """What the key and the report keep of a manifest: the run, model, decoding, dataset."""
    return {k: manifest.get(k) for k in ("run_key", "model", "decoding", "dataset", "workload")}
