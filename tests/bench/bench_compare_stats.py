"""The statistical guarantees of ``atlas compare`` over the larger Monte Carlo grid (issue 18):
paired-delta coverage, family-wise error of null tables of 10 and 22 workloads with 3 categories
each, power at the printed MDE, and the coverage of the single-revision accuracy interval, per
design (independent, clustered 4 and 10, repeated 3) at 12 to 500 records and accuracy 0.1, 0.5,
0.9. ``make test`` runs a bounded grid (``tests/compare/test_simulation.py``).

Run: ``.venv/bin/python tests/bench/bench_compare_stats.py [--before DIR] [--json OUT]``.
``--before DIR`` also judges the same draws with the code before issue 18, exported with
``git archive 98fc018 stages | tar -x -C DIR``, and prints the before/after table
(``--before-json OUT`` reuses the before figures of an earlier ``--json OUT``). Prints figures;
asserts nothing. Runtime on two shared cores: about 6 minutes, 25 more with ``--before``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "compare")]

import current  # noqa: E402
from figures import measure  # noqa: E402

SETTINGS = {"replicates": 5000, "tables": 2000, "workloads": (10, 22)}
DESIGNS = ("independent", "clustered4", "clustered10", "repeated3")


def _parts(key: str) -> tuple[str, int, float, str]:
    design, groups, p, *rest = key.split("/")
    return design, int(groups), float(p), "/".join(rest)


def _span(values: list[float]) -> str:
    values = [v for v in values if v is not None]
    if not values:
        return "—"
    low, high = min(values), max(values)
    return f"{100 * low:.1f} %" if low == high else f"{100 * low:.1f}–{100 * high:.1f} %"


def summary(figures: dict[str, Any], design: str) -> dict[str, str]:
    """The before/after table's cells for one design."""
    size = {"independent": 1, "clustered4": 4, "clustered10": 10, "repeated3": 3}[design]

    def pick(kind: str, keep: Any) -> list[float]:
        out = []
        for key, value in figures[kind].items():
            d, groups, p, rest = _parts(key)
            if d == design and keep(groups, p, rest):
                out.append(value)
        return out

    trusted = pick("coverage", lambda g, p, r: g >= (30 if size == 1 else 20))
    small = pick("coverage", lambda g, p, r: size == 1 and g == 12)
    fwer = pick("fwer", lambda g, p, r: True)
    printed = {k for k, v in figures["shown"].items() if v >= 0.5}
    power = [v for k, v in figures["power"].items() if k in printed and k.startswith(design + "/")]
    head = pick("headline", lambda g, p, r: r == "headline")
    block = pick("headline", lambda g, p, r: r == "clustered block")
    return {
        "paired-Δ coverage, ≥ 20 clusters / ≥ 30 items": _span(trusted),
        "paired-Δ coverage, n = 12": _span(small),
        "family-wise error (max)": _span([max(fwer)]) if fwer else "—",
        "power at the printed MDE": _span(power),
        "headline interval coverage": _span(head),
        "clustered-block interval coverage": _span(block) if block else "(same as headline)",
    }


def table(after: dict[str, Any], before: dict[str, Any] | None) -> list[str]:
    lines = ["| figure | design | before | after |", "|---|---|---|---|"]
    for design in DESIGNS:
        now = summary(after, design)
        then = summary(before, design) if before else dict.fromkeys(now, "—")
        for name in now:
            lines.append(f"| {name} | {design} | {then[name]} | {now[name]} |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", type=Path)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--before-json", type=Path, help="reuse the before figures of --json")
    parser.add_argument("--replicates", type=int, default=SETTINGS["replicates"])
    parser.add_argument("--tables", type=int, default=SETTINGS["tables"])
    args = parser.parse_args()
    settings = {"replicates": args.replicates, "tables": args.tables,
                "workloads": SETTINGS["workloads"]}  # fmt: skip
    started = time.perf_counter()
    after = measure(current.Current(), **settings)
    print(f"after: {time.perf_counter() - started:.0f} s", flush=True)
    before = None
    if args.before_json is not None:
        before = json.loads(args.before_json.read_text())["before"]
    elif args.before is not None:
        started = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "before.json"
            command = [sys.executable, str(HERE / "compare_before.py"), str(args.before), str(out),
                       json.dumps(settings)]  # fmt: skip
            subprocess.run(command, check=True)
            before = json.loads(out.read_text())
        print(f"before: {time.perf_counter() - started:.0f} s", flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps({"after": after, "before": before, **settings}, indent=1))
    print(f"\n{settings['replicates']} replicates a cell ({settings['tables']} tables for the "
          "family-wise error)\n")  # fmt: skip
    print("\n".join(table(after, before)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
