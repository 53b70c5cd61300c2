"""Shortcut audit: can an eval dataset be passed without solving it, and do its scorer and tests
tell right from wrong? (issues 13 and 19)

For every eval dataset, each answer format (the row's scorer) on its own rows, never diluted
over the whole dataset:

* ``learned`` — the learned answer-free baseline (:mod:`stages.datasets.learned`: rules,
  chance, interval, verdict) of ``mc``, ``exact``, ``numeric`` and ``contains`` rows; for a
  generated dataset being published, learned on its rows and three fresh instances
  (:mod:`stages.datasets.pooled`);
* ``panel`` — the fixed answer-free baselines of :mod:`stages.datasets.baselines` (constant
  letters, longest, shortest, overlaps, most frequent gold, verbatim) on the same rows, reported
  beside it (the learner already has their cues among its features);

and over the dataset:

* ``strength`` — scorer strength per row (:mod:`stages.datasets.strength`): near misses
  rejected, alternatives accepted, echoes wrong, flexible right wherever strict is;
* ``mutation`` — test strength of code rows (:mod:`stages.datasets.mutation`);
* ``uniqueness`` — option rows whose rule marks exactly the gold
  (:mod:`stages.datasets.uniqueness`);
* ``leaks`` — row id -> leak code (``leaks.LEAK_TEXT``): an mc row whose prompt names or states
  only the gold option (unless that option is a bare number, which a prompt holds by
  coincidence as often as not), an open row whose prompt states the gold
  (``baselines.gold_stated``), a code row whose prompt shows one of its hidden tests (call and
  expected value both verbatim);
* ``duplicates`` — row id -> the earlier row id it repeats: same prompt after normalisation
  (NFKC, case-fold, spacing, sentence punctuation, brackets and quotes dropped; signs, operators
  and other symbols kept, ``audit_text.identity_text``) with the same image / haystack document,
  and for mc rows the same options in any order.

Status: a dataset being published (absent from ``registry.json``) *fails* on any problem — a
format whose learned baseline beats chance, a near miss or echo its scorer accepts, an
alternative it rejects, flexible wrong where strict is right, a failing reference or surviving
mutant, a rule that marks other than the gold, a leak or a duplicate. Published datasets, and
imported ones (``atlas dataset import``: their items are someone else's), cannot change: they
are ``reported`` when clean and ``flawed`` when not, never failed. The report names every
default workload that still runs a flawed dataset (the fix is a new id and moving the
workload); ``atlas check`` lists the flawed ones after its table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stages.datasets.baselines import AUDITED_SCORERS, panel
from stages.datasets.learned import FORMATS, Learned, learn, wilson
from stages.datasets.leaks import content_key, describe, leak
from stages.datasets.load import DATASETS_DIR, ROWS_FILE, load_card, validate_rows
from stages.datasets.mutation import Mutation, mutation
from stages.datasets.pooled import fresh_rows
from stages.datasets.registry import load_registry
from stages.datasets.strength import Strength, strength
from stages.datasets.uniqueness import uniqueness
from stages.errors import AtlasError

__all__ = ["DatasetAudit", "audit_corpus", "audit_dataset", "audit_rows", "wilson"]


@dataclass
class FormatAudit:
    """One answer format of one dataset: the learned baseline and the fixed panel."""

    rows: int
    learned: Learned | None
    baselines: dict[str, float] = field(default_factory=dict)

    @property
    def best(self) -> str | None:
        """The panel's most accurate baseline (first in name order on ties)."""
        if not self.baselines:
            return None
        return max(sorted(self.baselines), key=lambda name: self.baselines[name])

    def metrics(self) -> dict[str, Any]:
        """This format's block of ``metrics/audit.json``."""
        out: dict[str, Any] = {"rows": self.rows, "learned": None}
        if self.learned is not None:
            o = self.learned.overall
            out["chance"] = _round(o.chance)
            out["learned"] = {
                "accuracy": _round(o.accuracy), "margin": _round(o.margin),
                "ci95": {"low": _round(o.ci[0]), "high": _round(o.ci[1])},
                "learner": self.learned.learner, "fails": self.learned.fails,
                "families": {k: {"rows": s.rows, "chance": _round(s.chance),
                                 "accuracy": _round(s.accuracy), "beats": s.beats}
                             for k, s in sorted(self.learned.families.items())},
                "explain": {name: _round(acc) for name, acc in self.learned.explain},
                "family_explain": {k: {n: _round(a) for n, a in v}
                                   for k, v in sorted(self.learned.family_explain.items())},
                "constant": self.learned.constant,
            }  # fmt: skip
        best = self.best
        out["panel"] = {
            "best": best, "accuracy": _round(self.baselines[best]) if best else None,
            "baselines": {k: _round(v) for k, v in sorted(self.baselines.items())},
        }  # fmt: skip
        return out


