"""How the audit and fresh blocks are shown: ``atlas check``'s table, ``atlas dataset audit``'s
details, and the report sections (the shortcut audit, a workload's fresh line).

Every view is built from ``metrics/audit.json`` blocks (``DatasetAudit.metrics``), so the check's
table, the report's section and the file always agree. ``atlas report`` calls the section hooks
(small hooks in ``stages/report``); each returns nothing when the file is absent.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from stages.datasets.audit import DatasetAudit
from stages.datasets.kill_rates import summary, task_lines
from stages.datasets.leaks import describe
from stages.io import read_json

AUDIT = Path("metrics/audit.json")
HEADER = ["dataset", "learned margin by format (pt; ! beats chance)", "near misses rejected"]
HEADER += ["right accepted", "echoes wrong", "mutation", "leaks", "dups", "status"]


def _held(block: dict[str, Any], *names: str) -> str:
    tallies = [block.get(n, {"held": 0, "tried": 0}) for n in names]  # blocks before issue 30
    tried = sum(t["tried"] for t in tallies)
    held = sum(t["held"] for t in tallies)
    return f"{held}/{tried}" if tried else "-"


def _formats(block: dict[str, Any]) -> str:
    cells = []
    for fmt, f in block.get("formats", {}).items():
        learned = f.get("learned")
        if learned is None:
            continue
        mark = "!" if learned["fails"] else ""
        ci = learned["ci95"]
        cells.append(
            f"{fmt} {100 * learned['margin']:+.1f}{mark} [{ci['low']:.2f}-{ci['high']:.2f}]"
        )
    return ", ".join(cells) or "-"


def cells(dataset_id: str, block: dict[str, Any]) -> list[str]:
    """One table line of a dataset's ``metrics/audit.json`` block."""
    s, m = block["strength"], block["mutation"]
    mutation = "-" if m["score"] is None else f"{m['killed']}/{m['mutants']}"
    return [
        dataset_id, _formats(block), _held(s, "near_misses", "derived", "adversarial"),
        _held(s, "alternatives", "gold", "flexible", "careful"), _held(s, "echoes"), mutation,
        str(len(block["leaks"])), str(len(block["duplicates"])), block["status"],
    ]  # fmt: skip


def _rows(audit: dict[str, Any]) -> list[list[str]]:
    return [cells(k, a) for k, a in sorted((audit.get("datasets") or {}).items())]


def _load(path: Path) -> dict[str, Any] | None:
    data = read_json(path) if path.is_file() else None
    return data if isinstance(data, dict) else None


NOTE = (
    "Per eval dataset and answer format: the learned answer-free baseline's margin over chance "
    "with its 95 % interval (rules in `stages/datasets/learned.py`); the scorer's near misses "
    "rejected, right replies accepted (flexible right wherever strict is) and echoes of the "
    "prompt scored wrong; code mutants killed. A dataset not yet published fails on any problem "
    "(a margin over {limit:g} points clear of chance, a reply its scorer misjudges, a surviving "
    "mutant, a leak or duplicate); published ones are reported, and `flawed` when they would fail."
)


def _note(audit: dict[str, Any], defaults: dict[str, str] | None) -> str:
    text = NOTE.format(limit=100 * audit.get("max_margin", 0.05))
    blocks = audit.get("datasets") or {}
    flawed = {w: d for w, d in sorted((defaults or {}).items())
              if (blocks.get(d) or {}).get("status") in ("flawed", "fail")}  # fmt: skip
    if flawed:
        text += (
            " Default workloads still on a flawed dataset: "
            + ", ".join(f"{w} ({d})" for w, d in flawed.items())
            + "."
        )
    return text


def audit_markdown(path: Path = AUDIT, defaults: dict[str, str] | None = None) -> list[str]:
    """The audit as a markdown section (empty when the check has not written it); ``defaults``
    (workload -> dataset id) names the workloads still running a flawed dataset."""
    audit = _load(path)
    if audit is None:
        return []
    out = ["## Shortcut audit", "", _note(audit, defaults), ""]
    out.append("| " + " | ".join(HEADER) + " |")
    out.append("|" + "---|" * len(HEADER))
    out += ["| " + " | ".join(row) + " |" for row in _rows(audit)]
    return [*out, ""]


def audit_html(path: Path = AUDIT, defaults: dict[str, str] | None = None) -> str:
    """The audit as an HTML section (empty when the check has not written it)."""
    audit = _load(path)
    if audit is None:
        return ""
    head = "".join(f"<th>{escape(h)}</th>" for h in HEADER)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in _rows(audit)
    )
    note = escape(_note(audit, defaults).replace("`", ""))
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
    rows = [HEADER, *_rows({"datasets": {k: a.metrics() for k, a in audits.items()}})]
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    return "\n".join(
        "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in
                  enumerate(zip(r, widths, strict=True))).rstrip()
        for r in rows
    )  # fmt: skip


def kill_rate_lines(audits: dict[str, DatasetAudit]) -> list[str]:
    """Per code dataset with per-task kill rates, one line (``kill_rates.summary``)."""
    lines = (summary(k, a.mutation.metrics()) for k, a in sorted(audits.items()))
    return [line for line in lines if line]


def details(result: DatasetAudit) -> str:
    """Everything one dataset's audit found, format by format, then row by row."""
    lines = []
    for fmt, f in result.formats.items():
        lines.append(f.learned.describe() if f.learned else f"{fmt}: no learned baseline")
        if f.best is not None:
            others = ", ".join(f"{k} {v:.3f}" for k, v in sorted(f.baselines.items()))
            lines.append(f"  panel best {f.best} {f.baselines[f.best]:.3f} ({others})")
    if result.gold_letters:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(result.gold_letters.items()))
        lines.append(f"gold letters: {counts}")
    s = result.strength
    lines.append(
        "scorer: "
        + ", ".join(f"{name} {t.held}/{t.tried}" for name, t in s.tallies().items())
        + f"; copies (flexible reads a filled echo, the gold is a number the prompt states) "
        f"{len(s.copies)}; rows with probes {s.probed_rows}"
    )
    if result.fresh_rows or result.fresh_failed:
        failed = "".join(f"; seed {k} failed: {v}" for k, v in sorted(result.fresh_failed.items()))
        lines.append(
            f"learned on {result.rows} rows + {result.fresh_rows} of fresh instances{failed}"
        )
    m = result.mutation
    if m.rows:
        lines.append(
            f"mutation ({m.source}): {m.killed}/{m.mutants} mutants killed over {m.rows} rows"
        )
        lines += [*kill_rate_lines({result.id: result}), *task_lines(m.metrics())]
    if result.unique_rows:
        lines.append(f"uniqueness: {result.unique_rows} option rows proved")
    lines += [f"leak {row_id}: {describe(code)}" for row_id, code in sorted(result.leaks.items())]
    lines += [f"duplicate {a} of {b}" for a, b in sorted(result.duplicates.items())]
    lines += [
        f"problem: {p}" for p in result.problems() if "leak:" not in p and "duplicate" not in p
    ]
    return "\n".join(lines)
