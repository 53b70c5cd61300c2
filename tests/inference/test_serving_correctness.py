"""Correctness under load (issue 23): an eval workload's load levels send the same items, and
``atlas score`` pairs each level's verdicts with the baseline level's (compare_records, issue 18).
A stub that corrupts its answers while more than four requests are in flight shows the flips at
concurrency 8 as a finding with an error bar; at concurrency 1 nothing flips."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from infer_helpers import eval_row, oracle, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main
from stages.report.tables import load_sentences

ITEMS = 24


def test_answers_corrupted_above_a_concurrency_show_as_flips(
    project: Path, stub: StubServer
) -> None:
    corrupted: list[str] = []

    def reply(body: dict[str, Any]) -> str:
        if stub.stats.in_flight > 4:  # a server whose batching breaks answers under load
            corrupted.append(body["messages"][-1]["content"])
            return "Answer: -1"
        return oracle(body)

    stub.config.reply_fn, stub.config.delay_s = reply, 0.05
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(ITEMS)])
    load = {"mode": "concurrency", "levels": [8, 1]}
    write_params(
        project,
        stub.url,
        run={"concurrency": 1},
        workloads={"w": {"dataset": "eval-t-v1", "load": load}},
    )
    assert main(["infer", "w"]) == 0
    index = json.loads((project / "results/w/load/index.json").read_text())
    assert sorted(index["levels"]) == ["1", "8"]
    assert [e["id"] for e in index["levels"]["8"]["runs"][0]] == [
        f"q-{i:04d}" for i in range(ITEMS)
    ]
    assert main(["score", "w"]) == 0
    metrics = json.loads((project / "metrics/w.json").read_text())
    assert metrics["accuracy"] == 1.0  # the main pass ran one at a time
    block = metrics["load"]
    assert (block["mode"], block["baseline"]) == ("concurrency", "1")
    assert block["levels"]["1"] == {"n": ITEMS, "correct": ITEMS, "failed": 0, "accuracy": 1.0}
    flipped = sorted(f"q-{int(q.split()[2]):04d}" for q in corrupted)
    k = len(flipped)
    assert 8 <= k < ITEMS  # most requests at concurrency 8 overlapped more than four others
    level = block["levels"]["8"]
    assert (level["n"], level["correct"], level["accuracy"]) == (
        ITEMS,
        ITEMS - k,
        round((ITEMS - k) / ITEMS, 6),  # metrics carry 6 decimals
    )
    paired = level["vs_baseline"]["accuracy"]
    assert paired["right_to_wrong"] == flipped and paired["wrong_to_right"] == []
    assert paired["flips"] == k and paired["n"] == ITEMS
    assert paired["baseline"] == 1.0
    assert math.isclose(paired["level"], (ITEMS - k) / ITEMS, abs_tol=1e-6)
    assert math.isclose(paired["delta"], -k / ITEMS, abs_tol=1e-6)
    assert paired["test"] == "mcnemar-exact"
    assert math.isclose(paired["p"], 2 * 0.5**k, abs_tol=1e-6)  # all k discordant pairs one way
    assert paired["verdict"] == "worse under load"
    assert paired["ci95"]["high"] < 0 < 1  # the drop has an error bar that excludes zero
    ci = paired["ci95"]
    assert load_sentences(metrics) == [
        "Under load (concurrency 8 against 1, the same items paired): accuracy "
        f"{100 * (ITEMS - k) / ITEMS:.1f} % vs 100.0 %, Δ {-100 * k / ITEMS:+.1f} pt, 95 % CI "
        f"{100 * ci['low']:+.1f} to {100 * ci['high']:+.1f}, flips -{k}/+0, **worse under load** "
        f"(mcnemar-exact, p adj {2 * 0.5**k:.3f})."
    ]  # the report's sentence
    assert main(["score", "w"]) == 0  # scoring again: the same bytes
    assert json.loads((project / "metrics/w.json").read_text()) == metrics


MODULE = (
    "import { getUser, configLoader } from './core.js';\n"
    "export function report(id) { return configLoader(getUser(id)); }\n"
    "export const size = 4096;\n"
)


def _longgen_row(idx: int) -> dict[str, Any]:
    prompt = f"// project {idx}\nexport function getUser(id) {{ return id; }}\nTask: report.js"
    meta = {"context_identifiers": ["getUser", "configLoader"], "line_range": [3, 10]}
    return eval_row(idx, prompt=prompt, answer="clean", scorer="splice", meta=meta)


def test_longgen_integrity_share_is_reported_per_level(project: Path, stub: StubServer) -> None:
    """The issue's class of fault: a server that welds identifiers of long generations under
    load. Each level carries its own integrity shares; the level's spliced answers are the flips."""
    welded: list[str] = []

    def reply(body: dict[str, Any]) -> str:
        if stub.stats.in_flight > 4:
            welded.append(body["messages"][-1]["content"].split()[2])
            return "```js\n" + MODULE.replace("getUser(id)", "getUserconfigLoader(id)") + "```\n"
        return "```js\n" + MODULE + "```\n"

    stub.config.reply_fn, stub.config.delay_s = reply, 0.05
    write_dataset(project, "eval-t-v1", "eval", [_longgen_row(i) for i in range(ITEMS)])
    load = {"mode": "concurrency", "levels": [1, 8]}
    write_params(
        project,
        stub.url,
        run={"concurrency": 1},
        workloads={"w": {"dataset": "eval-t-v1", "load": load}},
    )
    assert main(["infer", "w"]) == 0
    assert main(["score", "w"]) == 0
    levels = json.loads((project / "metrics/w.json").read_text())["load"]["levels"]
    k = len(welded)
    assert 8 <= k < ITEMS
    assert levels["1"]["integrity"]["intact"] == {"n": ITEMS, "count": ITEMS, "share": 1.0}
    assert levels["1"]["integrity"]["intact_complete"] == {"n": ITEMS, "count": ITEMS, "share": 1.0}
    intact = levels["8"]["integrity"]["intact"]
    assert (intact["n"], intact["count"]) == (ITEMS, ITEMS - k)
    assert intact["share"] == round((ITEMS - k) / ITEMS, 6)
    paired = levels["8"]["vs_baseline"]["accuracy"]
    assert paired["right_to_wrong"] == sorted(f"q-{int(i):04d}" for i in welded)
    assert paired["verdict"] == "worse under load"
