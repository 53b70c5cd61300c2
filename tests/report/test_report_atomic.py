"""``atlas report`` commits report.md, report.html, the headline and plot files (and the deletion
of stale ones) as one set (issue 24): killed at any write, the old report or the new one."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))
from kill_points import atlas, kill_at_every_write, snapshot  # noqa: E402


def _outputs(*roots: Path) -> list[str]:
    found = {"report.md", "report.html"}
    for root in roots:
        for folder in ("metrics/summary", "metrics/plots"):
            found |= {str(p.relative_to(root)) for p in (root / folder).rglob("*.json")}
    return sorted(found)


def test_kill_at_every_write_of_report_leaves_old_or_new(
    scored_project: Path, tmp_path_factory: object
) -> None:
    base = Path(str(tmp_path_factory.mktemp("kill")))  # type: ignore[attr-defined]
    old = base / "old"
    shutil.copytree(scored_project, old)
    assert atlas(old, "report").returncode == 0
    # the next report differs: new accuracy, and workload lc is gone (its files become stale)
    metrics = json.loads((old / "metrics/math.json").read_text())
    metrics["accuracy"] = 0.25
    (old / "metrics/math.json").write_text(json.dumps(metrics))
    (old / "params.yaml").write_text(
        (old / "params.yaml").read_text().replace("  lc:\n    dataset: eval-lc-v1\n", "")
    )
    expected = base / "expected"
    shutil.copytree(old, expected)
    assert atlas(expected, "report").returncode == 0
    outputs = _outputs(old, expected)
    new = snapshot(expected, outputs)
    assert (
        new["metrics/summary/lc.json"] is None and snapshot(old, outputs)["metrics/summary/lc.json"]
    )
    kept_old, got_new = kill_at_every_write(base / "run", ["report"], outputs, old, new)
    assert kept_old >= 3 and got_new >= 3
