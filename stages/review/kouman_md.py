"""Markdown of the Kouman run report (spec 000, "Run report"): components before any total."""

from __future__ import annotations

from typing import Any

from stages.judge.corrected import corrected_text

AGREEMENT_COLUMNS = (
    ("cohen", "Cohen κ"),
    ("cohen_quadratic", "Cohen κ (quadratic)"),
    ("fleiss", "Fleiss κ"),
    ("krippendorff_nominal", "α nominal"),
    ("krippendorff_ordinal", "α ordinal"),
)


def _num(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f} %"


def _stat(block: dict[str, Any] | None) -> str:
    if block is None:
        return "n/a"
    if block["value"] is None:
        return f"undefined: {block['reason']}"
    return _num(block["value"])


def run_lines(runs: dict[str, Any], tracks: set[str]) -> list[str]:
    """Per model revision (named once): each track's decoding and run key. The note on differing
    settings compares the review ``tracks`` only."""
    by_model: dict[tuple[str, str], list[str]] = {}
    for track, run in runs.items():
        model = run.get("model") or {}
        decoding = run.get("decoding") or {}
        settings = ", ".join(f"{k}={v}" for k, v in sorted(decoding.items()))
        by_model.setdefault((str(model.get("name")), str(model.get("revision"))), []).append(
            f"- **{track}**: decoding {settings or 'not recorded'}; "
            f"run `{str(run.get('run_key'))[:12]}`"
        )
    lines = []
    for (name, revision), items in by_model.items():
        lines += [f"Model `{name}` revision `{revision}`:", "", *items, ""]
    keys = {str((runs[t] or {}).get("run_key")) for t in tracks}
    if len(keys) > 1:
        lines.append("The tracks were run with different model or decoding settings.")
        lines.append("")
    return lines


def _score_rows(metrics: dict[str, Any]) -> list[str]:
    rows = ["| track | items | score | scale | beside it |", "|---|---:|---:|---|---|"]
    for name, track in metrics["tracks"].items():
        review = track["review"]
        score = review.get("score", {})
        extra = []
        if "false_premise_correction_rate" in track:
            n_fp = review.get("premise", {}).get("items", 0)
            extra.append(
                f"false-premise correction {_pct(track['false_premise_correction_rate'])}"
                f" (n={n_fp})"
            )
            extra.append(
                "unsupported-claim fabrication "
                f"{_pct(track['unsupported_claim_fabrication_rate'])} "
                f"(n={review.get('fabrication', {}).get('items', 0)})"
            )
        scale = f"0–{score.get('scale_max', 0):g} review"
        rows.append(
            f"| {name} | {review.get('items', 0)} | {_num(score.get('mean'), 2)} | {scale} "
            f"| {'; '.join(extra)} |"
        )
        chrf = track.get("chrf_pp_secondary") or {}
        for group, stats in (review.get("groups") or {}).items():
            secondary = chrf.get(group, {}).get("chrf_pp")
            note = f"chrF++ {_num(secondary, 1)} (secondary, after adjudication)" if chrf else ""
            rows.append(
                f"| {name} {group} | {stats['items']} | "
                f"{_num(stats['score']['mean'], 2)} | {scale} | {note} |"
            )
    general = metrics.get("general")
    if general:
        rows.append(
            f"| general knowledge | {general['items']} | {_num(general['accuracy'], 3)} "
            "| accuracy (mc) | fixed sample, not a full-benchmark figure |"
        )
    total = metrics["total"]
    parts = ", ".join(f"{k} {_num(v, 3)}" for k, v in total["components"].items())
    rows.append(
        f"| total (components: {parts}) | | {_num(total['value'], 3)} | 0–1 | {total['formula']} |"
    )
    return rows


def _agreement_rows(metrics: dict[str, Any]) -> list[str]:
    head = "| track · field | items | observed | " + " | ".join(t for _, t in AGREEMENT_COLUMNS)
    rows = [head + " |", "|---|---:|---:|" + "---|" * len(AGREEMENT_COLUMNS)]
    for name, track in metrics["tracks"].items():
        for field, block in track["review"].items():
            if not isinstance(block, dict) or "agreement" not in block:
                continue
            agreement = block["agreement"]
            observed = next((a["observed"] for a in agreement.values()), None)
            cells = " | ".join(_stat(agreement.get(key)) for key, _ in AGREEMENT_COLUMNS)
            rows.append(f"| {name} · {field} | {block['items']} | {_pct(observed)} | {cells} |")
    return rows


