"""``atlas check``: prove the corpus before anything is sent to a model.

Checks, each reporting every problem it finds (never only the first):

* schema — card and rows valid, ids unique, card row count and file digests match;
* references — every ``image`` / ``static_file`` a row names exists inside the dataset;
* budget — ``datasets/`` plus ``_gen/`` within ``check.budget_mb``;
* determinism — each generator rerun into temporary directories, in fresh processes under two
  ``PYTHONHASHSEED`` values, gives the committed bytes (``stages.datasets.regen``);
* immutability — published datasets still hash to what ``registry.json`` pinned;
* gen stages — each ``gen-<id>`` stage in dvc.yaml lists exactly its generator's imports;
* dataset hooks — normative files shipped with a dataset (e.g. ``rules.py --self-test``);
* shortcut audit — per answer format the learned answer-free baseline, scorer strength per row
  (near misses, alternatives, echoes, flexible against strict), code mutation testing,
  uniqueness, leaks and duplicates of every eval dataset (``stages.datasets.audit``); only
  datasets not yet published can fail it.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stages.datasets.audit import DatasetAudit, audit_corpus
from stages.datasets.card import DatasetCard
from stages.datasets.gen_stages import stage_failures
from stages.datasets.haystack_check import haystack_failures
from stages.datasets.load import CARD_FILE, DATASETS_DIR, ROWS_FILE, load_card, validate_rows
from stages.datasets.regen import first_difference as first_difference  # noqa: F401 (tests)
from stages.datasets.regen import regenerate
from stages.datasets.registry import REGISTRY_FILE, file_digests, immutability_failures
from stages.errors import AtlasError

GEN_DIR = Path("_gen")
MB = 1_000_000


@dataclass
class CheckReport:
    """What the check found: sizes, per-dataset row counts and every failure."""

    bytes_used: int = 0
    budget_bytes: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    audits: dict[str, DatasetAudit] = field(default_factory=dict)

    def metrics(self) -> dict[str, Any]:
        """``metrics/check.json`` content: dicts keyed by dataset id, never lists."""
        return {
            "bytes_used": self.bytes_used,
            "budget_bytes": self.budget_bytes,
            "budget_used_fraction": round(self.bytes_used / self.budget_bytes, 4),
            "datasets": len(self.rows),
            "failures": len(self.failures),
            "rows": dict(sorted(self.rows.items())),
            "bytes": dict(sorted(self.sizes.items())),
        }


def tree_bytes(path: Path) -> int:
    """Bytes of every file under ``path``, skipping caches (``__pycache__``)."""
    if not path.exists():
        return 0
    return sum(
        p.stat().st_size for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    )


def largest(sizes: dict[str, int], count: int = 3) -> str:
    """The ``count`` biggest datasets with their size, e.g. ``eval-x-v1 9.10 MB, ...``."""
    top = sorted(sizes.items(), key=lambda item: (-item[1], item[0]))[:count]
    return ", ".join(f"{name} {size / MB:.2f} MB" for name, size in top)


def _referenced_files(row: dict[str, Any]) -> list[tuple[str, str]]:
    refs = []
    for key in ("image", "static_file"):
        value = row.get(key)
        if isinstance(value, str):
            refs.append((key, value))
    return refs


def check_structure(path: Path, card: DatasetCard) -> tuple[list[dict[str, Any]], list[str]]:
    """Schema, card consistency and referenced files of one dataset."""
    problems: list[str] = []
    if card.id != path.name:
        problems.append(
            f"{path / CARD_FILE}: id: {card.id!r} does not match directory {path.name!r}"
        )
    rows, row_problems = validate_rows(path, card.kind)
    problems += row_problems
    if not row_problems and card.rows != len(rows):
        problems.append(
            f"{path / CARD_FILE}: rows: card says {card.rows}, {ROWS_FILE} has {len(rows)}"
        )
    actual = {k: v for k, v in file_digests(path).items() if k != CARD_FILE}
    for rel in sorted(set(card.files) | set(actual)):
        if rel not in actual:
            problems.append(f"{path / CARD_FILE}: files: {rel} is listed but missing")
        elif rel not in card.files:
            problems.append(f"{path / rel}: not listed in the card's files")
        elif card.files[rel] != actual[rel]:
            problems.append(f"{path / rel}: sha256 differs from the card's files entry")
    rows_path = path / ROWS_FILE
    for number, row in enumerate(rows, start=1):
        for key, rel in _referenced_files(row):
            target = (path / rel).resolve()
            if not target.is_relative_to(path.resolve()) or not target.is_file():
                problems.append(f"{rows_path}: row {row['id']}: {key}: {rel} does not exist")
        del number
    return rows, problems


def _rules_self_test(path: Path) -> list[str]:
    rules = path / "rules.py"
    if not rules.is_file():
        return []
    proc = subprocess.run(
        [sys.executable, str(rules), "--self-test"], capture_output=True, text=True
    )
    if proc.returncode != 0:
        last = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return [f"{rules}: --self-test failed: {last[0]}"]
    return []


#: Extra checks a dataset can ship normative code for; each returns failure messages.
DATASET_HOOKS: list[Callable[[Path], list[str]]] = [_rules_self_test, haystack_failures]


def run_check(
    budget_mb: float,
    datasets_root: Path = DATASETS_DIR,
    repo_root: Path = Path("."),
    regenerate_all: bool = True,
) -> CheckReport:
    """Run every check over ``datasets_root`` and return the report (it never raises for
    problems in the data; those are collected in ``report.failures``)."""
    report = CheckReport(budget_bytes=int(budget_mb * MB))
    if not datasets_root.is_dir():
        raise AtlasError(f"{datasets_root}: no datasets directory")
    cards: dict[str, tuple[Path, DatasetCard]] = {}
    for path in sorted(
        p for p in datasets_root.iterdir() if p.is_dir() and not p.name.startswith(".")
    ):
        try:
            card = load_card(path)
        except AtlasError as exc:
            report.failures.append(str(exc))
            continue
        rows, problems = check_structure(path, card)
        report.failures += problems
        report.rows[card.id] = len(rows)
        report.sizes[card.id] = tree_bytes(path)
        for hook in DATASET_HOOKS:
            report.failures += hook(path)
        cards[card.id] = (path, card)
    stray = [p.name for p in datasets_root.iterdir() if p.is_file() and p.name != REGISTRY_FILE]
    report.failures += [f"{datasets_root / name}: stray file outside any dataset" for name in stray]

    report.bytes_used = tree_bytes(datasets_root) + tree_bytes(repo_root / GEN_DIR)
    if report.bytes_used > report.budget_bytes:
        report.failures.append(
            f"budget: datasets/ + _gen/ use {report.bytes_used / MB:.2f} MB, over the "
            f"{budget_mb:g} MB limit (check.budget_mb); largest: {largest(report.sizes)}; "
            "store a recipe instead of the text"
        )
    if regenerate_all:
        generated = [(path, card) for path, card in cards.values() if card.generator is not None]
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = pool.map(lambda item: regenerate(item[1], item[0], repo_root), generated)
            report.failures += [r for r in results if r]
    report.failures += immutability_failures(datasets_root)
    report.failures += stage_failures(repo_root)
    report.audits = audit_corpus(datasets_root, repo_root)
    for audit in report.audits.values():
        if audit.status == "fail":
            report.failures += [f"audit: {problem}" for problem in audit.problems()]
    return report
