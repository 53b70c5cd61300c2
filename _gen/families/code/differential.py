"""Differential testing for eval-code-v4 (issue 30), in the manner of EvalPlus: the reference
solution and candidate programs run on the same seeded inputs, and a candidate *differs* on an
input where the row's scorer would tell its result from the reference's.

``run`` executes several programs in one fresh interpreter (our own reference and mutant
sources, never a model's), under the sandbox's memory limit; per candidate it reports the inputs
on which it differs from the reference (the first program): it raised, returned something that
is not plain built-in data, or returned a value that is not ``==`` the reference's — exactly
what ``code_exec`` compares. Every loop pass is counted (the driver adds the count to each
``for`` and ``while`` body); a program past its count is reported as hanging, with the input it
was on.

Every run happens under two fixed hash seeds, so a program whose result depends on the order of
a set of strings is caught: an input *kills* a candidate only when it differs under both.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

HASH_SEEDS = ("0", "1")
MEMORY = 512 * 1024 * 1024  # the sandbox's RLIMIT_AS (stages.scoring.sandbox.Limits)
#: Loop passes a program may make in one call: counted, not timed, so whether a mutant "never
#: ends" does not depend on the machine's load. The references make at most a few thousand.
CALL_STEPS = 50_000
#: Seconds before a program stuck where no loop counts (inside one C call) is given up.
BUDGET = 10.0
DRIVER = r"""
import ast, json, os, resource, signal, sys, time
payload = json.loads(sys.stdin.read())
resource.setrlimit(resource.RLIMIT_AS, (payload["memory"], payload["memory"]))
real_stdout, sys.stdout = sys.stdout, open(os.devnull, "w")

class OutOfTime(BaseException):
    pass

def stop(signum, frame):
    raise OutOfTime

class Counted(ast.NodeTransformer):
    # every loop pass first calls __tick__, which counts steps
    def visit_For(self, node):
        self.generic_visit(node)
        node.body.insert(0, ast.Expr(ast.Call(ast.Name("__tick__", ast.Load()), [], [])))
        return node
    visit_While = visit_For

steps = [0, 0]  # this call's loop passes, this program's

def tick():
    steps[0] += 1
    steps[1] += 1
    if steps[0] > payload["call_steps"] or steps[1] > payload["total_steps"]:
        raise OutOfTime

def plain(value, depth=0):
    kind = type(value)
    if depth > 200:
        return False
    if value is None or kind in (bool, int, float, str, bytes, complex):
        return True
    if kind in (list, tuple, set, frozenset):
        return all(plain(item, depth + 1) for item in value)
    if kind is dict:
        return all(plain(k, depth + 1) and plain(v, depth + 1) for k, v in value.items())
    return False

def same(value, expected):
    try:
        return plain(value) and bool(value == expected)
    except BaseException:
        return False

def differs(values):
    return [i for i, ((ok, v), (_, want)) in enumerate(zip(values, reference))
            if not (ok and same(v, want))]

signal.signal(signal.SIGALRM, stop)
calls = [compile(call, "<call>", "eval") for call in payload["calls"]]
reference, out = None, []
for number, solution in enumerate(payload["solutions"]):
    namespace, values, started = {"__name__": "solution", "__tick__": tick}, [], time.perf_counter()
    steps[1] = 0
    signal.setitimer(signal.ITIMER_REAL, payload["budget"])
    try:
        try:
            tree = ast.fix_missing_locations(Counted().visit(ast.parse(solution)))
            exec(compile(tree, "<solution>", "exec"), namespace)
        except OutOfTime:
            raise
        except BaseException:
            namespace = None
        for call in calls:
            steps[0] = 0
            try:
                values.append((True, eval(call, namespace)) if namespace else (False, None))
            except OutOfTime:
                raise
            except BaseException:
                values.append((False, None))
    except OutOfTime:
        out.append({"hang": len(values), "differs": differs(values) if reference else []})
        continue
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if number == 0:
        reference = values
        out.append({"values": [repr(v) for _, v in values],
                    "raised": [i for i, (ok, _) in enumerate(values) if not ok]})
    else:
        out.append({"differs": differs(values)})
    out[-1]["seconds"] = time.perf_counter() - started
    out[-1]["steps"] = steps[1]
