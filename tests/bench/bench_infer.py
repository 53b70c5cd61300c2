"""Inference client speed (issue 3, "Benchmark"): the whole ``atlas infer`` command, start-up
included, sending 2,000 streamed requests to a loopback stub that answers after 100 ms.

Targets: concurrency 32 >= 90 % of the ideal 320 req/s; concurrency 128 >= 75 % of the ideal
1,280 req/s; median TTFT within 5 ms of the injected 100 ms; ``atlas infer --help`` <= 1 s.
Also printed: the whole command when every request is already journaled (start-up, plan, journal,
manifest and exit: what a no-op ``dvc repro`` step costs). The bench dataset is published in its
registry, as every dataset of the project is. Each figure is the best of ``RUNS`` runs (the
machine may be shared). Run from the project root: ``.venv/bin/python tests/bench/bench_infer.py``.
"""

from __future__ import annotations

import importlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
ATLAS = str(Path(sys.executable).parent / "atlas")
DELAY_S = 0.1
REQUESTS = 2000
RUNS = 3
DATASET = "prompts-bench-v1"


def _gen_lib() -> Any:
    """``_gen/common/lib.py``, imported as the generators import it (``_gen/`` on the path)."""
    if str(REPO / "_gen") not in sys.path:
        sys.path.insert(0, str(REPO / "_gen"))
    return importlib.import_module("common.lib")


def _project(root: Path, url: str) -> None:
    lib = _gen_lib()
    rows = [
        lib.prompt_row(f"b-{i:05d}", "bench", "en", [{"role": "user", "content": f"Ping {i}."}])
        for i in range(REQUESTS)
    ]
    lib.write_dataset(
        root / "datasets" / DATASET, dataset_id=DATASET, kind="prompts", description="bench",
        generator_path=f"_gen/{DATASET}.py", seed=1, default_scorer=None, created="2026-01-01",
        rows=rows,
    )  # fmt: skip
    from stages.datasets.registry import publish

    publish(DATASET, root / "datasets")
    _params(root, url, 32)


def _params(root: Path, url: str, concurrency: int, limit: int | None = None) -> None:
    params = {
        "model": {"base_url": url, "name": "stub", "revision": "bench", "api_key_env": None},
        "decoding": {"temperature": 0.0, "top_p": 1.0, "max_tokens": 16, "seed": 0},
        "run": {"concurrency": concurrency, "timeout_s": 60, "max_retries": 3, "limit": limit},
        "workloads": {"bench": {"dataset": DATASET, "stream": True}},
    }
    (root / "params.yaml").write_text(json.dumps(params), encoding="utf-8")


def _infer_once(root: Path) -> tuple[float, list[dict[str, Any]], float]:
    shutil.rmtree(root / "results", ignore_errors=True)
    start = time.perf_counter()
    done = subprocess.run([ATLAS, "infer", "bench"], cwd=root, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"atlas infer failed: {done.stderr}")
    journal = root / "results" / "bench" / "responses.jsonl"
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    metrics = json.loads((root / "metrics" / "bench.serving.json").read_text())
    main = metrics.get("main", metrics)  # issue 14: the main pass's figures
    return seconds, records, float(main["requests_per_s"])


def _noop_seconds(root: Path) -> float:
    """Whole ``atlas infer`` when all 2,000 requests are journaled: nothing is sent."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        done = subprocess.run([ATLAS, "infer", "bench"], cwd=root, capture_output=True, text=True)
        best = min(best, time.perf_counter() - start)
        if done.returncode != 0 or "2000 already done, 0 sent" not in done.stderr:
            raise SystemExit(f"no-op atlas infer failed: {done.stderr}")
    return best


def _help_seconds() -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([ATLAS, "infer", "--help"], capture_output=True, check=True)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    stub = subprocess.Popen(
        [sys.executable, str(REPO / "tests" / "stub_server.py"), "--delay", str(DELAY_S)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert stub.stdout is not None
    port = int(stub.stdout.readline().split()[1])
    root = Path(tempfile.mkdtemp(prefix="bench-infer-"))
    try:
        _project(root, f"http://127.0.0.1:{port}/v1")
        for concurrency, target in ((32, 0.90), (128, 0.75)):
            _params(root, f"http://127.0.0.1:{port}/v1", concurrency)
            runs = [_infer_once(root) for _ in range(RUNS)]
            seconds, records, pass_rate = min(runs, key=lambda run: run[0])
            failed = sum(r["error"] is not None for r in records)
            ideal = concurrency / DELAY_S
            rate = REQUESTS / seconds
            ttft = statistics.median(r["ttft_s"] for r in records if r["ttft_s"] is not None)
            all_runs = ", ".join(f"{REQUESTS / run[0]:.0f}" for run in runs)
            print(
                f"concurrency {concurrency:>3}: {REQUESTS} requests in {seconds:.2f} s (whole "
                f"command) = {rate:.0f} req/s, {rate / ideal:.2f} of ideal {ideal:.0f} "
                f"(target >= {target:.2f}) [runs: {all_runs} req/s]; sending alone "
                f"{pass_rate:.0f} req/s = {pass_rate / ideal:.2f}, start-up and exit "
                f"{seconds - REQUESTS / pass_rate:.2f} s; failed {failed}; "
                f"median TTFT {ttft * 1000:.1f} ms, error {(ttft - DELAY_S) * 1000:+.1f} ms "
                "(target <= 5 ms)"
            )
            print(
                f"concurrency {concurrency:>3}: rerun with all {REQUESTS} requests journaled "
                f"(whole command, nothing sent): {_noop_seconds(root):.2f} s"
            )
        _params(root, f"http://127.0.0.1:{port}/v1", 4, limit=200)
        _, records, _ = _infer_once(root)
        ttft = statistics.median(r["ttft_s"] for r in records if r["ttft_s"] is not None)
        print(
            f"light load (concurrency 4, 200 requests): median TTFT {ttft * 1000:.1f} ms, "
            f"error {(ttft - DELAY_S) * 1000:+.1f} ms (target <= 5 ms)"
        )
        print(f"`atlas infer --help` start-up: {_help_seconds():.2f} s (target <= 1 s)")
    finally:
        stub.terminate()
        stub.wait(10)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
