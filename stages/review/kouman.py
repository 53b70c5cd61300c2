"""``atlas report --protocol kouman``: the Kouman run report (spec 000, "Run report").

Per track: item counts and the track's own score — identity mean (0–2) with the false-premise
correction rate and the unsupported-claim fabrication rate beside it, translation mean (0–4) per
direction with chrF++ as a labelled secondary diagnostic over the same adjudicated items, general
knowledge accuracy by subject on the fixed sample. The "total" is the mean of the normalised
track scores and is only ever printed under its components. Reviewer agreement, model revision,
decoding settings and a short error analysis complete the report. Inputs are the outputs of
``atlas review import`` (results/review/<study>/outcome.json, metrics/review.<study>.json).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages.datasets.load import load_dataset
from stages.errors import AtlasError
from stages.io import read_json
from stages.outputs import output_set
from stages.review.items import latest_responses, run_summary, workload_rows
from stages.review.kouman_md import render_markdown
from stages.review.study import StudyPaths, load_study


@dataclass(frozen=True)
class KoumanReport:
    """Where the report went and what it says (the metrics document)."""

    markdown: Path
    metrics_path: Path
    metrics: dict[str, Any]


def _r(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def _final_scores(outcome: dict[str, Any], track: str) -> list[tuple[dict[str, Any], dict]]:
    """(item, pass-one field outcomes) of a track's items."""
    return [
        (entry["item"], entry["passes"]["1"])
        for entry in outcome["items"].values()
        if entry["item"]["track"] == track
    ]


def _chrf(workload: str, finals: list[tuple[dict[str, Any], dict]]) -> dict[str, Any]:
    """Corpus chrF++ per direction over the items whose human score is final, with the chrf
    scorer's own extraction and reference handling (so it matches ``atlas score``)."""
    from stages.scoring.chrf import corpus_chrf, hypothesis, references

    rows = workload_rows(workload)[0].row_by_id()
    _, records = latest_responses(workload)
    groups: dict[str, list[tuple[str, list[str]]]] = defaultdict(list)
    for item, fields in finals:
        if fields["score"]["final"] is None:
            continue
        record = records.get((item["row_id"], item["repeat"])) or {}
        translation = hypothesis(record.get("output") or "")
        groups[str(item["group"])].append((translation, references(rows[item["row_id"]]["answer"])))
    result = {}
    for group, pairs in sorted(groups.items()):
        value, signature = corpus_chrf(pairs)
        result[group] = {"chrf_pp": _r(value, 2), "items": len(pairs), "signature": signature}
    return result


def _identity_errors(finals: list[tuple[dict[str, Any], dict]], workload: str) -> list[str]:
    rows = workload_rows(workload)[0].row_by_id()
    zero = Counter(rows[i["row_id"]]["category"] for i, f in finals if f["score"]["final"] == "0")
    accepted = [
        rows[i["row_id"]]["meta"].get("card_field")
        for i, f in finals
        if f.get("premise", {}).get("final") == "accepted"
    ]
    lines = []
    if zero:
        lines.append(
            "score 0 by category: " + ", ".join(f"{c} {n}" for c, n in sorted(zero.items()))
        )
    if accepted:
        fields = Counter(str(a) for a in accepted)
        lines.append(
            "false premises accepted about: "
            + ", ".join(f"{f} ({n})" for f, n in sorted(fields.items()))
        )
    return lines


def _translation_errors(finals: list[tuple[dict[str, Any], dict]], workload: str) -> list[str]:
    _, records = latest_responses(workload)
    low: Counter[str] = Counter()
    empty = failed = 0
    for item, fields in finals:
        record = records.get((item["row_id"], item["repeat"])) or {}
        failed += bool(record.get("error"))
        empty += not record.get("error") and not (record.get("output") or "").strip()
        if fields["score"]["final"] in ("0", "1"):
            low[str(item["group"])] += 1
    lines = [f"{d}: {n} item(s) scored 0–1" for d, n in sorted(low.items())]
    if empty or failed:
        lines.append(f"{empty} empty response(s), {failed} failed request(s)")
    return lines


