"""Issue 34 over a larger grid than ``tests/compare/test_simulation_unequal.py``: heavy-tailed
cluster sizes (20 to 200 clusters), graded scores (sparse 0/1-heavy on independent items, in
clusters of 4 and in heavy-tailed clusters) and null tables of 10 workloads in clusters, in the
copy and the latent-normal families (``tests/compare/unequal.py``), judged by this code and, on
the same draws, as the code before issue 34 judged them (CR1, t(G - 1), the floor on clusters,
a Wald t for graded rows).

Run: ``.venv/bin/python tests/bench/bench_unequal_clusters.py [--replicates N] [--tables N]``.
Prints figures; asserts nothing. Runtime on two shared cores: about 6 minutes at the defaults.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "compare")]

import unequal as u  # noqa: E402
import unequal_stats as us  # noqa: E402

FAMILIES = ("copy", "latent")
HEAVY_GROUPS = (20, 30, 60, 100, 200)
#: (sizes, clusters, share of items B changes); in the last three a few large clusters carry
#: all of the difference (the exchangeable floor of stages/compare/exchangeable.py).
GRADED = (("independent", 12, 0.15), ("independent", 30, 0.15), ("independent", 100, 0.15),
          ("equal4", 20, 0.3), ("equal4", 30, 0.3), ("heavy", 60, 0.3), ("heavy", 100, 0.3),
          ("heavy", 60, 0.15), ("heavy", 100, 0.15), ("heavy", 200, 0.15))  # fmt: skip
TABLES = (("heavy", 60), ("heavy", 100), ("equal4", 20))


def _pct(values: list[float], worst: str) -> str:
    real = [v for v in values if not math.isnan(v)]
    if not real:
        return "no interval"
    return f"{100 * (min(real) if worst == 'min' else max(real)):.1f} %"


def binary(replicates: int, before: bool) -> dict[str, dict[int, str]]:
    out: dict[str, dict[int, str]] = {"coverage": {}, "type-I": {}, "headline": {}}
    for groups in HEAVY_GROUPS:
        cover, error, head = [], [], []
        for family in FAMILIES:
            for p in (0.1, 0.5, 0.9):
                sign = 1.0 if p <= 0.5 else -1.0
                for delta in (0.0, 0.05 * sign, 0.1 * sign):
                    f = us.figures(
                        u.Cell(family, "heavy", groups, p), delta, replicates, False, before
                    )
                    cover.append(f["coverage"])
                    head.append(f["headline"])
                    if delta == 0:
                        error.append(f["called"])
        out["coverage"][groups] = _pct(cover, "min")
        out["type-I"][groups] = _pct(error, "max")
        out["headline"][groups] = _pct(head, "min")
    return out


def graded(replicates: int, before: bool) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {"coverage": {}, "type-I": {}}
    for sizes, groups, changed in GRADED:
        cover, error = [], []
        for family in FAMILIES:
            for delta in (0.0, 0.05):
                cell = u.Cell(family, sizes, groups, changed=changed)
                f = us.figures(cell, delta, replicates, True, before)
                cover.append(f["coverage"])
                if delta == 0:
                    error.append(f["called"])
        name = f"{sizes} {groups}, {round(100 * changed)} % changed"
        out["coverage"][name] = _pct(cover, "min")
        out["type-I"][name] = _pct(error, "max")
    return out


def tables(count: int, before: bool) -> dict[str, str]:
    out = {}
    for sizes, groups in TABLES:
        for kind, is_graded in (("binary + categories", False), ("graded", True)):
            values = [us.fwer(u.Cell(family, sizes, groups), 10, count, is_graded, before)
                      for family in FAMILIES]  # fmt: skip
            out[f"{sizes} {groups}, {kind}"] = _pct(values, "max")
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--replicates", type=int, default=5000)
    parser.add_argument("--tables", type=int, default=2000)
    args = parser.parse_args()
    started = time.perf_counter()
    result = {}
    for label, before in (("before", True), ("after", False)):
        result[label] = (binary(args.replicates, before), graded(args.replicates, before),
                         tables(args.tables, before))  # fmt: skip
        print(f"{label}: {time.perf_counter() - started:.0f} s", flush=True)
    print(f"\n{args.replicates} tables a cell ({args.tables} for the family-wise error); worst "
          "cell over both families, accuracy 0.1/0.5/0.9 and effects 0/5/10 points\n")  # fmt: skip
    print("| heavy-tailed clusters | figure | before | after |\n|---|---|---|---|")
    for figure in ("coverage", "type-I", "headline"):
        for groups in HEAVY_GROUPS:
            then, now = result["before"][0][figure][groups], result["after"][0][figure][groups]
            print(f"| {groups} | {figure} | {then} | {now} |")
    print("\n| graded design | figure | before | after |\n|---|---|---|---|")
    for figure in ("coverage", "type-I"):
        for name in result["after"][1][figure]:
            then, now = result["before"][1][figure][name], result["after"][1][figure][name]
            print(f"| {name} | {figure} | {then} | {now} |")
    print("\n| null tables of 10 workloads | before | after |\n|---|---|---|")
    for name in result["after"][2]:
        print(f"| {name} | {result['before'][2][name]} | {result['after'][2][name]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
