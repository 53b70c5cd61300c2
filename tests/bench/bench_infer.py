"""Inference client speed (issues 3, 23): the whole ``atlas infer`` command, start-up and exit
included, sending streamed requests to a loopback stub that answers after 100 ms.

Targets: 2,160 requests at concurrency 32 >= 0.90 of the ideal 320 req/s and at concurrency 128
>= 0.75 of the ideal 1,280 req/s; 20,000 requests at concurrency 128 >= 0.90; median TTFT within
5 ms of the injected 100 ms; ``atlas infer --help`` <= 1 s. Also printed: where start-up and exit
go (the whole command minus the sending pass), the same command when every request is journaled
already (start-up, plan, journal, manifest and exit: what a no-op ``dvc repro`` step costs), that
no-op split into the interpreter's own start and exit, the imports of the infer path and the rest,
and the CPU each side used. Each figure is the best of ``RUNS`` runs (the machine may be shared;
``load`` is the 1-minute load average before the best run). Run from the project root:
``.venv/bin/python tests/bench/bench_infer.py`` (``--quick``: concurrency 128 only).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import ATLAS, Stub, infer, journal, project, serving, write_params  # noqa: E402

DELAY_S = 0.1
RUNS = 3
CASES = ((2160, 32, 0.90), (2160, 128, 0.75), (20_000, 128, 0.90))
IMPORTS = "import stages.cli, stages.serving.cli, stages.serving.stage"
"""What every ``atlas infer`` imports; a run that sends something adds the HTTP client:"""
CLIENT_IMPORTS = f"{IMPORTS}, stages.network.transport"


def _whole(root: Path, stub: Stub, requests: int, concurrency: int, target: float) -> None:
    """One case's figures; at concurrency 128 on the short run, where its start-up and exit go."""
    write_params(root, stub.url, {"limit": requests}, {"concurrency": concurrency})
    runs = [
        (infer(root, stub), serving(root)["main"]) for _ in range(RUNS if requests < 10_000 else 2)
    ]
    command, main = min(runs, key=lambda run: run[0].seconds)
    records = journal(root / "results" / "bench" / "responses.jsonl")
    failed = sum(r["error"] is not None for r in records)
    ideal = concurrency / DELAY_S
    rate = requests / command.seconds
    sending = float(main["requests_per_s"])
    ttft = statistics.median(r["ttft_s"] for r in records if r["ttft_s"] is not None)
    all_runs = ", ".join(f"{requests / run[0].seconds / ideal:.2f}" for run in runs)
    print(
        f"{requests:>6} requests at concurrency {concurrency:>3}: whole command "
        f"{command.seconds:.2f} s "
        f"= {rate:.0f} req/s = {rate / ideal:.2f} of ideal {ideal:.0f} (target >= {target:.2f}) "
        f"[runs: {all_runs}]; sending alone {sending:.0f} req/s = {sending / ideal:.2f}; start-up "
        f"and exit {command.seconds - requests / sending:.2f} s; failed {failed}; median TTFT "
        f"error {(ttft - DELAY_S) * 1000:+.1f} ms; client {command.client_cores:.2f} cores, stub "
        f"{command.stub_cores:.2f} cores, load {command.load:.1f}",
        flush=True,
    )
    if requests < 10_000:
        noop = min((infer(root, stub, fresh=False) for _ in range(5)), key=lambda run: run.seconds)
        if f"{requests} already done, 0 sent" not in noop.stderr:
            raise SystemExit(f"no-op atlas infer sent something: {noop.stderr}")
        print(
            f"{requests:>6} requests at concurrency {concurrency:>3}: rerun with all journaled "
            f"(whole command, nothing sent): {noop.seconds:.2f} s, load {noop.load:.1f}"
        )
        if concurrency == 128:
            _startup_parts(noop.seconds, command.seconds - requests / sending)


def _best_seconds(argv: list[str], runs: int = 5) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=True)
        best = min(best, time.perf_counter() - start)
    return best


def _startup_parts(noop_s: float, after_pass_s: float) -> None:
    """Where a short run's start-up and exit go: the interpreter alone, the modules an
    ``atlas infer`` imports, and the rest of a run that sends nothing (plan, journal read,
    manifest and metrics written, exit); ``after_pass_s`` is what sending adds beyond the pass."""
    bare = _best_seconds([sys.executable, "-c", "pass"])
    imports = _best_seconds([sys.executable, "-c", IMPORTS]) - bare
    client = _best_seconds([sys.executable, "-c", CLIENT_IMPORTS]) - bare - imports
    print(
        f"start-up and exit, where they go: interpreter start and exit {bare:.2f} s; imports of "
        f"atlas infer {imports:.2f} s; plan, journal read, manifest, metrics and exit of a run "
        f"that sends nothing {noop_s - bare - imports:.2f} s; a run that sends adds the HTTP "
        f"client's import {client:.2f} s and the rest beyond its pass (the senders' fork and "
        f"exit, figures and intervals of the records sent, a larger heap) "
        f"{after_pass_s - noop_s - client:.2f} s"
    )


def _help_seconds() -> float:
    return _best_seconds([ATLAS, "infer", "--help"])


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    base = Path(tempfile.mkdtemp(prefix="bench-infer-"))
    try:
        with Stub("--delay", str(DELAY_S)) as stub:
            for requests, concurrency, target in CASES:
                if quick and (requests, concurrency) != (2160, 128):
                    continue
                root = base / str(requests)  # a dataset of exactly that many rows
                if not root.exists():
                    project(root, requests)
                _whole(root, stub, requests, concurrency, target)
            write_params(root, stub.url, {"limit": 200}, {"concurrency": 4})
            infer(root, stub)
            records = journal(root / "results" / "bench" / "responses.jsonl")
            ttft = statistics.median(r["ttft_s"] for r in records if r["ttft_s"] is not None)
            print(
                f"light load (concurrency 4, 200 requests): median TTFT {ttft * 1000:.1f} ms, "
                f"error {(ttft - DELAY_S) * 1000:+.1f} ms (target <= 5 ms)"
            )
        print(f"`atlas infer --help` start-up: {_help_seconds():.2f} s (target <= 1 s)")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
