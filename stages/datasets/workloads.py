"""``atlas workloads``: every workload in params.yaml with its dataset, size and scorers.

Rows are counted from ``rows.jsonl`` and scorers read from each row's ``scorer`` (the card's
default for rows that name none); nothing is validated here (``atlas check`` does that), so a
missing dataset is shown as missing rather than stopping the listing.
"""

from __future__ import annotations

import json
from pathlib import Path

from stages.datasets.load import CARD_FILE, DATASETS_DIR, ROWS_FILE
from stages.params import PARAMS_FILE, workload, workload_names


def _dataset_facts(path: Path) -> tuple[str, str]:
    """(rows, scorers) of a dataset directory, as text."""
    if not (path / CARD_FILE).is_file():
        return "missing", "-"
    card = json.loads((path / CARD_FILE).read_text(encoding="utf-8"))
    default = card.get("default_scorer")
    rows, scorers = 0, set()
    with (path / ROWS_FILE).open("rb") as handle:
        for line in handle:
            if not line.strip():
                continue
            rows += 1
            if card.get("kind") == "eval":
                scorer = json.loads(line).get("scorer") or default
                scorers.add(str(scorer))
    return str(rows), ",".join(sorted(scorers)) or "-"


def workloads_table(params: Path = PARAMS_FILE, root: Path = DATASETS_DIR) -> str:
    """An aligned table: name, dataset, rows, scorers, perf or eval."""
    table = [("workload", "dataset", "rows", "scorers", "type")]
    for name in workload_names(params):
        spec = workload(name, params)
        rows, scorers = _dataset_facts(root / spec.dataset)
        table.append((name, spec.dataset, rows, scorers, "perf" if spec.perf else "eval"))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = []
    for row in table:
        cells = [
            cell.rjust(w) if i == 2 else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
