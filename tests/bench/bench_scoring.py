"""Scoring throughput: rows/s over 100k rows with the non-executing scorers (target >= 20k/s),
per-scorer rates, and code_exec sandbox items/s (serial and 4 in parallel).

Run: ``.venv/bin/python tests/bench/bench_scoring.py``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from stages.scoring.code_exec import run_tests
from stages.scoring.registry import score_row
from stages.scoring.sandbox import Limits, isolation_mode

ROWS = 100_000
# Share of each scorer in the mixed workload (weights), roughly the shape of the eval suites.
MIX = {
    "exact": 20, "numeric": 20, "mc": 20, "contains": 10, "tool_call": 10, "drop": 10,
    "instruction": 5, "chrf": 4, "splice": 1,
}  # fmt: skip
RULES = "def evaluate(answer, text):\n    return (len(text.split()) <= answer['max'], [])\n"
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]


def _case(scorer: str, rng: random.Random, i: int) -> tuple[dict[str, Any], dict[str, Any]]:
    reasoning = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 80)))
    row: dict[str, Any] = {"id": f"{scorer}-{i}", "scorer": scorer, "meta": {}}
    calls = None
    if scorer == "exact":
        row["answer"] = ["Paris", "City of Paris"]
        output = f"<think>{reasoning}</think>\nAnswer: {rng.choice(['Paris', 'Lyon'])}."
    elif scorer == "numeric":
        row["answer"] = str(rng.randint(-5000, 5000))
        output = f"{reasoning}\nAnswer: {rng.randint(-5000, 5000):,}"
    elif scorer == "mc":
        row.update(answer="C", choices=["one", "two", "three", "four"])
        output = f"{reasoning}\nFinal answer: ({rng.choice('ABCD')}) text"
    elif scorer == "contains":
        row["answer"] = "gamma ray"
        output = f"I think it is a gamma ray burst. {reasoning}"
    elif scorer == "tool_call":
        row["answer"] = {"tool_call": {"name": "f", "arguments": {"city": "Paris", "n": 3}}}
        arguments = json.dumps({"city": rng.choice(["paris", "Lyon"]), "n": 3, "x": [1, 2]})
        calls = [{"id": "c", "type": "function", "function": {"name": "f", "arguments": arguments}}]
        output = ""
    elif scorer == "drop":
        row["answer"] = [["Broncos", "Chargers"]] if i % 5 == 0 else ["19", "nineteen"]
        output = f"{reasoning}\nAnswer: " + ("Chargers | Broncos" if i % 5 == 0 else "19 yards")
    elif scorer == "instruction":
        row["answer"] = {"max": 50}
        output = reasoning
    elif scorer == "chrf":
        row["answer"] = ["Le chat est assis sur le tapis.", "Le chat s'assoit sur le tapis."]
        output = "Le chat est sur le tapis."
    else:  # splice: a ~200-line generation against a 60-name context
        context = [f"build{w.title()}Index" for w in WORDS] + [f"{w}Loader" for w in WORDS]
        row.update(answer="clean", prompt="export const x = 1;\n" * 50)
        row["meta"]["context_identifiers"] = context
        lines = [
            f"const v{n} = {rng.choice(context)}({n}, '{rng.choice(WORDS)}');" for n in range(200)
        ]
        output = "\n".join(lines)
    return row, {"output": output, "tool_calls": calls, "error": None}


def warm_up(dataset_dir: Path) -> None:
    """Import numpy/scipy (drop multi-span) and sacrebleu (chrf) once, and report the cost."""
    started = time.perf_counter()
    rng = random.Random(0)
    for name in ("drop", "chrf", "instruction"):
        for i in range(5):  # i == 0 is a multi-span drop row
            score_row(*_case(name, rng, i), dataset_dir)
    elapsed = time.perf_counter() - started
    print(f"one-off imports (numpy, scipy, sacrebleu, rules.py): {elapsed:.2f} s")


def bench_rows(dataset_dir: Path) -> None:
    rng = random.Random(7)
    names = [name for name, weight in MIX.items() for _ in range(weight)]
    cases = [_case(names[i % len(names)], rng, i) for i in range(ROWS)]
    per_scorer: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    started = time.perf_counter()
    for row, response in cases:
        t0 = time.perf_counter()
        score_row(row, response, dataset_dir)
        per_scorer[row["scorer"]] += time.perf_counter() - t0
        counts[row["scorer"]] += 1
    elapsed = time.perf_counter() - started
    rate = ROWS / elapsed
    print(f"mixed non-executing scorers: {ROWS} rows in {elapsed:.2f} s = {rate:,.0f} rows/s")
    for name in MIX:
        rate = counts[name] / per_scorer[name]
        print(f"  {name:<12} {counts[name]:>6} rows  {rate:>10,.0f} rows/s")


def bench_code_exec(items: int = 24) -> None:
    code, tests = "def add(a, b):\n    return a + b\n", "assert add(2, 3) == 5\n"
    limits = Limits()
    started = time.perf_counter()
    results = [run_tests(code, tests, limits).passed for _ in range(items)]
    serial = items / (time.perf_counter() - started)
    started = time.perf_counter()
    with ThreadPoolExecutor(4) as pool:
        results += list(pool.map(lambda _: run_tests(code, tests, limits).passed, range(items)))
    parallel = items / (time.perf_counter() - started)
    print(f"code_exec ({isolation_mode()} isolation): {serial:.1f} items/s serial, "
          f"{parallel:.1f} items/s with 4 workers; all passed: {all(results)}")  # fmt: skip


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "rules.py").write_text(RULES)
        warm_up(Path(tmp))
        bench_rows(Path(tmp))
    bench_code_exec()


if __name__ == "__main__":
    main()
