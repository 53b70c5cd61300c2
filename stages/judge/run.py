"""``atlas judge W``: grade workload W's responses with the jury, calibrate it, gate its figures.

Inputs: the current run of W (``results/W/manifest.json`` and its journal records, never the
model under test itself), the study of ``judge.study`` (its track of W gives the rubric) and,
for the calibration, that study's human final labels (``results/review/<study>/outcome.json``)
with the run they judged: the jury also grades that run's responses, which the journal keeps.

Outputs: ``results/W/judge/<judge>.jsonl`` (each judge's journal), ``metrics/W.judge.json``
(signature, counts, the calibration and, only when it passed the gate, the provisional figures)
and ``metrics/verdicts/W.judge.jsonl`` (one line per item in the verdict-record shape
``atlas compare`` pairs: measure ``judge``; a withheld judge's lines carry no score).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.io import read_json, write_json
from stages.judge.calibration import Gate, Pair, calibrate, kappa
from stages.judge.grade import extract_grade
from stages.judge.prompt import judge_messages, prompt_signature
from stages.judge.send import Request, decoding, send_judgements
from stages.params import JudgeParams, RunParams, section
from stages.review.items import latest_responses, run_records, run_summary, workload_rows
from stages.review.render import response_sections
from stages.review.study import Study, StudyPaths, Track, load_study
from stages.review.summary import agreement_block
from stages.review.verdict_lines import write_lines

Which = tuple[str, str, int]  # (run key, row id, repeat)


@dataclass(frozen=True)
class Human:
    """The humans' final labels of a track and the run they judged."""

    run_key: str
    labels: dict[tuple[str, int], str | None]
    demo: bool


def _track(study: Study, workload: str, study_name: str) -> tuple[str, Track]:
    found = [(n, t) for n, t in study.tracks.items() if t.workload == workload]
    if len(found) != 1:
        raise AtlasError(
            f"review/studies/{study_name}.yaml: {len(found)} tracks review workload {workload!r};"
            " the judge takes its rubric from exactly one (params.yaml judge.study)"
        )
    return found[0]


def _human(paths: StudyPaths, track: str, field: str) -> tuple[Human | None, str | None]:
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


