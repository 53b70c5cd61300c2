"""Shortcut audit: can an eval dataset be passed without solving it? (issue 13)

For every eval dataset the audit scores the answer-free baselines of ``stages.datasets.baselines``
(whose module docstring holds the scoring rules: ties, open rows, chance of mixed datasets), finds
leaks and near-duplicate prompts, and reports per dataset:

* ``chance`` — mean over audited rows of 1/k (mc) or 0 (exact, numeric, contains);
* ``best`` — the baseline with the highest accuracy, with a 95 % Wilson score interval over the
  audited rows (the baselines' expected correctness summed as the success count);
* ``leaks`` — row id -> why: an mc row whose prompt names or states only the gold option (unless
  that option is a bare number, which a prompt holds by coincidence as often as not), an open
  row whose prompt states the gold (``baselines.gold_stated``), a code row whose prompt shows one of
  its hidden tests (call and expected value both verbatim);
* ``duplicates`` — row id -> the earlier row id it repeats: same prompt after normalisation
  (NFKC, case-fold, punctuation and spacing dropped) with the same image / haystack document, and
  for mc rows the same options in any order.

A dataset being published (absent from ``registry.json``) fails when its best baseline beats chance
by more than ``MAX_MARGIN`` or it has any leak or duplicate. Published datasets are reported only.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stages.datasets.audit_text import labels, normalise, prompt_text, stem
from stages.datasets.baselines import (
    AUDITED_SCORERS,
    chance,
    gold_stated,
    named_options,
    panel,
)
from stages.datasets.load import DATASETS_DIR, load_card, validate_rows
from stages.datasets.registry import load_registry
from stages.errors import AtlasError
from stages.io import sha256_file

MAX_MARGIN = 0.10
Z_95 = 1.959963984540054
_ASSERT = re.compile(r"^\s*assert\s+(.+?)\s*==\s*(.+?)\s*$")


def wilson(p: float, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``p`` observed over ``n`` rows."""
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class DatasetAudit:
    """What the audit found in one dataset."""

    id: str
    published: bool
    rows: int
    audited: int = 0
    chance: float | None = None
    baselines: dict[str, float] = field(default_factory=dict)
    ci95: tuple[float, float] | None = None
    leaks: dict[str, str] = field(default_factory=dict)
    duplicates: dict[str, str] = field(default_factory=dict)
    gold_letters: dict[str, int] = field(default_factory=dict)

    @property
    def best(self) -> str | None:
        """Name of the most accurate baseline (first in name order on ties)."""
        if not self.baselines:
            return None
        return max(sorted(self.baselines), key=lambda name: self.baselines[name])

    @property
    def margin(self) -> float | None:
        """Best baseline accuracy minus chance."""
        if self.best is None or self.chance is None:
            return None
        return self.baselines[self.best] - self.chance

    def problems(self) -> list[str]:
        """Every reason this dataset would fail the audit if it were being published."""
        out = []
        best, margin = self.best, self.margin
        if best is not None and margin is not None and margin > MAX_MARGIN:
            out.append(
                f"{self.id}: baseline {best} scores {self.baselines[best]:.3f}, "
                f"{100 * margin:.1f} points over chance {self.chance:.3f} "
                f"(limit {100 * MAX_MARGIN:g})"
            )
        out += [f"{self.id}: {row_id}: leak: {why}" for row_id, why in self.leaks.items()]
        out += [f"{self.id}: {a}: duplicate of {b}" for a, b in self.duplicates.items()]
        return out

    @property
    def status(self) -> str:
        """``reported`` for published datasets; ``pass`` or ``fail`` for new ones."""
        if self.published:
            return "reported"
        return "fail" if self.problems() else "pass"

    def metrics(self) -> dict[str, Any]:
        """The dataset's block of ``metrics/audit.json`` (dicts, rounded to 4 digits)."""
        best = self.best
        return {
            "status": self.status,
            "published": self.published,
            "rows": self.rows,
            "audited": self.audited,
            "chance": _round(self.chance),
            "best": best,
            "best_accuracy": _round(self.baselines[best]) if best else None,
            "best_ci95": {"low": _round(self.ci95[0]), "high": _round(self.ci95[1])}
            if self.ci95
            else None,
            "margin": _round(self.margin),
            "baselines": {k: _round(v) for k, v in sorted(self.baselines.items())},
            "gold_letters": dict(sorted(self.gold_letters.items())),
            "leaks": dict(sorted(self.leaks.items())),
            "duplicates": dict(sorted(self.duplicates.items())),
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def leak(row: dict[str, Any]) -> str | None:
    """Why this row gives its answer away, or None (rules in the module docstring)."""
    if row["scorer"] == "mc":
        gold = labels(row).index(row["answer"])
        if named_options(row) != [gold] or _is_number(row["choices"][gold]):
            return None  # a number in the prompt that equals the gold is often a coincidence
        return f"the prompt states or alone names the gold option {row['answer']}"
    if row["scorer"] in AUDITED_SCORERS:
        return "the prompt states the gold answer" if gold_stated(row) else None
    if row["scorer"] == "code_exec":
        shown = " ".join(prompt_text(row).split())
        for number, line in enumerate((row.get("tests") or "").splitlines(), 1):
            match = _ASSERT.match(line)
            if match and all(" ".join(part.split()) in shown for part in match.groups()):
                return f"the prompt shows hidden test line {number}"
    return None


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True


def content_key(row: dict[str, Any], path: Path) -> tuple[Any, ...]:
    """What makes two rows the same item (module docstring, ``duplicates``)."""

    def bare(text: str) -> str:
        return " ".join(re.findall(r"\w+", normalise(text)))

    media: list[str] = []
    if row.get("image"):
        image = path / row["image"]
        media.append(sha256_file(image) if image.is_file() else row["image"])
    haystack = row.get("meta", {}).get("haystack")
    if isinstance(haystack, dict):
        media.append(str(haystack.get("sha256", haystack)))
    if row.get("scorer") == "mc":
        options = tuple(sorted(bare(c) for c in row["choices"]))
        return bare(stem(row)), options, tuple(media)
    return bare(prompt_text(row)), (), tuple(media)


def audit_rows(
    dataset_id: str, rows: list[dict[str, Any]], path: Path, published: bool
) -> DatasetAudit:
    """Audit already-validated rows of one dataset (``path`` locates images)."""
    result = DatasetAudit(id=dataset_id, published=published, rows=len(rows))
    audited = [r for r in rows if r.get("scorer") in AUDITED_SCORERS]
    result.audited = len(audited)
    if audited:
        result.chance = sum(chance(r) for r in audited) / len(audited)
        result.baselines = {k: sum(v) / len(audited) for k, v in panel(audited).items()}
        assert result.best is not None
        result.ci95 = wilson(result.baselines[result.best], len(audited))
    for row in rows:
        if row.get("scorer") == "mc":
            result.gold_letters[row["answer"]] = result.gold_letters.get(row["answer"], 0) + 1
        why = leak(row)
        if why:
            result.leaks[row["id"]] = why
    first: dict[tuple[Any, ...], str] = {}
    for row in rows:
        key = content_key(row, path)
        if key in first:
            result.duplicates[row["id"]] = first[key]
        else:
            first[key] = row["id"]
    return result


def audit_dataset(path: Path, published: bool | None = None) -> DatasetAudit:
    """Audit the eval dataset in directory ``path`` (committed or freshly generated anywhere).

    ``published`` defaults to whether ``path.parent/registry.json`` pins the dataset's id.
    """
    card = load_card(path)
    if card.kind != "eval":
        raise AtlasError(f"{path}: the audit covers eval datasets; this one is {card.kind!r}")
    rows, problems = validate_rows(path, card.kind)
    if problems:
        raise AtlasError("; ".join(problems[:5]))
    if published is None:
        published = card.id in load_registry(path.parent)
    return audit_rows(card.id, rows, path, published)


def audit_corpus(root: Path = DATASETS_DIR) -> dict[str, DatasetAudit]:
    """Audit every eval dataset under ``root`` whose card and rows load; keyed by id."""
    out: dict[str, DatasetAudit] = {}
    for card_path in sorted(root.glob("*/dataset.json")):
        try:
            if load_card(card_path.parent).kind == "eval":
                out[card_path.parent.name] = audit_dataset(card_path.parent)
        except AtlasError:
            continue  # structural problems are reported by the schema check
    return out


def corpus_metrics(audits: dict[str, DatasetAudit]) -> dict[str, Any]:
    """``metrics/audit.json``: the rule and one block per dataset."""
    return {
        "max_margin": MAX_MARGIN,
        "failed": sorted(k for k, a in audits.items() if a.status == "fail"),
        "datasets": {k: a.metrics() for k, a in sorted(audits.items())},
    }


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
    lines += [f"leak {row_id}: {why}" for row_id, why in sorted(result.leaks.items())]
    lines += [f"duplicate {a} of {b}" for a, b in sorted(result.duplicates.items())]
    return "\n".join(lines)
