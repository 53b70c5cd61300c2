"""``atlas judge W``: grade workload W's responses with the jury, calibrate it, gate its figures.

Inputs (:mod:`stages.judge.inputs`): the current run of W (its manifest and journal records,
never the model under test itself), the rubric of the ``judge.study`` track that reviews W and,
for the calibration, that study's human final labels with the run they judged: the jury also
grades that run's responses, which the journal keeps.

Outputs: ``results/W/judge/<judge>.jsonl`` (each judge's journal), ``metrics/W.judge.json``
(signature, counts, the calibration and, only when it passed the gate, the provisional figures
and the ``corrected`` figures of the items no human labelled, :mod:`stages.judge.corrected`)
and ``metrics/verdicts/W.judge.jsonl`` (one line per item in the verdict-record shape
``atlas compare`` pairs: measure ``judge``; a withheld judge's lines carry no score).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stages.judge.calibration import Gate, Pair, calibrate, kappa
from stages.judge.corrected import corrected_block
from stages.judge.grade import RULE, extract_grade
from stages.judge.inputs import Inputs, Which, judge_inputs
from stages.judge.prompt import judge_messages, prompt_signature
from stages.judge.send import Request, decoding, send_judgements
from stages.outputs import output_set
from stages.params import (
    JudgeParams,
    ModelParams,
    ReplicaParams,
    RunParams,
    judge_models,
    section,
)
from stages.review.agreement import Rating
from stages.review.items import run_summary, workload_rows
from stages.review.render import response_sections
from stages.review.summary import agreement_block
from stages.review.verdict_lines import VERDICTS, lines_text

Grades = dict[str, dict[Which, tuple[str | None, str]]]
"""Per judge, per response: (grade or None, status: graded, unparsed, failed:<kind>)."""


def _grade(record: dict[str, Any] | None, labels: list[str], asked: str) -> tuple[str | None, str]:
    if record is None:
        return None, "missing"
    if record.get("error"):
        return None, f"failed:{record['error'].get('kind', 'unknown')}"
    grade = extract_grade(record.get("output") or "", labels, asked)
    return grade, "graded" if grade is not None else "unparsed"


def lower_median(grades: list[str], labels: list[str]) -> str | None:
    """The jury's grade: the lower median of the parsed grades (None when none parsed)."""
    ranked = sorted(grades, key=labels.index)
    return ranked[(len(ranked) - 1) // 2] if ranked else None


def _mean(grades: list[str | None]) -> float | None:
    parsed = [float(g) for g in grades if g is not None]
    return round(sum(parsed) / len(parsed), 6) if parsed else None


def _calibration(inputs: Inputs, grades: Grades, jury: dict[Which, str | None],
                 params: JudgeParams) -> dict[str, Any]:  # fmt: skip
    human = inputs.human
    if human is None:
        return {"status": "withheld", "reason": f"no calibration: {inputs.no_human}"}
    reviewed = [
        ((human.run_key, row, repeat), final)
        for (row, repeat), final in human.labels.items()
        if (human.run_key, row, repeat) in inputs.responses
    ]

    def pairs(grade_of: dict[Which, str | None]) -> list[Pair]:
        return [Pair(f"{w[1]}/{w[2]}", inputs.group(w[1]), final, grade_of[w])
                for w, final in reviewed]  # fmt: skip

    gate = Gate(params.min_kappa, params.min_items, params.max_unparsed_share)
    block = {
        "study": params.study,
        "demo": human.demo,
        "run_key": human.run_key,
        "same_run": human.run_key == inputs.current_run,
        "no_response": inputs.no_response,
        **calibrate(pairs(jury), inputs.labels, gate),
    }
    if len(grades) > 1:
        block["per_judge"] = {
            name: kappa(pairs({w: g for w, (g, _) in by.items()}), inputs.labels, "quadratic")
            for name, by in grades.items()
        }
    return block


def judge_only(inputs: Inputs) -> list[Which]:
    """The current run's responses no human final label covers: where the correction applies."""
    human = inputs.human
    finals = {} if human is None else human.labels
    labelled = {(human.run_key, *key) for key, final in finals.items() if human and final}
    return [w for w in inputs.responses if w[0] == inputs.current_run and w not in labelled]


def _document(inputs: Inputs, params: JudgeParams, judges: dict[str, ModelParams], grades: Grades,
              jury: dict[Which, str | None]) -> dict[str, Any]:  # fmt: skip
    current = [w for w in inputs.responses if w[0] == inputs.current_run]
    calibration = _calibration(inputs, grades, jury, params)
    corrected = corrected_block(
        calibration, inputs.labels, [jury[w] for w in judge_only(inputs)], params.target_width
    )
    statuses = [s for by in grades.values() for w, (_, s) in by.items() if w in current]
    groups = sorted({g for w in current if (g := inputs.group(w[1])) is not None})
    figures = {
        "mean": _mean([jury[w] for w in current]),
        "scale_max": float(inputs.labels[-1]),
        "graded": sum(jury[w] is not None for w in current),
        "groups": {
            g: {"mean": _mean([jury[w] for w in current if inputs.group(w[1]) == g]),
                "items": sum(inputs.group(w[1]) == g for w in current)}
            for g in groups
        },
    }  # fmt: skip
    agreement = None
    if len(grades) > 1:
        ratings = [
            Rating(f"{w[1]}/{w[2]}", name, g)
            for name, by in grades.items()
            for w, (g, _) in by.items()
            if w in current and g
        ]
        agreement = agreement_block(ratings, inputs.labels, ordinal=True)  # fmt: skip
    calibrated = calibration["status"] == "calibrated"
    run = {k: v for k, v in run_summary(inputs.manifest).items() if k != "workload"}
    return {
        "workload": inputs.track.workload,
        "study": params.study,
        "track": inputs.track_name,
        "rubric": inputs.track.rubric,
        "provisional": True,
        "run_key": inputs.current_run,
        "signature": {
            **run,
            "scorers": {"judge": len(current)},
            "judge": {
                "prompt": prompt_signature(),
                "decoding": decoding(params.max_tokens),
                "grades": ",".join(inputs.labels),
                "grade_rule": RULE,
                "combine": "lower median of the judges' parsed grades",
                "judges": {
                    name: {"model": m.name, "revision": m.revision, "endpoint": _where(m.base_url)}
                    for name, m in judges.items()
                },
            },
        },
        "items": len(current),
        "unparsed": statuses.count("unparsed"),
        "failed": sum(s.startswith("failed") for s in statuses),
        "calibration": calibration,
        "figures": figures if calibrated else None,
        "corrected": corrected,
        "withheld": None if calibrated else calibration["reason"],
        "jury_agreement": agreement,
    }


def _lines(inputs: Inputs, document: dict[str, Any], grades: Grades,
           jury: dict[Which, str | None]) -> list[dict[str, Any]]:  # fmt: skip
    calibrated = document["figures"] is not None
    scale = [float(inputs.labels[0]), float(inputs.labels[-1])]
    lines = []
    for which in (w for w in inputs.responses if w[0] == inputs.current_run):
        grade = jury[which]
        error = inputs.responses[which].get("error") or {}
        lines.append({
            "id": which[1], "repeat": which[2], "cluster": which[1], "correct": None,
            "failed": error.get("kind") if error else None,
            "score": float(grade) if calibrated and grade is not None else None,
            "measure": "judge", "scale": scale, "grade": grade,
            "grades": {name: by[which][0] for name, by in grades.items()},
            "withheld": document["withheld"],
        })  # fmt: skip
    return lines


def judge_workload(name: str) -> dict[str, Any]:
    """Judge workload ``name`` from the project root; returns the metrics document written."""
    params = section(JudgeParams, "judge")
    run = section(RunParams, "run")
    inputs = judge_inputs(name, params.study)
    dataset = workload_rows(name)[0]
    requests = [
        Request(w[0], w[1], w[2],
                judge_messages(inputs.rubric, response_sections(inputs.rows[w[1]], record)))
        for w, record in inputs.responses.items()
    ]  # fmt: skip
    asked = {(r.run_key, r.row_id, r.repeat): r.messages[-1]["content"] for r in requests}
    judges = judge_models()
    grades: Grades = {}
    for judge_name, judge in judges.items():
        journal = Path("results") / name / "judge" / f"{judge_name}.jsonl"
        answered = send_judgements(
            name, judge_name, judge, requests, params.max_tokens, run, dataset, journal
        )
        grades[judge_name] = {
            w: _grade(answered.get(w), inputs.labels, asked[w]) for w in inputs.responses
        }
    jury = {
        w: lower_median([g for by in grades.values() if (g := by[w][0])], inputs.labels)
        for w in inputs.responses
    }
    document = _document(inputs, params, judges, grades, jury)
    with output_set(f"judge-{name}", f"the judge figures of workload {name}") as files:
        files.write_json(Path("metrics") / f"{name}.judge.json", document)
        files.write_text(VERDICTS / f"{name}.judge.jsonl",
                         lines_text(_lines(inputs, document, grades, jury)))  # fmt: skip
    return document


def _where(base_url: str | list[str | ReplicaParams]) -> str:
    from stages.inference.endpoint import public_url

    entries = [base_url] if isinstance(base_url, str) else base_url
    urls = [e if isinstance(e, str) else e.url for e in entries]  # weighted replicas (issue 23)
    return ", ".join(u if u == "embedded" else public_url(u) for u in urls)
