"""Report sections owned by the datasets package: the shortcut audit and a workload's fresh block.

``atlas report`` calls these (small hooks in ``stages/report``); each reads what the check and
score stages wrote and returns nothing when it is absent, so a report without them still renders.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

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