def _lower_median(grades: list[str], labels: list[str]) -> str | None:
    ranked = sorted(grades, key=labels.index)
    return ranked[(len(ranked) - 1) // 2] if ranked else None


def _grade(record: dict[str, Any] | None, labels: list[str]) -> tuple[str | None, str]:
    if record is None:
        return None, "missing"
    if record.get("error"):
        return None, f"failed:{record['error'].get('kind', 'unknown')}"
    grade = extract_grade(record.get("output") or "", labels)
    return grade, "graded" if grade is not None else "unparsed"


def _mean(grades: list[str | None]) -> float | None:
    parsed = [float(g) for g in grades if g is not None]
    return round(sum(parsed) / len(parsed), 6) if parsed else None


def judge_workload(name: str) -> dict[str, Any]:
    """Judge workload ``name`` from the project root; returns the metrics document written."""
    params = section(JudgeParams, "judge")
    run = section(RunParams, "run")
    study, paths = load_study(params.study)
    track_name, track = _track(study, name, params.study)
    rubric = study.rubric(track.rubric)
    field = rubric.score_field
    if field is None:
        raise AtlasError(f"rubric {track.rubric}: no ordinal score field for a judge to grade")
    labels = list(rubric.fields[field].labels)
    dataset, rows, repeats = workload_rows(name)
    by_id = dataset.row_by_id()
    manifest, current = latest_responses(name)
    current_run = str(manifest["run_key"])
    human, no_human = _human(paths, track_name, field)
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
    missing_calibration = 0
    if human is not None:
        reviewed = current if human.run_key == current_run else run_records(name, human.run_key)
        for row_id, repeat in human.labels:
            record = reviewed.get((row_id, repeat))
            if record is None or row_id not in by_id:
                missing_calibration += 1
            else:
                responses[(human.run_key, row_id, repeat)] = record
    requests = [
        Request(
            run_key, row_id, repeat, judge_messages(rubric, response_sections(by_id[row_id], r))
        )
        for (run_key, row_id, repeat), r in responses.items()
    ]
    grades: dict[str, dict[Which, tuple[str | None, str]]] = {}
    for judge_name, judge in params.judges.items():
        journal = Path("results") / name / "judge" / f"{judge_name}.jsonl"
        answered = send_judgements(
            name, judge_name, judge, requests, params.max_tokens, run, dataset, journal
        )
        grades[judge_name] = {w: _grade(answered.get(w), labels) for w in responses}

    def jury(which: Which) -> str | None:
        return _lower_median([g for g, _ in (grades[j][which] for j in grades) if g], labels)

    def group(row_id: str) -> str | None:
        meta = by_id[row_id].get("meta") or {}
        return str(meta[track.group_by]) if track.group_by and track.group_by in meta else None

    gate = Gate(params.min_kappa, params.min_items, params.max_unparsed_share)
    calibration: dict[str, Any]
    if human is None:
        calibration = {"status": "withheld", "reason": f"no calibration: {no_human}"}
    else:
        pairs = {
            judge_name: [
                Pair(f"{r}/{k}", group(r), final, grades[judge_name][(human.run_key, r, k)][0])
                for (r, k), final in human.labels.items()
                if (human.run_key, r, k) in responses
            ]
            for judge_name in grades
        }
        jury_pairs = [
            Pair(f"{r}/{k}", group(r), final, jury((human.run_key, r, k)))
            for (r, k), final in human.labels.items()
            if (human.run_key, r, k) in responses
        ]
        calibration = {
            "study": params.study,
            "demo": human.demo,
            "run_key": human.run_key,
            "same_run": human.run_key == current_run,
            "no_response": missing_calibration,
            **calibrate(jury_pairs, labels, gate),
        }
        if len(grades) > 1:
            calibration["per_judge"] = {
                j: kappa([p for p in ps if p.human is not None], labels, "quadratic")
                for j, ps in pairs.items()
            }
    current_items = [w for w in responses if w[0] == current_run]
    final = {w: jury(w) for w in current_items}
    statuses = [s for j in grades for w, (_, s) in grades[j].items() if w[0] == current_run]
    calibrated = calibration["status"] == "calibrated"
    groups = sorted({g for w in current_items if (g := group(w[1])) is not None})
    figures = {
        "mean": _mean(list(final.values())),
        "scale_max": float(labels[-1]),
        "graded": sum(g is not None for g in final.values()),
        "groups": {
            g: {"mean": _mean([final[w] for w in current_items if group(w[1]) == g]),
                "items": sum(group(w[1]) == g for w in current_items)}
            for g in groups
        },
    }  # fmt: skip
    jury_block = None
    if len(grades) > 1:
        from stages.review.agreement import Rating

        ratings = [
            Rating(f"{w[1]}/{w[2]}", j, g)
            for j in grades for w, (g, _) in grades[j].items() if w[0] == current_run and g
        ]  # fmt: skip
        jury_block = agreement_block(ratings, labels, ordinal=True)
    document = {
        "workload": name,
        "study": params.study,
        "track": track_name,
        "rubric": track.rubric,
        "provisional": True,
        "run_key": current_run,
        "signature": {
            **{k: v for k, v in run_summary(manifest).items() if k != "workload"},
            "scorers": {"judge": len(current_items)},
            "judge": {
                "prompt": prompt_signature(),
                "decoding": decoding(params.max_tokens),
                "grades": ",".join(labels),
                "combine": "lower median of the judges' parsed grades",
                "judges": {
                    j: {"model": m.name, "revision": m.revision, "endpoint": _where(m.base_url)}
                    for j, m in params.judges.items()
                },
            },
        },
        "items": len(current_items),
        "unparsed": statuses.count("unparsed"),
        "failed": sum(s.startswith("failed") for s in statuses),
        "calibration": calibration,
        "figures": figures if calibrated else None,
        "withheld": None if calibrated else calibration["reason"],
        "jury_agreement": jury_block,
    }
    write_json(Path("metrics") / f"{name}.judge.json", document)
    scale = [float(labels[0]), float(labels[-1])]
    lines = []
    for which in current_items:
        grade, record = final[which], responses[which]
        error = record.get("error") or {}
        lines.append({
            "id": which[1], "repeat": which[2], "cluster": which[1], "correct": None,
            "failed": error.get("kind") if error else None,
            "score": float(grade) if calibrated and grade is not None else None,
            "measure": "judge", "scale": scale, "grade": grade,
            "grades": {j: grades[j][which][0] for j in grades},
            "withheld": None if calibrated else calibration["reason"],
        })  # fmt: skip
    write_lines(Path("metrics/verdicts") / f"{name}.judge.jsonl", lines)
    return document


def _where(base_url: str | list[str]) -> str:
    from stages.inference.endpoint import public_url

    urls = [base_url] if isinstance(base_url, str) else base_url
    return ", ".join(u if u == "embedded" else public_url(u) for u in urls)
