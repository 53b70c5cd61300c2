"""What ``atlas compare A B --plan MDE`` prints: one line per workload row (issue 18)."""

from __future__ import annotations

import json
from dataclasses import asdict

from stages.compare.display import scale
from stages.compare.plan import Plan, plan
from stages.compare.render import fit, label
from stages.compare.row import ALPHA
from stages.compare.run import Comparison

HEADER = ["workload", "items", "MDE now", "items needed", "fresh instances"]


def _cells(item: Plan, unit: float, name: str) -> list[str]:
    mde = "—" if item.mde is None else f"{unit * item.mde:.1f}"
    needed = "more than 10^7" if item.needed is None else f"{item.needed:,}"
    size = f"{item.instance_size:,}"
    fresh = "—" if item.instances is None else f"{item.instances} of {size} items"
    return [name, f"{item.items:,}", mde, needed, fresh]


def plan_output(result: Comparison, target: float, as_json: bool) -> str:
    sizes = {
        name: len({a.id for a, _ in paired.pairs if a.seed is None})
        for name, paired in result.paired.items()
    }
    plans = plan(result.rows, target, sizes, ALPHA)
    if as_json:
        return (
            json.dumps({"target_points": target, "plans": [asdict(p) for p in plans]}, indent=2)
            + "\n"
        )
    primary = {(r.workload, r.measure): r for r in result.rows if r.role == "primary"}
    body = []
    for item in plans:
        row = primary[(item.workload, item.measure)]
        body.append(_cells(item, scale(row), label(row)))
    lines = [
        f"Plan: the items each workload needs to detect {target:g} points with 80% power (alpha",
        f"{ALPHA:g} over {len(plans)} workload rows), from the discordance and design effect seen",
        "between A and B; fresh instances are `fresh_seeds` in params.yaml.",
        "",
        *fit(HEADER, body, {1, 2, 3}),
    ]
    lines += [f"{p.workload}: {p.note}" for p in plans if p.note]
    return "\n".join(lines) + "\n"
