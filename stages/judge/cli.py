"""``atlas judge W``: the model judge of a rubric track, printed beside its calibration."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from stages.judge.corrected import corrected_text
from stages.names import checked


def _num(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def describe(doc: dict[str, Any]) -> list[str]:
    """What ``atlas judge`` prints: counts, the calibration and the gate's decision."""
    sig = doc["signature"]["judge"]
    judges = ", ".join(f"{n} ({j['model']})" for n, j in sig["judges"].items())
    lines = [
        f"judge {doc['workload']}: {doc['items']} item(s) of run {doc['run_key'][:12]} graded by "
        f"{judges}, prompt {sig['prompt']['version']} ({sig['prompt']['sha256'][:12]}): "
        f"{doc['unparsed']} unparsed, {doc['failed']} failed request(s)"
    ]
    cal = doc["calibration"]
    if "kappa_quadratic" not in cal:
        lines.append(f"calibration: none ({cal['reason']})")
    else:
        demo = " — DEMO verdicts: synthetic labels, not a human judgement" if cal["demo"] else ""
        lines.append(
            f"calibration against study {cal['study']}{demo}: {cal['resolved']} item(s) with a "
            f"human final label ({cal['unresolved']} unresolved), {cal['unparsed']} unparsed"
        )
        quad, lin = cal["kappa_quadratic"], cal["kappa_linear"]
        quad_text = (
            _num(quad["value"]) if quad["value"] is not None else f"undefined ({quad['reason']})"
        )
        lines.append(
            f"  weighted κ (quadratic) = {quad_text} on {quad['items']} item(s); linear = "
            f"{_num(lin['value'])}; exact agreement {_num(cal['exact_agreement'])}"
        )
        labels = list(cal["confusion"])
        columns = [*labels, "unparsed"]
        lines.append("  confusion (rows: human final label, columns: judge grade):")
        lines.append("    human | " + " ".join(f"{c:>8}" for c in columns))
        for label, row in cal["confusion"].items():
            lines.append(f"    {label:>5} | " + " ".join(f"{row[c]:>8}" for c in columns))
        bias = cal["bias"]
        groups = "; ".join(
            f"{g} {_num(b['mean'], 2)} ({b['items']})" for g, b in bias["groups"].items()
        )
        lines.append(
            f"  bias (judge − human): {_num(bias['mean'], 2)} over {bias['items']} item(s)"
            + (f"; {groups}" if groups else "")
        )
    if doc["figures"] is None:
        lines.append(f"judge figures withheld: {doc['withheld']}")
    else:
        fig = doc["figures"]
        lines.append(
            f"judge figures (provisional, beside the calibration above; never a human score): "
            f"mean {_num(fig['mean'], 2)} of 0–{fig['scale_max']:g} over {fig['graded']} item(s)"
        )
        lines.append("  " + corrected_text(doc.get("corrected")))
    w = doc["workload"]
    lines.append(f"-> metrics/{w}.judge.json, metrics/verdicts/{w}.judge.jsonl")
    return lines


def judge(
    workload: Annotated[str, typer.Argument(help="Workload whose responses are judged.")],
) -> None:
    """Grade a rubric track's responses with the judge(s) of params.yaml `judge:`, calibrate
    them against the study's human verdicts and withhold their figures below the gate. Sends
    nothing to the model under test; judge answers are journaled and reused.

    Example: atlas judge identity
    """
    checked(workload, "WORKLOAD")
    from stages.judge.run import judge_workload

    typer.echo("\n".join(describe(judge_workload(workload))))
