"""Checks that several tests/gen modules share: a dataset's committed rows, its generator loaded
as a module, the gold text of a row, the (call, expected) cases of a code row's one-line asserts,
the in-process regeneration check and the Monty Hall odds re-derived by walking every path
(commonsense -v2 and -v3 both ask them)."""

from __future__ import annotations

import ast
import importlib.util
import itertools
import json
import re
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[2]
ASSERT_LINE = re.compile(r"^assert (?P<call>(?P<entry>\w+)\(.*\)) == (?P<expected>.+)$")


def committed_rows(dataset_id: str) -> list[dict[str, Any]]:
    path = REPO / "datasets" / dataset_id / "rows.jsonl"
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def load_generator(dataset_id: str) -> ModuleType:
    """``_gen/<dataset_id>.py`` as a module (its helpers importable from ``_gen``)."""
    sys.path.insert(0, str(REPO / "_gen"))
    path = REPO / "_gen" / f"{dataset_id}.py"
    spec = importlib.util.spec_from_file_location(dataset_id.replace("-", "_"), path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def code_cases(row: dict[str, Any]) -> list[tuple[str, Any]]:
    """(call source, expected value) per test line of an eval-code row."""
    out = []
    for line in row["tests"].splitlines():
        match = ASSERT_LINE.match(line)
        assert match is not None and match["entry"] == row["answer"], line
        out.append((match["call"], ast.literal_eval(match["expected"])))
    return out


def mc_gold(row: dict[str, Any]) -> str:
    """The text of an mc row's correct option."""
    return row["choices"]["ABCD".index(row["answer"])]


def gold_text(row: dict[str, Any]) -> str:
    """The correct answer as text: the mc option, or the first accepted exact/numeric answer."""
    if row["scorer"] == "mc":
        return str(mc_gold(row))
    return str(row["answer"][0] if isinstance(row["answer"], list) else row["answer"])


def assert_letters_balanced(rows: list[dict[str, Any]], overall: int, per_category: int) -> None:
    """Each letter is the gold of exactly ``overall`` mc rows, and of ``per_category`` in every
    category."""
    mc = [r for r in rows if r["scorer"] == "mc"]
    assert Counter(r["answer"] for r in mc) == dict.fromkeys("ABCD", overall)
    for category in {r["category"] for r in rows}:
        counts = Counter(r["answer"] for r in mc if r["category"] == category)
        assert counts == dict.fromkeys("ABCD", per_category), category


def assert_regenerates_in_process(gen: ModuleType, dataset_id: str) -> None:
    """Two in-process runs of ``generate`` give the same rows, byte for byte the committed ones."""
    first = [gen.generate(gen.lib.row_rng(gen.SEED, i), i) for i in range(gen.COUNT)]
    second = [gen.generate(gen.lib.row_rng(gen.SEED, i), i) for i in range(gen.COUNT)]
    text = "".join(gen.lib.canonical_line(r) + "\n" for r in first)
    assert text == "".join(gen.lib.canonical_line(r) + "\n" for r in second)
    assert text == (REPO / "datasets" / dataset_id / "rows.jsonl").read_text("utf-8")


def monty_paths(doors: int, opened: int, knows: bool, see_car: bool) -> Fraction:
    """Odds over every equally likely (car, host's ordered picks, switch) path."""
    wins = runs = Fraction(0)
    cars = [0] if see_car else list(range(doors))
    for car in cars:
        pool = [d for d in range(1, doors) if not (knows or see_car) or d != car]
        sequences = list(itertools.permutations(pool, opened))
        for shown in sequences:
            rest = [d for d in range(1, doors) if d not in shown]
            for pick in rest:
                weight = Fraction(1, len(cars) * len(sequences) * len(rest))
                if car not in shown:
                    runs += weight
                    wins += weight * (pick == car)
    return wins / runs
