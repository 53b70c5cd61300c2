"""SLO search and the early stop of an over-saturated level (issue 23): the bisection's exact
path, the saturation watch on synthetic backlogs, and a search against a stub whose latency grows
with the rate (two slots of 50 ms: capacity 40 req/s), resumed by a rerun that sends nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path

from infer_helpers import prompt_row, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main
from stages.params import SearchParams
from stages.serving.saturation import SaturationWatch
from stages.serving.search import middle, search


def test_bisection_walks_geometric_middles_and_keeps_the_bracket() -> None:
    seen: list[float] = []

    def meets(rate: float) -> bool:
        seen.append(rate)
        return rate <= 37

    found = search(SearchParams(min_rate=1, max_rate=100, max_levels=7), meets)
    assert seen == [1, 100, 10.0, 31.6, 56.2, 42.1, 36.5]
    assert [middle(1, 100), middle(31.6, 56.2)] == [10.0, 42.1]
    assert (found["rate"], found["bracket"], found["at_least"]) == (
        36.5,
        {"met": 36.5, "missed": 42.1},
        False,
    )
    assert [x["met"] for x in found["levels"]] == [True, False, True, True, False, False, True]
    assert search(SearchParams(min_rate=50, max_rate=100), meets)["rate"] is None
    top = search(SearchParams(min_rate=1, max_rate=30), meets)
    assert (top["rate"], top["at_least"], len(top["levels"])) == (30, True, 2)


def _backlog(watch: SaturationWatch, grow: float, rate: float, seconds: float) -> float | None:
    """Feed the watch a level at ``rate`` whose finished count lags the schedule by a backlog
    that grows by ``grow`` a second (plus Poisson-like noise)."""
    rng = random.Random(0)
    t = 0.0
    while t < seconds:
        t = round(t + 0.1, 3)
        due = int(t * rate)
        backlog = max(0.0, 5 + grow * t + rng.gauss(0, 2.5))
        if watch(t, max(0, due - int(backlog))):
            return t
    return None


def test_a_growing_queue_is_over_saturated_and_a_stable_one_is_not() -> None:
    offsets = [i / 100 for i in range(1000)]  # 100 req/s for 10 s
    stable = SaturationWatch(offsets)
    assert _backlog(stable, 0.0, 100, 10) is None and stable.stopped_at_s is None
    growing = SaturationWatch(offsets)
    stopped = _backlog(growing, 30.0, 100, 10)
    assert stopped is not None and stopped <= 1.5 and growing.stopped_at_s == stopped


def test_search_on_a_server_whose_latency_grows_with_the_rate(
    project: Path, stub: StubServer
) -> None:
    stub.config.slots, stub.config.delay_s = 2, 0.05
    write_dataset(project, "prompts-t-v1", "prompts", [prompt_row(i) for i in range(5)])
    load = {
        "mode": "rate",
        "arrival": "constant",
        "warmup_s": 0.2,
        "duration_s": 3.0,
        "search": {"min_rate": 5, "max_rate": 160, "max_levels": 4},
    }
    workload = {
        "dataset": "prompts-t-v1",
        "perf": True,
        "concurrency": 1,
        "load": load,
        "slo": {"ttft_s": 0.25},
    }
    write_params(project, stub.url, workloads={"w": workload})
    assert main(["infer", "w"]) == 0
    serving = json.loads((project / "metrics" / "w.serving.json").read_text())
    found = serving["search"]
    assert [x["rate"] for x in found["levels"]] == [5, 160, 28.3, 67.3]
    assert [x["met"] for x in found["levels"]] == [True, False, True, False]
    assert (found["rate"], found["bracket"]) == (28.3, {"met": 28.3, "missed": 67.3})
    levels = serving["rate"]
    assert sorted(levels, key=float) == ["5", "28.3", "67.3", "160"]
    for rate in ("67.3", "160"):  # far over capacity: stopped early, long before 3 s
        assert levels[rate]["stopped"]["0"]["reason"] == "over-saturated"
        assert levels[rate]["stopped"]["0"]["after_s"] < 2.5
    assert "stopped" not in levels["5"] and levels["5"]["goodput"]["share"] == 1.0
    assert serving["knee"]["rate"] == 28.3
    sent = stub.stats.requests
    assert main(["infer", "w"]) == 0  # the same path from the journals; nothing sent
    assert stub.stats.requests == sent
    assert json.loads((project / "metrics" / "w.serving.json").read_text())["search"] == found