real_stdout.write(json.dumps(out))
"""


@dataclass(frozen=True)
class Outcome:
    """One candidate on a list of inputs: where it differs from the reference under every hash
    seed (``differs``) and under some seed (``sometimes``), and where it first ran past its
    loop passes or its time (``hang``: the index of that input; ``differs`` then counts the
    inputs before it)."""

    differs: frozenset[int]
    sometimes: frozenset[int]
    hang: int | None = None


@dataclass(frozen=True)
class Run:
    """The reference's value per input, the inputs it raised on, the loop passes it made, and
    each candidate's outcome."""

    expected: list[Any]
    raised: frozenset[int]
    steps: int
    candidates: list[Outcome]


def _once(solutions: list[str], calls: list[str], limits: dict[str, Any], seed: str) -> list[Any]:
    payload = {"solutions": solutions, "calls": calls, "memory": MEMORY, **limits}
    proc = subprocess.run(
        [sys.executable, "-S", "-s", "-c", DRIVER],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=limits["budget"] * len(solutions) + 30,
        env={"PYTHONHASHSEED": seed},
        check=True,
    )
    return list(json.loads(proc.stdout))


def _guarded(
    solutions: list[str], calls: list[str], limits: dict[str, Any], seed: str
) -> list[Any]:
    """``_once``; when the whole interpreter is stuck (inside one C call, which neither a loop
    count nor an alarm interrupts), each candidate alone, a stuck one hanging at input 0."""
    try:
        return _once(solutions, calls, limits, seed)
    except subprocess.TimeoutExpired:
        out = _once(solutions[:1], calls, limits, seed)
        for solution in solutions[1:]:
            try:
                out += _once([solutions[0], solution], calls, limits, seed)[1:]
            except subprocess.TimeoutExpired:
                out.append({"hang": 0, "differs": []})
        return out


def run(reference: str, candidates: list[str], calls: list[str], total_steps: int) -> Run:
    """Run ``reference`` and ``candidates`` on ``calls``, each program within ``CALL_STEPS`` loop
    passes a call and ``total_steps`` over all calls, under every hash seed; a candidate that
    hangs under the first seed is not run again (its loops would only cost time again)."""
    limits = {"call_steps": CALL_STEPS, "total_steps": total_steps, "budget": BUDGET}
    first = _guarded([reference, *candidates], calls, limits, HASH_SEEDS[0])
    live = [i for i, result in enumerate(first[1:]) if "hang" not in result]
    per_seed = [first]
    for seed in HASH_SEEDS[1:]:
        again = _guarded([reference, *(candidates[i] for i in live)], calls, limits, seed)
        assert again[0]["values"] == first[0]["values"], "the reference depends on the seed"
        per_seed.append([again[0], *(again[1 + live.index(i)] if i in live else first[1 + i]
                                     for i in range(len(candidates)))])  # fmt: skip
    outcomes = []
    for results in zip(*(r[1:] for r in per_seed), strict=True):
        hang = results[0].get("hang")
        seen = [frozenset(r["differs"]) for r in results]
        if hang is not None:  # what it did before it hung counts only as "sometimes"
            outcomes.append(Outcome(frozenset(), seen[0], hang))
        else:
            outcomes.append(Outcome(frozenset.intersection(*seen), frozenset.union(*seen)))
    assert "values" in first[0], first[0]
    expected = [ast.literal_eval(value) for value in first[0]["values"]]
    steps = max(r[0]["steps"] for r in per_seed)
    return Run(expected, frozenset(first[0]["raised"]), steps, outcomes)
