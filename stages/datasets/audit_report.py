"""How the audit and fresh blocks are shown: ``atlas check``'s table, ``atlas dataset audit``'s
details, and the report sections (the shortcut audit, a workload's fresh line).

``atlas report`` calls these (small hooks in ``stages/report``); each reads what the check and
score stages wrote and returns nothing when it is absent, so a report without them still renders.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from stages.datasets.audit import DatasetAudit
from stages.datasets.leaks import describe
from stages.io import read_json

AUDIT = Path("metrics/audit.json")
HEADER = ["dataset", "audited", "chance", "best baseline", "accuracy", "95 % CI", "margin"]
HEADER += ["leaks", "duplicates", "status"]


def _rows(audit: dict[str, Any]) -> list[list[str]]:
    rows = []
    for dataset_id, a in sorted((audit.get("datasets") or {}).items()):
        ci = a.get("best_ci95")
        rows.append(
            [
                dataset_id,
                str(a.get("audited")),
                "-" if a.get("chance") is None else f"{a['chance']:.3f}",
                a.get("best") or "-",
                "-" if a.get("best_accuracy") is None else f"{a['best_accuracy']:.3f}",
                f"{ci['low']:.2f}–{ci['high']:.2f}" if ci else "-",
                "-" if a.get("margin") is None else f"{100 * a['margin']:+.1f} pt",
                str(len(a.get("leaks") or {})),
                str(len(a.get("duplicates") or {})),
                str(a.get("status")),
            ]
        )
    return rows


def _load(path: Path) -> dict[str, Any] | None:
    data = read_json(path) if path.is_file() else None
    return data if isinstance(data, dict) else None


NOTE = (
    "Answer-free baselines per eval dataset (rules in `stages/datasets/baselines.py`): a dataset "
    "not yet published fails the check when its best baseline beats chance by more than "
    "{limit:g} points or it has leaks or duplicates; published ones are reported only."
)


def audit_markdown(path: Path = AUDIT) -> list[str]:
    """The audit as a markdown section (empty when the check has not written it)."""
    audit = _load(path)
    if audit is None:
        return []
    out = ["## Shortcut audit", "", NOTE.format(limit=100 * audit.get("max_margin", 0.1)), ""]
    out.append("| " + " | ".join(HEADER) + " |")
    out.append("|" + "---|" * len(HEADER))
    out += ["| " + " | ".join(row) + " |" for row in _rows(audit)]
    return [*out, ""]


def audit_html(path: Path = AUDIT) -> str:
    """The audit as an HTML section (empty when the check has not written it)."""
    audit = _load(path)
    if audit is None:
        return ""
    head = "".join(f"<th>{escape(h)}</th>" for h in HEADER)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in _rows(audit)
    )
    note = escape(NOTE.format(limit=100 * audit.get("max_margin", 0.1)).replace("`", ""))
    return (
        f'<section id="audit"><h2>Shortcut audit</h2><p class="note">{note}</p>'
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></section>"
    )


def fresh_markdown(metrics: dict[str, Any]) -> list[str]:
    """One workload's public-versus-fresh line (empty without ``fresh_seeds``)."""
    fresh = metrics.get("fresh")
    if not fresh:
        return []
    ci = fresh["gap_ci95"]
    sd = "-" if fresh.get("sd") is None else f"{100 * fresh['sd']:.1f}"
    return [
        f"Fresh instances (seeds {', '.join(str(s) for s in fresh['seeds'])}): public "
        f"{100 * fresh['public']['accuracy']:.1f} % vs fresh mean {100 * fresh['mean']:.1f} % "
        f"(sd {sd}, range {100 * fresh['min']:.1f}–{100 * fresh['max']:.1f}); gap "
        f"{100 * fresh['gap']:+.1f} pt, 95 % CI {100 * ci['low']:+.1f} to {100 * ci['high']:+.1f} "
        "(Newcombe).",
        "",
    ]


def table(audits: dict[str, DatasetAudit]) -> str:
    """The audit as a fixed-width text table, one line per dataset."""
    head = (
        f"{'dataset':<26}{'audited':>8}{'chance':>8}  {'best baseline':<20}{'acc':>6}  "
        f"{'95% CI':<13}{'margin':>7}{'leaks':>6}{'dups':>5}  status"
    )
    lines = [head]
    for dataset_id, a in sorted(audits.items()):
        if a.best is None or a.chance is None or a.ci95 is None:
            cells = f"{a.audited:>8}{'-':>8}  {'-':<20}{'-':>6}  {'-':<13}{'-':>7}"
        else:
            ci = f"[{a.ci95[0]:.2f}, {a.ci95[1]:.2f}]"
            margin = f"{100 * (a.margin or 0.0):+.1f}"
            cells = (
                f"{a.audited:>8}{a.chance:>8.3f}  {a.best:<20}{a.baselines[a.best]:>6.3f}  "
                f"{ci:<13}{margin:>7}"
            )
        lines.append(
            f"{dataset_id:<26}{cells}{len(a.leaks):>6}{len(a.duplicates):>5}  {a.status}"
        )
    return "\n".join(lines)


def details(result: DatasetAudit) -> str:
    """Every baseline's accuracy, gold letter counts, leaks and duplicates of one dataset."""
    lines = [f"chance {result.chance:.4f}" if result.chance is not None else "chance -"]
    lines += [f"  {name:<20}{value:.4f}" for name, value in sorted(result.baselines.items())]
    if result.gold_letters:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(result.gold_letters.items()))
        lines.append(f"gold letters: {counts}")
    lines += [f"leak {row_id}: {describe(code)}" for row_id, code in sorted(result.leaks.items())]
    lines += [f"duplicate {a} of {b}" for a, b in sorted(result.duplicates.items())]
    return "\n".join(lines)
