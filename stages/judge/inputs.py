"""What ``atlas judge W`` grades: the track's rubric, the current run's responses and, for the
calibration, the responses the study's reviewers judged with their final labels (issue 21)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stages.errors import AtlasError
from stages.io import read_json
from stages.review.items import latest_responses, run_records, workload_rows
from stages.review.rubrics import Rubric
from stages.review.study import Study, StudyPaths, Track, load_study

Which = tuple[str, str, int]
"""A judged response: (run key of the model under test, row id, repeat)."""


@dataclass(frozen=True)
class Human:
    """The humans' final labels of a track's score field and the run they judged."""

    run_key: str
    labels: dict[tuple[str, int], str | None]
    """Final label by (row id, repeat); None where the reviewers' disagreement is open."""
    demo: bool


@dataclass(frozen=True)
class Inputs:
    """Everything one ``atlas judge`` run grades and calibrates on."""

    study: Study
    track_name: str
    track: Track
    rubric: Rubric
    labels: list[str]
    """The score field's grades, lowest first."""
    rows: dict[str, dict[str, Any]]
    manifest: dict[str, Any]
    responses: dict[Which, dict[str, Any]]
    """Journal record of every response to grade: the current run's, then the reviewed run's."""
    human: Human | None
    no_human: str | None
    """Why there is no calibration, when ``human`` is None."""
    no_response: int
    """Reviewed items whose response the journal no longer holds."""

    @property
    def current_run(self) -> str:
        return str(self.manifest["run_key"])

    def group(self, row_id: str) -> str | None:
        meta = self.rows[row_id].get("meta") or {}
        by = self.track.group_by
        return str(meta[by]) if by and by in meta else None


def _track(study: Study, workload: str, study_name: str) -> tuple[str, Track]:
    found = [(n, t) for n, t in study.tracks.items() if t.workload == workload]
    if len(found) != 1:
        raise AtlasError(
            f"review/studies/{study_name}.yaml: {len(found)} tracks review workload {workload!r};"
            " the judge takes its rubric from exactly one (params.yaml judge.study)"
        )
    return found[0]


def human_labels(paths: StudyPaths, track: str, field: str) -> tuple[Human | None, str | None]:
    """The final labels of ``track`` from the study's last import, or why there are none."""
    outcome_file = paths.results / "outcome.json"
    if not outcome_file.is_file():
        return None, f"{outcome_file} is missing: no human verdicts imported for study {paths.name}"
    outcome = read_json(outcome_file)
    run = (outcome.get("runs", {}).get(track) or {}).get("run_key")
    labels: dict[tuple[str, int], str | None] = {}
    for entry in outcome.get("items", {}).values():
        item = entry["item"]
        fields = entry["passes"].get("1", {})
        if item["track"] == track and field in fields:
            labels[(item["row_id"], int(item["repeat"]))] = fields[field]["final"]
    if not run or not labels:
        return None, f"study {paths.name} has no imported verdicts of track {track}"
    return Human(run, labels, bool(outcome.get("demo"))), None


def judge_inputs(name: str, study_name: str) -> Inputs:
    """Read what judging workload ``name`` on study ``study_name``'s rubric needs."""
    study, paths = load_study(study_name)
    track_name, track = _track(study, name, study_name)
    rubric = study.rubric(track.rubric)
    field = rubric.score_field
    if field is None:
        raise AtlasError(f"rubric {track.rubric}: no ordinal score field for a judge to grade")
    dataset, rows, repeats = workload_rows(name)
    by_id = dataset.row_by_id()
    manifest, current = latest_responses(name)
    current_run = str(manifest["run_key"])
    responses: dict[Which, dict[str, Any]] = {}
    for row in rows:
        for repeat in range(repeats):
            record = current.get((row["id"], repeat))
            if record is None:
                raise AtlasError(
                    f"results/{name}/responses.jsonl: no response for row {row['id']} (repeat "
                    f"{repeat}) in the current run; run `atlas infer {name}` first"
                )
            responses[(current_run, row["id"], repeat)] = record
    human, no_human = human_labels(paths, track_name, field)
    missing = 0
    if human is not None:
        reviewed = current if human.run_key == current_run else run_records(name, human.run_key)
        for row_id, repeat in human.labels:
            record = reviewed.get((row_id, repeat))
            if record is None or row_id not in by_id:
                missing += 1
            else:
                responses[(human.run_key, row_id, repeat)] = record
    labels = list(rubric.fields[field].labels)
    return Inputs(
        study, track_name, track, rubric, labels, by_id, manifest, responses, human, no_human,
        missing,
    )  # fmt: skip
