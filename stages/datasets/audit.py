"""Shortcut audit: can an eval dataset be passed without solving it? (issue 13)

For every eval dataset the audit scores the answer-free baselines of ``stages.datasets.baselines``
(whose module docstring holds the scoring rules: ties, open rows, chance of mixed datasets), finds
leaks and near-duplicate prompts, and reports per dataset:

* ``chance`` — mean over audited rows of 1/k (mc) or 0 (exact, numeric, contains);
* ``best`` — the baseline with the highest accuracy, with a 95 % Wilson score interval over the
  audited rows (the baselines' expected correctness summed as the success count);
* ``leaks`` — row id -> leak code (``leaks.LEAK_TEXT``): an mc row whose prompt names or states only the gold option (unless
  that option is a bare number, which a prompt holds by coincidence as often as not), an open
  row whose prompt states the gold (``baselines.gold_stated``), a code row whose prompt shows one of
  its hidden tests (call and expected value both verbatim);
* ``duplicates`` — row id -> the earlier row id it repeats: same prompt after normalisation
  (NFKC, case-fold, spacing, sentence punctuation, brackets and quotes dropped; signs, operators
  and other symbols kept, ``audit_text.identity_text``) with the same image / haystack document,
  and for mc rows the same options in any order.

A dataset being published (absent from ``registry.json``) fails when its best baseline beats chance
by more than ``MAX_MARGIN`` or it has any leak or duplicate. Published datasets, and imported ones
(``atlas dataset import``: their items are someone else's and cannot be regenerated), are
reported only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stages.datasets.baselines import AUDITED_SCORERS, chance, panel
from stages.datasets.leaks import content_key, describe, leak
from stages.datasets.load import DATASETS_DIR, load_card, validate_rows
from stages.datasets.registry import load_registry
from stages.errors import AtlasError

MAX_MARGIN = 0.10
Z_95 = 1.959963984540054


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
    external: bool = False
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
        out += [f"{self.id}: {row_id}: leak: {describe(code)}" for row_id, code in self.leaks.items()]
        out += [f"{self.id}: {a}: duplicate of {b}" for a, b in self.duplicates.items()]
        return out

    @property
    def status(self) -> str:
        """``reported`` for published or imported datasets; ``pass`` or ``fail`` for new ones."""
        if self.published or self.external:
            return "reported"
        return "fail" if self.problems() else "pass"

    def metrics(self) -> dict[str, Any]:
        """The dataset's block of ``metrics/audit.json`` (dicts, rounded to 4 digits)."""
        best = self.best
        return {
            "status": self.status,
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


def audit_rows(
    dataset_id: str,
    rows: list[dict[str, Any]],
    path: Path,
    published: bool,
    external: bool = False,
) -> DatasetAudit:
    """Audit already-validated rows of one dataset (``path`` locates images)."""
    result = DatasetAudit(id=dataset_id, published=published, rows=len(rows), external=external)
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
    return audit_rows(card.id, rows, path, published, card.external)


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