def _judge(workload: str, human: dict[str, Any]) -> dict[str, Any] | None:
    """The model judge's figures of a track beside the human ones (``metrics/<w>.judge.json``,
    written by ``atlas judge``): provisional, with their calibration, or withheld with the reason.
    None when the track was not judged."""
    path = Path("metrics") / f"{workload}.judge.json"
    if not path.is_file():
        return None
    judged = read_json(path)
    cal = judged.get("calibration") or {}
    figures = judged.get("figures")
    human_groups = human.get("groups") or {}
    return {
        "status": cal.get("status"),
        "withheld": judged.get("withheld"),
        "provisional": True,
        "prompt": judged["signature"]["judge"]["prompt"]["version"],
        "judges": sorted(judged["signature"]["judge"]["judges"]),
        "items": judged.get("items"),
        "unparsed": judged.get("unparsed"),
        "mean": figures["mean"] if figures else None,
        # Judge metrics written before issue 34 have no block: None, and the report says so.
        "corrected": judged.get("corrected"),
        "groups": {g: v["mean"] for g, v in (figures or {}).get("groups", {}).items()},
        "human_groups": {g: v["score"]["mean"] for g, v in human_groups.items()},
        "calibration": {
            k: cal.get(k)
            for k in ("study", "demo", "resolved", "unparsed", "exact_agreement", "reason")
        }
        | {
            "kappa_quadratic": (cal.get("kappa_quadratic") or {}).get("value"),
            "bias": (cal.get("bias") or {}).get("mean"),
        },
    }


def _general(workload: str) -> dict[str, Any]:
    """Accuracy by subject and overall of the multiple-choice workload (shared scorer)."""
    try:
        from stages.scoring.registry import score_row
    except ImportError as exc:
        raise AtlasError("the general-knowledge track needs stages.scoring.registry") from exc
    dataset, rows, repeats = workload_rows(workload)
    manifest, records = latest_responses(workload)
    hits: dict[str, list[bool]] = defaultdict(list)
    for row in rows:
        for repeat in range(repeats):
            record = records.get((row["id"], repeat))
            verdict = score_row(row, record, dataset.path) if record else None
            hits[row["meta"].get("subject", row["category"])].append(
                bool(verdict and verdict.correct)
            )
    flat = [h for v in hits.values() for h in v]
    card = load_dataset(dataset.id).card
    return {
        "items": len(flat),
        "accuracy": _r(sum(flat) / len(flat)) if flat else None,
        "by_subject": {
            s: {"items": len(v), "accuracy": _r(sum(v) / len(v))} for s, v in sorted(hits.items())
        },
        "sample": card.source.model_dump() if card.source else None,
        "run": run_summary(manifest),
    }


def kouman_report(
    study_name: str = "kouman-demo",
    out: Path = Path("report-kouman.md"),
    metrics_path: Path = Path("metrics/kouman.json"),
) -> KoumanReport:
    """Write the Kouman report (Markdown) and its metrics (JSON dicts) for one study."""
    study, paths = load_study(study_name)
    outcome_file = StudyPaths(study_name).results / "outcome.json"
    if not outcome_file.is_file() or not paths.metrics.is_file():
        raise AtlasError(
            f"{outcome_file}: missing; run `atlas review import --study {study_name}` first"
        )
    outcome, review = read_json(outcome_file), read_json(paths.metrics)
    tracks: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for name, track in study.tracks.items():
        stats = review["tracks"].get(name, {})
        finals = _final_scores(outcome, name)
        entry: dict[str, Any] = {
            "workload": track.workload,
            "rubric": track.rubric,
            "review": stats,
        }
        if "premise" in stats or "fabrication" in stats:
            entry["false_premise_correction_rate"] = (
                stats.get("premise", {}).get("shares", {}).get("corrected")
            )
            entry["unsupported_claim_fabrication_rate"] = (
                stats.get("fabrication", {}).get("shares", {}).get("yes")
            )
            errors[name] = _identity_errors(finals, track.workload)
        if track.rubric.startswith("translation"):
            entry["chrf_pp_secondary"] = _chrf(track.workload, finals)
            errors[name] = _translation_errors(finals, track.workload)
        entry["judge"] = _judge(track.workload, stats)
        tracks[name] = entry
    general = _general(study.general.workload) if study.general else None
    components: dict[str, float] = {
        n: round(t["review"]["score"]["mean"] / t["review"]["score"]["scale_max"], 4)
        for n, t in tracks.items()
        if t["review"].get("score", {}).get("mean") is not None
    }
    if general and general["accuracy"] is not None:
        components["general"] = general["accuracy"]
    total = {
        "value": _r(sum(components.values()) / len(components)) if components else None,
        "formula": "mean of track scores normalised to 0-1 (identity/2, translation/4, "
        "general accuracy); never read without the components",
        "components": components,
    }
    metrics = {
        "study": study_name,
        "demo": bool(outcome["demo"]),
        "runs": outcome["runs"],
        "tracks": tracks,
        "general": general,
        "total": total,
        "unresolved": review["unresolved"],
    }
    with output_set(f"report-kouman-{study_name}", "the Kouman report") as files:
        files.write_json(metrics_path, metrics)
        files.write_text(out, render_markdown(metrics, errors))
    return KoumanReport(out, metrics_path, metrics)