@dataclass
class DatasetAudit:
    """What the audit found in one dataset."""

    id: str
    published: bool
    rows: int
    external: bool = False
    formats: dict[str, FormatAudit] = field(default_factory=dict)
    leaks: dict[str, str] = field(default_factory=dict)
    duplicates: dict[str, str] = field(default_factory=dict)
    gold_letters: dict[str, int] = field(default_factory=dict)
    strength: Strength = field(default_factory=Strength)
    mutation: Mutation = field(default_factory=Mutation)
    unique_rows: int = 0
    unique_problems: list[str] = field(default_factory=list)
    fresh_rows: int = 0
    """Rows of fresh instances pooled into the learned baseline (:mod:`stages.datasets.pooled`)."""
    fresh_failed: dict[int, str] = field(default_factory=dict)

    @property
    def audited(self) -> int:
        """Rows in formats the learned baseline covers."""
        return sum(f.rows for f in self.formats.values() if f.learned is not None)

    @property
    def margin(self) -> float | None:
        """The largest learned margin over the formats (None without one)."""
        margins = [f.learned.overall.margin for f in self.formats.values() if f.learned]
        return max(margins) if margins else None

    def problems(self) -> list[str]:
        """Every reason this dataset would fail the audit if it were being published."""
        out = [f"{self.id}: {f.learned.describe()}" for f in self.formats.values()
               if f.learned is not None and f.learned.fails]  # fmt: skip
        out += [f"{self.id}: {p}" for p in self.strength.problems()]
        out += [f"{self.id}: mutation: {p}" for p in self.mutation.problems()]
        out += [f"{self.id}: uniqueness: {p}" for p in self.unique_problems]
        out += [f"{self.id}: {row_id}: leak: {describe(code)}" for row_id, code in self.leaks.items()]
        out += [f"{self.id}: {a}: duplicate of {b}" for a, b in self.duplicates.items()]
        return out

    @property
    def status(self) -> str:
        """``pass``/``fail`` for a dataset being published; ``reported``/``flawed`` otherwise."""
        if self.published or self.external:
            return "flawed" if self.problems() else "reported"
        return "fail" if self.problems() else "pass"

    def metrics(self) -> dict[str, Any]:
        """The dataset's block of ``metrics/audit.json`` (dicts, rounded to 4 digits)."""
        return {
            "status": self.status, "rows": self.rows, "audited": self.audited,
            "margin": _round(self.margin),
            "formats": {k: f.metrics() for k, f in self.formats.items()},
            "strength": {"probed_rows": self.strength.probed_rows,
                         **{k: t.metrics() for k, t in self.strength.tallies().items()},
                         "copies": len(self.strength.copies)},
            "mutation": self.mutation.metrics(),
            "uniqueness": {"rows": self.unique_rows, "problems": self.unique_problems},
            "fresh": {"rows": self.fresh_rows,
                      "failed": {str(k): v for k, v in sorted(self.fresh_failed.items())}},
            "gold_letters": dict(sorted(self.gold_letters.items())),
            "leaks": dict(sorted(self.leaks.items())),
            "duplicates": dict(sorted(self.duplicates.items())),
        }  # fmt: skip


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def audit_rows(
    dataset_id: str,
    rows: list[dict[str, Any]],
    path: Path,
    published: bool,
    external: bool = False,
    generator: Path | None = None,
    root: Path = Path("."),
    pooled: list[dict[str, Any]] | None = None,
) -> DatasetAudit:
    """Audit already-validated rows of one dataset (``path`` holds its files; ``generator``, when
    given, is asked for its option rule; ``pooled`` rows of fresh instances join the learned
    baseline only)."""
    result = DatasetAudit(id=dataset_id, published=published, rows=len(rows), external=external)
    result.fresh_rows = len(pooled or [])
    for fmt in AUDITED_SCORERS:
        if not any(r["scorer"] == fmt for r in rows):
            continue
        mine = [r for r in rows if r["scorer"] == fmt]
        extra = [r for r in pooled or [] if r["scorer"] == fmt]
        learned = learn(mine + extra) if fmt in FORMATS else None
        scores = panel(mine)
        result.formats[fmt] = FormatAudit(
            len(mine), learned, {k: sum(v) / len(mine) for k, v in scores.items()}
        )
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
    result.strength = strength(rows, path)
    result.mutation = mutation(rows)
    result.unique_rows, result.unique_problems = uniqueness(
        rows, generator, path / ROWS_FILE, root
    )
    return result


def audit_dataset(
    path: Path, published: bool | None = None, root: Path = Path("."), fresh: bool | None = None
) -> DatasetAudit:
    """Audit the eval dataset in directory ``path`` (committed or freshly generated anywhere).

    ``published`` defaults to whether ``path.parent/registry.json`` pins the dataset's id.
    ``fresh``: learn on fresh instances too (:mod:`stages.datasets.pooled`) — by default only a
    generated dataset being published; True for a published one as well; False never.
    """
    card = load_card(path)
    if card.kind != "eval":
        raise AtlasError(f"{path}: the audit covers eval datasets; this one is {card.kind!r}")
    rows, problems = validate_rows(path, card.kind)
    if problems:
        raise AtlasError("; ".join(problems[:5]))
    if published is None:
        published = card.id in load_registry(path.parent)
    generator = root / card.generator.path if card.generator is not None else None
    pooled: list[dict[str, Any]] = []
    failed: dict[int, str] = {}
    if (not published if fresh is None else fresh) and not card.external:
        pooled, failed = fresh_rows(card, root)
    result = audit_rows(card.id, rows, path, published, card.external, generator, root, pooled)
    result.fresh_failed = failed
    return result


def audit_corpus(root: Path = DATASETS_DIR, repo_root: Path = Path(".")) -> dict[str, DatasetAudit]:
    """Audit every eval dataset under ``root`` whose card and rows load; keyed by id."""
    out: dict[str, DatasetAudit] = {}
    for card_path in sorted(root.glob("*/dataset.json")):
        try:
            if load_card(card_path.parent).kind == "eval":
                out[card_path.parent.name] = audit_dataset(card_path.parent, root=repo_root)
        except AtlasError:
            continue  # structural problems are reported by the schema check
    return out