def _corrected_cell(judge: dict[str, Any]) -> str:
    """The corrected figure with its interval, or the one word that says why there is none."""
    block = judge.get("corrected")
    if judge["status"] != "calibrated":
        return "withheld"  # by the gate, whether or not the judge metrics have the block
    if block is None:
        return "—"
    if block["status"] != "corrected":
        return "withheld" if block["status"] == "withheld" else "not corrected"
    ci = block["ci95"]
    mark = " (clipped)" if block["clipped"] else ""
    return f"{_num(block['estimate'], 2)} [{_num(ci['low'], 2)}, {_num(ci['high'], 2)}]{mark}"


def _judge_rows(metrics: dict[str, Any]) -> list[str]:
    """Human score, judge score and their agreement side by side, per track and group."""
    rows = [
        "| track | human score | judge score (provisional) | corrected, judge-only items "
        "[95 % CI] | weighted κ judge–human (quadratic) | calibration items | unparsed "
        "| bias judge − human | judge |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, track in metrics["tracks"].items():
        judge = track.get("judge")
        if not judge:
            continue
        cal = judge["calibration"]
        human = track["review"].get("score", {}).get("mean")
        shown = _num(judge["mean"], 2) if judge["status"] == "calibrated" else "withheld"
        demo = " (demo verdicts)" if cal.get("demo") else ""
        rows.append(
            f"| {name} | {_num(human, 2)} | {shown} | {_corrected_cell(judge)} | "
            f"{_num(cal['kappa_quadratic'])} | "
            f"{cal.get('resolved') or 0}{demo} | {cal.get('unparsed') or 0} | "
            f"{_num(cal['bias'], 2)} | {', '.join(judge['judges'])}, prompt {judge['prompt']} |"
        )
        for group, value in judge["human_groups"].items():
            judged = judge["groups"].get(group) if judge["status"] == "calibrated" else None
            rows.append(
                f"| {name} {group} | {_num(value, 2)} | "
                f"{_num(judged, 2) if judged is not None else 'withheld'} | | | | | | |"
            )
    return rows


def _judge_section(metrics: dict[str, Any]) -> list[str]:
    rows = _judge_rows(metrics)
    if len(rows) == 2:
        return []
    out = [
        "## Model judge beside the human scores",
        "",
        "Judge scores are provisional: shown only beside their calibration against the human "
        "final labels, withheld below the gate, never in place of a human score or in the total. "
        "The corrected figure is the judge's mean on the items no human labelled, corrected for "
        "the error the calibration measured; its interval counts the calibration's own "
        "uncertainty (docs/review.md#corrected-judge-figures).",
        "",
        *rows,
        "",
    ]
    for name, track in metrics["tracks"].items():
        judge = track.get("judge")
        if judge and judge["status"] != "calibrated":
            out.append(
                f"- **{name}** judge withheld, uncorrected and corrected figures alike: "
                f"{judge['withheld']}"
            )
        elif judge:
            out.append(f"- **{name}** judge {corrected_text(judge.get('corrected'))}")
    return [*out, ""]


def render_markdown(metrics: dict[str, Any], errors: dict[str, list[str]]) -> str:
    """The whole report."""
    out = [f"# Kouman protocol report — study `{metrics['study']}`", ""]
    if metrics["demo"]:
        out += [
            "> **DEMO DATA.** The verdicts behind this report are synthetic fixtures of the "
            "worked example, not human judgements. Do not cite these figures.",
            "",
        ]
    general = metrics.get("general")
    runs = {**metrics["runs"], **({"general": general["run"]} if general else {})}
    out += ["## Run", "", *run_lines(runs, set(metrics["runs"]))]
    out += ["## Scores (per track; the total is never shown without them)", ""]
    out += _score_rows(metrics) + [""]
    if general:
        out += [
            "### General knowledge by subject",
            "",
            "| subject | items | accuracy |",
            "|---|---:|---:|",
        ]
        out += [
            f"| {s} | {v['items']} | {_num(v['accuracy'], 3)} |"
            for s, v in general["by_subject"].items()
        ]
        sample = general.get("sample") or {}
        out += [
            "",
            f"Sample: {sample.get('file')} sha256 `{sample.get('sha256')}`, origin "
            f"{sample.get('origin')} ({sample.get('revision')}), seed {sample.get('sample_seed')}"
            ". Keep it apart from any full-benchmark result.",
            "",
        ]
    out += ["## Reviewer agreement", "", *_agreement_rows(metrics), ""]
    out += _judge_section(metrics)
    out += ["## Error analysis", ""]
    for track, lines in errors.items():
        out += [f"- **{track}**: " + ("; ".join(lines) if lines else "no low-scored items")]
    if metrics["unresolved"]:
        out += [
            f"- {metrics['unresolved']} disagreement(s) await adjudication and are left out "
            "of the scores"
        ]
    return "\n".join(out) + "\n"
