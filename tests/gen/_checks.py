"""Checks that several tests/gen modules share: a dataset's committed rows, its generator loaded
as a module, the gold text of a row, the (call, expected) cases of a code row's one-line asserts,
the in-process regeneration check, the Monty Hall odds re-derived by walking every path
(commonsense -v2 and -v3 both ask them), and for datasets whose rows carry ``probes`` (issue 19)
the verdicts of each row's own scorer on its probes and on its prompt sent back; for a dataset
that fixes an older one of the same layout, both loaded side by side (:class:`Successor`)."""

from __future__ import annotations

import ast
import importlib.util
import itertools
import json
import os
import re
import sys
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

from stages.datasets import learned, pooled
from stages.datasets.regen import FRESH_SEED_ENV
from stages.scoring.registry import score_row

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


class Successor:
    """A dataset that replaces an older one laid out the same way (``common.suite`` or
    ``common.mc_plan``): row N of both is the same (family, level, form) cell, so an old row's
    id names the new row that fixes it."""

    def __init__(self, dataset_id: str, old_id: str) -> None:
        self.rows = committed_rows(dataset_id)
        self.by_id = {r["id"]: r for r in self.rows}
        self.old = {r["id"]: r for r in committed_rows(old_id)}
        self.gen = load_generator(dataset_id)
        self._prefixes = (_id_prefix(next(iter(self.old))), _id_prefix(self.rows[0]["id"]))

    def new(self, old_id: str) -> dict[str, Any]:
        """The new row in the cell of the old row ``old_id`` (sec3-0013 -> sec4-0013)."""
        old_prefix, new_prefix = self._prefixes
        assert old_id.startswith(old_prefix), old_id
        return self.by_id[new_prefix + old_id[len(old_prefix) :]]


def _id_prefix(row_id: str) -> str:
    return row_id[: row_id.rindex("-") + 1]


def assert_same_cells(rows: list[dict[str, Any]], old_rows: list[dict[str, Any]]) -> None:
    """Both datasets hold as many rows of every (category, difficulty, scorer)."""
    cells = Counter((r["category"], r["difficulty"], r["scorer"]) for r in rows)
    assert cells == Counter((r["category"], r["difficulty"], r["scorer"]) for r in old_rows)


def assert_option_verdicts_single_out_gold(gen: ModuleType, rows: list[dict[str, Any]]) -> None:
    """The generator's ``option_verdicts`` (its family proofs, per option) are the verdicts each
    mc row carries in its probes, and exactly one option, the gold, is right."""
    for row in (r for r in rows if r["scorer"] == "mc"):
        bare = {k: v for k, v in row.items() if k not in ("answer", "probes")}
        verdicts = gen.option_verdicts(bare)
        assert verdicts == row["probes"]["option_ok"], row["id"]
        assert [chr(65 + i) for i, ok in enumerate(verdicts) if ok] == [row["answer"]], row["id"]


def assert_echoes_gone(
    old_rows: list[dict[str, Any]], rows: list[dict[str, Any]], echoed: list[str]
) -> None:
    """Exactly the ``echoed`` old rows score their own prompt sent back; no new row does."""
    assert echo_hits(old_rows) == echoed
    assert echo_hits(rows) == []


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


def verdict(row: dict[str, Any], reply: str) -> tuple[bool, bool]:
    """(strict, flexible) correctness of ``reply`` under the row's own scorer."""
    got = score_row(row, {"output": reply, "error": None}, REPO)
    flexible = got.correct if got.flexible is None else got.flexible.correct
    return bool(got.correct), bool(flexible)


def probe_failures(rows: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """Every probe the row's own scorer misjudges: a near miss scored right (strict or flexible),
    an alternative scored wrong (strict or flexible), a row without probes."""
    bad = []
    for row in rows:
        probes = row.get("probes")
        if not probes or (row["scorer"] != "mc" and not probes.get("near_misses")):
            bad.append((row["id"], "no probes", ""))
            continue
        bad += [
            (row["id"], "near miss", r)
            for r in probes.get("near_misses", [])
            if any(verdict(row, r))
        ]
        bad += [
            (row["id"], "alternative", r)
            for r in probes.get("alternatives", [])
            if not all(verdict(row, r))
        ]
    return bad


def echo_hits(rows: list[dict[str, Any]]) -> list[str]:
    """Ids of rows whose prompt, sent back once or twice, scores right (strict or flexible)."""
    hits = []
    for row in rows:
        echoes = (row["prompt"], f"{row['prompt']}\n\n{row['prompt']}")
        if any(any(verdict(row, echo)) for echo in echoes):
            hits.append(row["id"])
    return hits


def pooled_rows(
    gen: ModuleType, dataset_id: str, keep: Callable[[dict[str, Any]], bool]
) -> list[dict[str, Any]]:
    """The committed rows that ``keep`` selects, then the same cells of the audit's fresh
    instances (``atlas dataset audit --fresh``: its seeds, each row's first draw, built in
    process). A cell is the row index, so its family, level and form are the committed row's.
    Module-level plans (mc gold letters) stay the published seed's: they place the gold, they do
    not choose it."""
    committed = committed_rows(dataset_id)
    picked = [i for i, row in enumerate(committed) if keep(row)]
    rows = [committed[i] for i in picked]
    saved = os.environ.get(FRESH_SEED_ENV)
    try:
        for seed in pooled.SEEDS:
            os.environ[FRESH_SEED_ENV] = str(seed)
            rows += [gen.generate(gen.lib.row_rng(gen.SEED, i), i) for i in picked]
    finally:
        if saved is None:
            os.environ.pop(FRESH_SEED_ENV, None)
        else:
            os.environ[FRESH_SEED_ENV] = saved
    return rows


def pooled_learned(
    gen: ModuleType, dataset_id: str, keep: Callable[[dict[str, Any]], bool]
) -> learned.Learned:
    """The learned answer-free baseline over :func:`pooled_rows` (rows of one format)."""
    return learned.learn(pooled_rows(gen, dataset_id, keep))
